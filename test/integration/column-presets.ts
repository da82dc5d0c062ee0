/** The column presets as the user knows them from "Columns you choose": what the tests expect the sheets to hold. */

/** Essentials: keys, derived columns, what the add-on reads back, and a few finance fields. */
export const ESSENTIAL_ORDERS = [
  // As a finance reader reads an order: its number, day and status, the money, then the keys last.
  'order_number',
  'placed_date',
  'status',
  'financial_status',
  'currency',
  'gross_revenue',
  'shipping_revenue',
  'tax',
  'tax_included_in_price',
  'refunds',
  'net_revenue',
  'cogs',
  'cogs_source',
  'cogs_coverage_pct',
  'cost_status',
  'fulfillment_cost',
  'payment_fee',
  'ad_spend_allocated',
  'contribution_profit',
  'allocated_overhead',
  'net_profit',
  'updated_at',
  'id',
  'gone_at',
  'synced_at',
];
export const ESSENTIAL_LINES = [
  // As a finance reader reads a line: its order's number, what was sold and its money, then the keys last.
  'order_number',
  'sku',
  'total',
  'cogs',
  'cost_status',
  'id',
  'order_id',
  'sync_status',
  'synced_at',
];

/** All: every field of an order and a line item (API spec 2.3, 2.4, flattened) with the derived columns. */
export const ALL_ORDER_COLUMNS = 54;
export const ALL_LINE_COLUMNS = 17;
