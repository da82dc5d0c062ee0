/**
 * Domain names for the API's shapes (spec section 2).
 * TODO(api): replace the hand-written shapes below with aliases of the OpenAPI-generated
 * src/server/api/generated/schema.d.ts (components['schemas'][...]) once it exists; the names
 * and fields here follow the spec so that swap changes no caller.
 */

export interface Economics {
  gross_revenue: number;
  shipping_revenue: number;
  discount: number;
  tax: number;
  tax_included_in_price: boolean;
  refunds: number;
  net_revenue: number;
  cogs: number;
  cogs_source: string;
  cogs_coverage_pct: number;
  fulfillment_cost: number;
  fulfillment_cost_source: string;
  payment_fee: number;
  ad_spend_allocated: number;
  ad_spend_basis: string;
  contribution_profit: number;
  contribution_margin_pct: number;
  allocated_overhead: number;
  net_profit: number;
  net_margin_pct: number;
}

export interface Attribution {
  primary_source: string;
  is_paid: boolean;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  utm_term: string | null;
  utm_content: string | null;
  landing_page: string;
  referrer: string;
  device_type: string;
}

export interface LineItem {
  id: string;
  sku: string;
  name: string;
  product_id: string;
  variant_id: string;
  quantity: number;
  price: number;
  total: number;
  cogs: number;
  fulfillment_cost: number;
  refund_amount: number;
  refunded_quantity: number;
}

export interface Order {
  id: string;
  external_order_id: string;
  external_order_gid: string;
  order_number: string;
  platform: string;
  store_id: string;
  created_at: string;
  updated_at: string;
  canceled_at: string | null;
  refunded_at: string | null;
  currency: string;
  financial_status: string;
  fulfillment_status: string;
  sales_channel: 'd2c' | 'b2b';
  is_first_order: boolean;
  customer_order_sequence: number;
  is_subscription_renewal: boolean;
  economics: Economics;
  attribution: Attribution;
  shipping_country_code: string;
  customer_ref: string;
  line_items: LineItem[];
}

export interface ProductCogs {
  unit_cost: number;
  handling_cost: number;
  currency: string;
  effective_from: string;
  source: string;
  cost_is_tiered: boolean;
  cost_is_market_specific: boolean;
}

export interface Variant {
  id?: string;
  external_variant_id: string;
  title: string;
  barcode: string | null;
  position: number;
  status: string;
  sku?: string;
  price?: number;
  /** null: cost unknown (never zero). */
  cogs: ProductCogs | null;
}

export interface Product {
  id: string;
  external_product_id: string;
  name: string;
  sku: string;
  price: number;
  status: string;
  url: string;
  image_url: string;
  compare_at_price: number;
  created_at: string;
  updated_at: string;
  /** null: cost unknown (never zero). */
  cogs: ProductCogs | null;
  variants: Variant[];
}

/** The `totals` fields of spec 2.8, in the spec's order (also the daily row's figures, 2.9). */
export const PROFIT_TOTALS_FIELDS = [
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

export type ProfitTotalsField = (typeof PROFIT_TOTALS_FIELDS)[number];
export type ProfitTotals = Record<ProfitTotalsField, number>;

export interface ProfitabilitySummary {
  period: { start: string; end: string; days: number };
  currency: string;
  cogs_coverage_pct: number;
  basis: { refund_recognition: string; tax_treated_as_cost: boolean; ad_spend: string };
  totals: ProfitTotals;
}

export type DailyRow = ProfitTotals & { date: string };

export interface Store {
  id: string;
  name: string;
  platform: string;
  shop_domain: string;
  currency: string;
  timezone: string;
}

export interface Account {
  store: Store;
  connection: { client_id: string; scopes: string[] };
  data_availability: { history_days: number | null; available_from: string | null; last_sync_at: string | null; stale: boolean };
  rate_limits: Record<string, unknown>;
}
