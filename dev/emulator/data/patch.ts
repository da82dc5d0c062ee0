import { toCents } from '../money.js';
import type { AttributionRecord, LineRecord, OrderRecord } from './model.js';
import { REVENUE_STATUSES } from './model.js';

/** A patch field that is unknown, derived or of the wrong type; the message names it. */
export class PatchError extends Error {}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function str(path: string, v: unknown): string {
  if (typeof v !== 'string') throw new PatchError(`${path} must be a string`);
  return v;
}
function bool(path: string, v: unknown): boolean {
  if (typeof v !== 'boolean') throw new PatchError(`${path} must be true or false`);
  return v;
}
function amount(path: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1e11)
    throw new PatchError(`${path} must be a non-negative amount`);
  return toCents(v);
}
function count(path: string, v: unknown, min: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > 1e9)
    throw new PatchError(`${path} must be an integer from ${min}`);
  return v;
}

const ORDER_FIELDS: Record<string, (o: OrderRecord, v: unknown) => void> = {
  order_number: (o, v) => {
    o.orderNumber = str('order_number', v);
  },
  platform: (o, v) => {
    o.platform = str('platform', v);
  },
  // An order in another currency than the store's (spec 2.3: amounts are in the order currency).
  currency: (o, v) => {
    const c = str('currency', v);
    if (!/^[A-Z]{3}$/.test(c)) throw new PatchError('currency must be a three-letter ISO 4217 code such as EUR');
    o.currency = c;
  },
  fulfillment_status: (o, v) => {
    o.fulfillmentStatus = str('fulfillment_status', v);
  },
  shipping_country_code: (o, v) => {
    o.shippingCountryCode = str('shipping_country_code', v);
  },
  customer_ref: (o, v) => {
    o.customerRef = str('customer_ref', v);
  },
  is_first_order: (o, v) => {
    o.isFirstOrder = bool('is_first_order', v);
  },
  is_subscription_renewal: (o, v) => {
    o.isSubscriptionRenewal = bool('is_subscription_renewal', v);
  },
  customer_order_sequence: (o, v) => {
    o.customerOrderSequence = count('customer_order_sequence', v, 1);
  },
  sales_channel: (o, v) => {
    if (v !== 'd2c' && v !== 'b2b') throw new PatchError('sales_channel must be d2c or b2b');
    o.salesChannel = v;
  },
  financial_status: (o, v) => {
    const s = str('financial_status', v);
    if (!REVENUE_STATUSES.includes(s) || o.canceledMs !== null)
      throw new PatchError(
        `financial_status must be one of ${REVENUE_STATUSES.join(', ')} on an order that is not cancelled (cancel through the change route)`,
      );
    o.financialStatus = s;
  },
  attribution: (o, v) => {
    if (!isObject(v)) throw new PatchError('attribution must be an object');
    for (const [key, value] of Object.entries(v)) patchAttribution(o.attribution, key, value);
  },
  economics: (o, v) => {
    if (!isObject(v)) throw new PatchError('economics must be an object');
    for (const [key, value] of Object.entries(v)) {
      const set = ECONOMICS_INPUTS[key];
      if (!set)
        throw new PatchError(
          `economics.${key} cannot be patched: it is derived (patch line_items) or unknown; inputs: ${Object.keys(ECONOMICS_INPUTS).join(', ')}`,
        );
      set(o, value);
    }
  },
  line_items: (o, v) => {
    if (!Array.isArray(v)) throw new PatchError('line_items must be an array of partial line items');
    v.forEach((item, i) => {
      if (!isObject(item)) throw new PatchError(`line_items[${i}] must be an object`);
      const line = typeof item.id === 'string' ? o.lines.find((l) => l.id === item.id) : o.lines[i];
      if (!line)
        throw new PatchError(`line_items[${i}] matches no line item of the order (by id, or by position without id)`);
      for (const [key, value] of Object.entries(item))
        if (key !== 'id') patchLine(line, `line_items[${i}].${key}`, key, value);
    });
  },
};

const ECONOMICS_INPUTS: Record<string, (o: OrderRecord, v: unknown) => void> = {
  shipping_revenue: (o, v) => {
    o.shippingRevenue = amount('economics.shipping_revenue', v);
  },
  tax: (o, v) => {
    o.tax = amount('economics.tax', v);
  },
  tax_included_in_price: (o, v) => {
    o.taxIncludedInPrice = bool('economics.tax_included_in_price', v);
  },
  payment_fee: (o, v) => {
    o.paymentFee = amount('economics.payment_fee', v);
  },
  ad_spend_allocated: (o, v) => {
    o.adSpend = amount('economics.ad_spend_allocated', v);
  },
  cogs_source: (o, v) => {
    o.cogsSource = str('economics.cogs_source', v);
  },
  fulfillment_cost_source: (o, v) => {
    o.fulfillmentCostSource = str('economics.fulfillment_cost_source', v);
  },
  ad_spend_basis: (o, v) => {
    o.adSpendBasis = str('economics.ad_spend_basis', v);
  },
};

const UTM = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;

function patchAttribution(a: AttributionRecord, key: string, value: unknown): void {
  const path = `attribution.${key}`;
  if ((UTM as readonly string[]).includes(key)) {
    a[key as (typeof UTM)[number]] = value === null ? null : str(path, value);
  } else if (key === 'is_paid') a.is_paid = bool(path, value);
  else if (key === 'primary_source' || key === 'landing_page' || key === 'referrer' || key === 'device_type')
    a[key] = str(path, value);
  else throw new PatchError(`${path} is not an attribution field`);
}

function patchLine(line: LineRecord, path: string, key: string, value: unknown): void {
  switch (key) {
    case 'name':
      line.name = str(path, value);
      return;
    case 'sku':
      line.sku = str(path, value);
      return;
    case 'quantity':
      line.quantity = count(path, value, 1);
      line.refundedQuantity = Math.min(line.refundedQuantity, line.quantity);
      return;
    case 'price':
      line.price = amount(path, value);
      return;
    case 'total':
      line.total = amount(path, value);
      return;
    case 'cogs':
      line.costKnown = value !== null;
      line.cogs = value === null ? 0 : amount(path, value);
      line.handling = Math.min(line.handling, line.cogs);
      return;
    case 'fulfillment_cost':
      line.fulfillmentCost = amount(path, value);
      line.shippingCost = Math.min(line.shippingCost, line.fulfillmentCost);
      return;
    case 'refund_amount':
      line.refundAmount = amount(path, value);
      return;
    case 'refunded_quantity':
      line.refundedQuantity = count(path, value, 0);
      return;
    default:
      throw new PatchError(`${path} cannot be patched (id, product_id and variant_id are fixed)`);
  }
}

/**
 * Merges a partial order (API field names) into a copy of the order and returns the copy; the
 * original is untouched when any field is refused. Derived figures are recomputed on read.
 */
export function patchedOrder(order: OrderRecord, patch: Json): OrderRecord {
  const copy = structuredClone(order);
  for (const [key, value] of Object.entries(patch)) {
    const set = ORDER_FIELDS[key];
    if (!set) throw new PatchError(`${key} cannot be patched; fields: ${Object.keys(ORDER_FIELDS).join(', ')}`);
    set(copy, value);
  }
  for (const line of copy.lines) {
    // discount stays the reference figure price × quantity − total (never negative).
    line.discount = Math.max(0, line.price * line.quantity - line.total);
  }
  return copy;
}
