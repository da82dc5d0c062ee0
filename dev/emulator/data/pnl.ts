import { toAmount, type Cents } from '../money.js';
import { addDays, startOfLocalDay } from '../timezone.js';
import { computeEconomics, type EconomicsCents } from './economics.js';
import type { OrderRecord } from './model.js';
import { indexCreatedFrom, type StoreData } from './store-data.js';

export const TOTALS_FIELDS = [
  'gross_revenue', 'refunds', 'net_revenue', 'cogs', 'ad_spend', 'payment_fees', 'fulfillment_cost',
  'product_margin_cm1', 'gross_profit_cm2', 'contribution_margin_cm3', 'ebitda', 'net_profit',
  'shipping_revenue', 'discounts', 'tax', 'shipping_cost', 'variable_costs', 'opex', 'amortised_expenses', 'interest_expense',
] as const;
export type TotalsField = (typeof TOTALS_FIELDS)[number];
export type Totals = Record<TotalsField, number>;

/**
 * What one order adds to each total, in cents, recognised on its placement date (refund_recognition
 * = sale_date). The return type makes a total without a formula a compile error.
 * CM3 = CM2 - shipping_cost - fulfillment_cost - payment_fees - ad_spend (= Σ contribution_profit);
 * net_profit = ebitda - amortised_expenses - interest_expense [- tax] (= Σ net_profit).
 */
function orderContribution(e: EconomicsCents): Record<TotalsField, Cents> {
  // Shipping has its own total, so fulfillment_cost is the rest of the fulfilment.
  const otherFulfilment = e.fulfillmentCost - e.shippingCost;
  return {
    gross_revenue: e.grossRevenue,
    refunds: e.refunds,
    net_revenue: e.netRevenue,
    cogs: e.cogs,
    ad_spend: e.adSpend,
    payment_fees: e.paymentFee,
    fulfillment_cost: otherFulfilment,
    product_margin_cm1: e.netRevenue - (e.cogs - e.handling),
    gross_profit_cm2: e.netRevenue - e.cogs,
    contribution_margin_cm3: e.contributionProfit,
    ebitda: e.contributionProfit - e.overheadOpex,
    net_profit: e.netProfit,
    shipping_revenue: e.shippingRevenue,
    discounts: e.discount,
    tax: e.tax,
    shipping_cost: e.shippingCost,
    variable_costs: e.cogs + e.shippingCost + otherFulfilment + e.paymentFee + e.adSpend,
    opex: e.overheadOpex,
    amortised_expenses: e.overheadAmortised,
    interest_expense: e.overheadInterest,
  };
}

/** Running P&L sums in cents over the orders behind a day or a period. */
export class PnlAccumulator {
  private readonly c: Record<TotalsField, Cents> = Object.fromEntries(TOTALS_FIELDS.map((f) => [f, 0])) as Record<TotalsField, Cents>;
  unitsTotal = 0;
  unitsCovered = 0;

  constructor(private readonly taxTreatedAsCost: boolean) {}

  add(order: OrderRecord): void {
    const e = computeEconomics(order, this.taxTreatedAsCost);
    const contribution = orderContribution(e);
    for (const f of TOTALS_FIELDS) this.c[f] += contribution[f];
    this.unitsTotal += e.unitsTotal;
    this.unitsCovered += e.unitsCovered;
  }

  totals(): Totals {
    return Object.fromEntries(TOTALS_FIELDS.map((f) => [f, toAmount(this.c[f])])) as Totals;
  }

  coveragePct(): number {
    return this.unitsTotal === 0 ? 100 : Math.round((this.unitsCovered * 10000) / this.unitsTotal) / 100;
  }
}

/** Orders placed on local dates first..last (inclusive), cancelled ones excluded. */
export function ordersPlacedBetween(data: StoreData, first: string, last: string): OrderRecord[] {
  const tz = data.store.timezone;
  const from = indexCreatedFrom(data.ordersById, startOfLocalDay(first, tz));
  const to = indexCreatedFrom(data.ordersById, startOfLocalDay(addDays(last, 1), tz));
  const out: OrderRecord[] = [];
  for (let i = from; i < to; i++) {
    const o = data.ordersById[i]!;
    if (o.canceledMs === null) out.push(o);
  }
  return out;
}

export function dailyRows(data: StoreData, first: string, last: string): Array<Totals & { date: string }> {
  const byDate = new Map<string, PnlAccumulator>();
  for (let d = first; d <= last; d = addDays(d, 1)) byDate.set(d, new PnlAccumulator(data.store.taxTreatedAsCost));
  for (const order of ordersPlacedBetween(data, first, last)) byDate.get(order.localDate)?.add(order);
  return [...byDate].map(([date, acc]) => ({ date, ...acc.totals() }));
}

export function periodTotals(data: StoreData, first: string, last: string): PnlAccumulator {
  const acc = new PnlAccumulator(data.store.taxTreatedAsCost);
  if (first <= last) for (const order of ordersPlacedBetween(data, first, last)) acc.add(order);
  return acc;
}
