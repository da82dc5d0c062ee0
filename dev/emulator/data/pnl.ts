import { toAmount, type Cents } from '../money.js';
import { addDays, startOfLocalDay } from '../timezone.js';
import { computeEconomics } from './economics.js';
import type { OrderRecord } from './model.js';
import { indexCreatedFrom, type StoreData } from './store-data.js';

export const TOTALS_FIELDS = [
  'gross_revenue',
  'refunds',
  'net_revenue',
  'cogs',
  'ad_spend',
  'payment_fees',
  'fulfillment_cost',
  'product_margin_cm1',
  'gross_profit_cm2',
  'contribution_margin_cm3',
  'ebitda',
  'net_profit',
  'shipping_revenue',
  'discounts',
  'tax',
  'shipping_cost',
  'variable_costs',
  'opex',
  'amortised_expenses',
  'interest_expense',
] as const;
export type TotalsField = (typeof TOTALS_FIELDS)[number];
export type Totals = Record<TotalsField, number>;

/** Running P&L sums in cents over the orders behind a day or a period. */
export class PnlAccumulator {
  private readonly c: Record<TotalsField, Cents> = Object.fromEntries(TOTALS_FIELDS.map((f) => [f, 0])) as Record<
    TotalsField,
    Cents
  >;
  unitsTotal = 0;
  unitsCovered = 0;

  constructor(private readonly taxTreatedAsCost: boolean) {}

  /**
   * Adds one order, recognised on its placement date (refund_recognition = sale_date). Relations:
   * CM1 = net_revenue - (cogs - handling); CM2 = net_revenue - cogs;
   * CM3 = CM2 - shipping_cost - fulfillment_cost - payment_fees - ad_spend (= Σ contribution_profit);
   * ebitda = CM3 - opex; net_profit = ebitda - amortised_expenses - interest_expense [- tax] (= Σ net_profit).
   */
  add(order: OrderRecord): void {
    const e = computeEconomics(order, this.taxTreatedAsCost);
    const c = this.c;
    const otherFulfilment = e.fulfillmentCost - e.shippingCost;
    c.gross_revenue += e.grossRevenue;
    c.refunds += e.refunds;
    c.net_revenue += e.netRevenue;
    c.cogs += e.cogs;
    c.ad_spend += e.adSpend;
    c.payment_fees += e.paymentFee;
    c.fulfillment_cost += otherFulfilment;
    c.shipping_cost += e.shippingCost;
    c.product_margin_cm1 += e.netRevenue - (e.cogs - e.handling);
    c.gross_profit_cm2 += e.netRevenue - e.cogs;
    c.contribution_margin_cm3 += e.contributionProfit;
    c.variable_costs += e.cogs + e.shippingCost + otherFulfilment + e.paymentFee + e.adSpend;
    c.opex += e.overheadOpex;
    c.ebitda += e.contributionProfit - e.overheadOpex;
    c.amortised_expenses += e.overheadAmortised;
    c.interest_expense += e.overheadInterest;
    c.net_profit += e.netProfit;
    c.shipping_revenue += e.shippingRevenue;
    c.discounts += e.discount;
    c.tax += e.tax;
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
function ordersPlacedBetween(data: StoreData, first: string, last: string): OrderRecord[] {
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
