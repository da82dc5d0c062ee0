import { marginPct, roundCents, type Cents } from '../money.js';
import { OVERHEAD_RATE, OVERHEAD_SPLIT, type OrderRecord } from './model.js';

/** Order economics in cents: every figure derived from the line items and stored order inputs. */
export interface EconomicsCents {
  grossRevenue: Cents;
  shippingRevenue: Cents;
  discount: Cents;
  tax: Cents;
  refunds: Cents;
  netRevenue: Cents;
  cogs: Cents;
  handling: Cents;
  cogsCoveragePct: number;
  unitsTotal: number;
  unitsCovered: number;
  fulfillmentCost: Cents;
  shippingCost: Cents;
  paymentFee: Cents;
  adSpend: Cents;
  contributionProfit: Cents;
  contributionMarginPct: number;
  allocatedOverhead: Cents;
  overheadOpex: Cents;
  overheadAmortised: Cents;
  overheadInterest: Cents;
  netProfit: Cents;
  netMarginPct: number;
}

/**
 * The formulas of spec 2.3, on integer cents:
 *   gross_revenue = Σ line total; refunds = Σ line refund_amount; cogs = Σ line cogs;
 *   fulfillment_cost = Σ line fulfillment_cost; net_revenue = gross_revenue - refunds;
 *   contribution_profit = net_revenue - cogs - ad_spend_allocated - payment_fee - fulfillment_cost;
 *   allocated_overhead = round(max(0, net_revenue) * 6%);
 *   net_profit = contribution_profit - allocated_overhead (- tax when tax is treated as a cost);
 *   percentages = round(x / net_revenue * 100, 2 decimals, half away from zero), 0 when net_revenue <= 0;
 *   cogs_coverage_pct = units with a known cost / all units * 100 (2 decimals; 100 for an order of 0 units).
 */
export function computeEconomics(order: OrderRecord, taxTreatedAsCost: boolean): EconomicsCents {
  let gross = 0;
  let discount = 0;
  let refunds = 0;
  let cogs = 0;
  let handling = 0;
  let fulfillment = 0;
  let shipping = 0;
  let units = 0;
  let covered = 0;
  for (const line of order.lines) {
    gross += line.total;
    discount += line.discount;
    refunds += line.refundAmount;
    cogs += line.cogs;
    handling += line.handling;
    fulfillment += line.fulfillmentCost;
    shipping += line.shippingCost;
    units += line.quantity;
    if (line.costKnown) covered += line.quantity;
  }
  const net = gross - refunds;
  const contribution = net - cogs - order.adSpend - order.paymentFee - fulfillment;
  const overhead = roundCents(Math.max(0, net) * OVERHEAD_RATE);
  const amortised = roundCents(overhead * OVERHEAD_SPLIT.amortised);
  const interest = roundCents(overhead * OVERHEAD_SPLIT.interest);
  const netProfit = contribution - overhead - (taxTreatedAsCost ? order.tax : 0);
  return {
    grossRevenue: gross,
    shippingRevenue: order.shippingRevenue,
    discount,
    tax: order.tax,
    refunds,
    netRevenue: net,
    cogs,
    handling,
    cogsCoveragePct: units === 0 ? 100 : roundCents((covered * 10000) / units) / 100,
    unitsTotal: units,
    unitsCovered: covered,
    fulfillmentCost: fulfillment,
    shippingCost: shipping,
    paymentFee: order.paymentFee,
    adSpend: order.adSpend,
    contributionProfit: contribution,
    contributionMarginPct: marginPct(contribution, net),
    allocatedOverhead: overhead,
    overheadOpex: overhead - amortised - interest,
    overheadAmortised: amortised,
    overheadInterest: interest,
    netProfit,
    netMarginPct: marginPct(netProfit, net),
  };
}
