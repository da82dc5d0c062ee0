import type { DataOptions } from '../options.js';
import { SeededRandom } from '../random.js';
import { generateProducts } from './catalog.js';
import type { OrderRecord, StoreRecord } from './model.js';
import { OrderFactory, playHistory, streamFor } from './orders.js';
import { StoreData } from './store-data.js';

const DAY_MS = 86_400_000;

export interface GeneratedStore {
  data: StoreData;
  factory: OrderFactory;
  /** Stream for orders placed later through the control API. */
  random: SeededRandom;
}

interface StorePlan {
  store: StoreRecord;
  orders: number;
  products: number;
  days: number;
}

/**
 * The merchant: the connected main store (the sizes given in the options) and a small second
 * store, so a consent page has a choice and switch-store has somewhere to go.
 */
export function generateMerchant(options: DataOptions, anchorMs: number): GeneratedStore[] {
  const ids = new SeededRandom(options.seed);
  const main: StoreRecord = {
    id: `sto_${ids.token(12)}`,
    name: 'Northwind Outfitters',
    platform: 'shopify',
    domain: 'northwind-outfitters.myshopify.com',
    currency: options.currency,
    timezone: options.timezone,
    plan: options.plan,
    taxTreatedAsCost: options.taxTreatedAsCost,
  };
  const outlet: StoreRecord = {
    id: `sto_${ids.token(12)}`,
    name: 'Northwind Outlet',
    platform: 'shopify',
    domain: 'northwind-outlet.myshopify.com',
    currency: 'GBP',
    timezone: 'Europe/London',
    plan: options.plan,
    taxTreatedAsCost: options.taxTreatedAsCost,
  };
  const plans: StorePlan[] = [
    { store: main, orders: options.orders, products: options.products, days: options.days },
    { store: outlet, orders: 40, products: 8, days: 120 },
  ];
  return plans.map((plan, i) => generateStore(plan, options.seed, i, anchorMs));
}

function generateStore(plan: StorePlan, seed: number, storeNumber: number, anchorMs: number): GeneratedStore {
  const random = streamFor(seed, 1 + storeNumber * 10);
  const startMs = anchorMs - plan.days * DAY_MS;
  const products = generateProducts(plan.store, plan.products, startMs, anchorMs, random);
  const factory = new OrderFactory(plan.store, products, seed, Math.ceil(plan.orders / 2.5), random);
  const times = new Float64Array(plan.orders);
  for (let i = 0; i < plan.orders; i++) times[i] = startMs + Math.floor(random.float() * (anchorMs - startMs));
  times.sort();
  const orders: OrderRecord[] = new Array(plan.orders);
  for (let i = 0; i < plan.orders; i++) {
    const order = factory.build(times[i]!, random);
    playHistory(order, anchorMs, random);
    orders[i] = order;
  }
  for (const p of products) p.updatedMs = Math.min(p.updatedMs, anchorMs);
  return { data: new StoreData(plan.store, orders, products), factory, random: streamFor(seed, 2 + storeNumber * 10) };
}
