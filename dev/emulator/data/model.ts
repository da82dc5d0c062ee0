import type { components } from '../../../src/server/api/generated/schema.js';
import type { Cents } from '../money.js';
import type { Plan } from '../options.js';
import type { RawFields } from './raw-fields.js';

/** Internal records: amounts in cents, instants in ms. Published shapes are built by the API's serializers. */

export interface StoreRecord {
  id: string;
  name: string;
  platform: string;
  domain: string;
  currency: string;
  timezone: string;
  plan: Plan;
  taxTreatedAsCost: boolean;
}

export interface CostRecord {
  unitCost: Cents;
  handlingCost: Cents;
  currency: string;
  effectiveFromMs: number;
  source: string;
  tiered: boolean;
  marketSpecific: boolean;
}

export interface VariantRecord {
  id: string;
  externalId: string;
  title: string;
  sku: string;
  barcode: string;
  position: number;
  status: string;
  price: Cents;
  cogs: CostRecord | null;
}

export interface ProductRecord {
  id: string;
  externalId: string;
  storeId: string;
  name: string;
  sku: string;
  price: Cents;
  compareAtPrice: Cents;
  status: string;
  url: string;
  imageUrl: string;
  createdMs: number;
  updatedMs: number;
  variants: VariantRecord[];
}

export interface LineRecord {
  id: string;
  sku: string;
  name: string;
  productId: string;
  variantId: string;
  quantity: number;
  price: Cents;
  /** Line discount; total = price * quantity - discount. */
  discount: Cents;
  total: Cents;
  cogs: Cents;
  /** Handling part of cogs (product cost = cogs - handling); not published per line, drives CM1 vs CM2. */
  handling: Cents;
  costKnown: boolean;
  fulfillmentCost: Cents;
  /** Shipping-label part of fulfillmentCost; daily rows report it as shipping_cost. */
  shippingCost: Cents;
  refundAmount: Cents;
  refundedQuantity: number;
}

/** Kept in the published shape (the OpenAPI schema's), which serialize copies as it is. */
export type AttributionRecord = components['schemas']['Attribution'];

export interface OrderRecord {
  id: string;
  externalId: string;
  orderNumber: string;
  platform: string;
  storeId: string;
  createdMs: number;
  updatedMs: number;
  canceledMs: number | null;
  refundedMs: number | null;
  /** Placement date in the store's timezone (cached: immutable, used for daily rows). */
  localDate: string;
  currency: string;
  financialStatus: string;
  fulfillmentStatus: string;
  salesChannel: 'd2c' | 'b2b';
  isFirstOrder: boolean;
  customerOrderSequence: number;
  isSubscriptionRenewal: boolean;
  shippingCountryCode: string;
  customerRef: string;
  attribution: AttributionRecord;
  lines: LineRecord[];
  shippingRevenue: Cents;
  tax: Cents;
  taxIncludedInPrice: boolean;
  cogsSource: string;
  fulfillmentCostSource: string;
  paymentFee: Cents;
  adSpend: Cents;
  adSpendBasis: string;
  /** Test control only: fields served as raw JSON text (the raw fields); absent normally. */
  rawFields?: RawFields;
}

/** Share of net revenue allocated as overhead, and how the overhead splits for the P&L. */
export const OVERHEAD_RATE = 0.06;
export const OVERHEAD_SPLIT = { amortised: 0.12, interest: 0.08 } as const;

export const REVENUE_STATUSES: readonly string[] = [
  'paid',
  'completed',
  'processing',
  'partially_refunded',
  'refunded',
];
export const CANCELLED_STATUS = 'voided';
