/**
 * The managed sheets: names, columns (API field names, nested objects flattened, plus derived
 * columns), kinds that decide the cell conversion and number format, and the estimate notes.
 * Key columns come first in the catalog (the order rows are built in); a sheet may show them
 * elsewhere (TableSchema.sheetOrder), found by header.
 */
import { PROFIT_TOTALS_FIELDS } from '../api/types';
import { COST_STATUS_NOTE, LINE_COST_STATUS_NOTE } from './cost-status';
import { derived, field, nested } from './column-specs';
import type { ColumnSpec, TableSchema } from './table-schema';

export { changeSpan, columnIndex } from './column-positions';

export type { ColumnKind, ColumnSpec, SheetName, TableSchema } from './table-schema';

const ESTIMATE_AD_SPEND =
  'Estimate (API spec 2.3 rule 7): ad spend is allocated to orders by the service (see ad_spend_basis); treat it as an estimate, not a booked cost.';
const ESTIMATE_COVERAGE =
  'Estimate (API spec 2.3 rule 7): share of the order covered by known costs (100% = all); below 100% the cogs figure is incomplete.';

const cogsColumns = (): ColumnSpec[] => [
  field('cogs_unit_cost', 'amount', ['cogs', 'unit_cost']),
  field('cogs_handling_cost', 'amount', ['cogs', 'handling_cost']),
  field('cogs_currency', 'text', ['cogs', 'currency']),
  field('cogs_effective_from', 'timestamp', ['cogs', 'effective_from']),
  field('cogs_source', 'text', ['cogs', 'source']),
  field('cogs_cost_is_tiered', 'bool', ['cogs', 'cost_is_tiered']),
  field('cogs_cost_is_market_specific', 'bool', ['cogs', 'cost_is_market_specific']),
];

/** Derived order status values. */
export type OrderStatus = 'active' | 'cancelled' | 'gone';

/** The discount trap (spec 2.3): revenue is already net of discounts, so subtracting them again counts them twice. */
const GROSS_AFTER_DISCOUNTS = 'Already after discounts (API spec 2.3): do not subtract discount again.';
const DISCOUNT_REFERENCE =
  'For reference only: already taken off gross_revenue (API spec 2.3); subtracting it again counts it twice.';
const DAILY_NOTES: Readonly<Record<string, string>> = {
  ad_spend: ESTIMATE_AD_SPEND,
  gross_revenue: GROSS_AFTER_DISCOUNTS,
  discounts: DISCOUNT_REFERENCE,
};

/**
 * How an Orders sheet set up now shows its columns: what a finance reader reads
 * first — the order number, its placed date, customer and status, then the money — and the keys
 * and sync bookkeeping (id, gone_at, synced_at, external_order_gid) last. Sheets set up before
 * keep their order: every column is found by header.
 */
const ORDERS_SHEET_ORDER: readonly string[] = [
  'order_number',
  'placed_date',
  'customer_ref',
  'status',
  'financial_status',
  'fulfillment_status',
  'currency',
  'gross_revenue',
  'shipping_revenue',
  'discount',
  'tax',
  'tax_included_in_price',
  'refunds',
  'net_revenue',
  'cogs',
  'cogs_source',
  'cogs_coverage_pct',
  'cost_status',
  'fulfillment_cost',
  'fulfillment_cost_source',
  'payment_fee',
  'ad_spend_allocated',
  'ad_spend_basis',
  'contribution_profit',
  'contribution_margin_pct',
  'allocated_overhead',
  'net_profit',
  'net_margin_pct',
  'created_at',
  'canceled_at',
  'refunded_at',
  'platform',
  'sales_channel',
  'is_first_order',
  'customer_order_sequence',
  'is_subscription_renewal',
  'shipping_country_code',
  'primary_source',
  'is_paid',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'landing_page',
  'referrer',
  'device_type',
  'store_id',
  'external_order_id',
  // The change marker beside the keys: the hourly run reads them together for the rows it touches.
  'updated_at',
  'id',
  'gone_at',
  'synced_at',
  'external_order_gid',
];

export const ORDERS: TableSchema = {
  sheetName: 'Orders',
  sheetOrder: ORDERS_SHEET_ORDER,
  frozenColumns: 1,
  indexColumns: 5,
  keyReadColumns: 1,
  storeData: true,
  keyPrefix: 'ord_',
  changeColumns: { from: 'updated_at', to: 'updated_at' },
  columns: [
    field('id', 'text'),
    derived(
      'status',
      'text',
      'active, cancelled (canceled_at set) or gone (no longer returned by the service; see gone_at). Rows are never deleted.',
    ),
    derived('placed_date', 'date', "Placement date in the store's time zone (matches the Daily P&L dates)."),
    derived('gone_at', 'timestamp'),
    derived('synced_at', 'timestamp'),
    field('external_order_id', 'text'),
    field('external_order_gid', 'text'),
    field('order_number', 'text'),
    field('platform', 'text'),
    field('store_id', 'text'),
    field('created_at', 'timestamp'),
    field('updated_at', 'timestamp'),
    field('canceled_at', 'timestamp'),
    field('refunded_at', 'timestamp'),
    field('currency', 'text'),
    field('financial_status', 'text'),
    field('fulfillment_status', 'text'),
    field('sales_channel', 'text'),
    field('is_first_order', 'bool'),
    field('customer_order_sequence', 'int'),
    field('is_subscription_renewal', 'bool'),
    nested('economics', 'amount', 'gross_revenue', GROSS_AFTER_DISCOUNTS),
    nested('economics', 'amount', 'shipping_revenue'),
    nested('economics', 'amount', 'discount', DISCOUNT_REFERENCE),
    nested('economics', 'amount', 'tax'),
    nested('economics', 'bool', 'tax_included_in_price'),
    nested('economics', 'amount', 'refunds'),
    nested('economics', 'amount', 'net_revenue'),
    nested('economics', 'amount', 'cogs'),
    nested('economics', 'text', 'cogs_source'),
    nested('economics', 'pct', 'cogs_coverage_pct', ESTIMATE_COVERAGE),
    nested('economics', 'amount', 'fulfillment_cost'),
    nested('economics', 'text', 'fulfillment_cost_source'),
    nested('economics', 'amount', 'payment_fee'),
    nested('economics', 'amount', 'ad_spend_allocated', ESTIMATE_AD_SPEND),
    nested('economics', 'text', 'ad_spend_basis'),
    nested('economics', 'amount', 'contribution_profit'),
    nested('economics', 'pct', 'contribution_margin_pct'),
    nested('economics', 'amount', 'allocated_overhead'),
    nested('economics', 'amount', 'net_profit'),
    nested('economics', 'pct', 'net_margin_pct'),
    nested('attribution', 'text', 'primary_source'),
    nested('attribution', 'bool', 'is_paid'),
    nested('attribution', 'text', 'utm_source'),
    nested('attribution', 'text', 'utm_medium'),
    nested('attribution', 'text', 'utm_campaign'),
    nested('attribution', 'text', 'utm_term'),
    nested('attribution', 'text', 'utm_content'),
    nested('attribution', 'text', 'landing_page'),
    nested('attribution', 'text', 'referrer'),
    nested('attribution', 'text', 'device_type'),
    field('shipping_country_code', 'text'),
    field('customer_ref', 'text'),
    // Last, so a sheet set up before it existed gains it without moving a column (the header check).
    derived('cost_status', 'text', COST_STATUS_NOTE),
  ],
  addedColumns: 1,
};

/**
 * How a Line items sheet set up now shows its columns: the order's number first (as Orders shows
 * it, so a reader sees which order a line belongs to), then what the line is (product, SKU,
 * quantity) and its money, and the keys and sync bookkeeping (id, order_id, sync_status,
 * synced_at) last. Sheets set up before keep their order: every column is found by header.
 */
const LINE_ITEMS_SHEET_ORDER: readonly string[] = [
  'order_number',
  'name',
  'sku',
  'quantity',
  'price',
  'total',
  'cogs',
  'cost_status',
  'fulfillment_cost',
  'refund_amount',
  'refunded_quantity',
  'product_id',
  'variant_id',
  'id',
  'order_id',
  'sync_status',
  'synced_at',
];

export const LINE_ITEMS: TableSchema = {
  sheetName: 'Line items',
  sheetOrder: LINE_ITEMS_SHEET_ORDER,
  frozenColumns: 1,
  indexColumns: 3,
  // id and order_id: which line items an order listed (the order's members) is needed for every order.
  keyReadColumns: 2,
  // ...yet only order_id is read whole: the ids are read for the rows of the orders a run touches.
  parentKey: { column: 1, prefix: 'ord_' },
  storeData: true,
  keyPrefix: 'li_',
  columns: [
    field('id', 'text'),
    derived('order_id', 'text'),
    derived(
      'sync_status',
      'text',
      "Its order's status (active, cancelled or gone, as in Orders), or removed when the order no longer lists this line item (rows never move). Filter on active to match the API's revenue.",
    ),
    derived('synced_at', 'timestamp'),
    field('sku', 'text'),
    field('name', 'text'),
    field('product_id', 'text'),
    field('variant_id', 'text'),
    field('quantity', 'int'),
    field('price', 'amount'),
    field('total', 'amount'),
    field('cogs', 'amount'),
    field('fulfillment_cost', 'amount'),
    field('refund_amount', 'amount'),
    field('refunded_quantity', 'int'),
    // Last, so a sheet set up before it existed gains it without moving a column (the header check).
    derived('cost_status', 'text', LINE_COST_STATUS_NOTE),
    // Its order's number, as Orders shows it (#1018): last in the catalog for the same reason.
    derived('order_number', 'text', "Its order's order_number, as the Orders sheet shows it."),
  ],
  addedColumns: 2,
};

export const PRODUCTS: TableSchema = {
  sheetName: 'Products',
  indexColumns: 1,
  storeData: true,
  keyPrefix: 'prd_',
  changeColumns: { from: 'updated_at', to: 'updated_at' },
  columns: [
    field('id', 'text'),
    derived('synced_at', 'timestamp'),
    field('external_product_id', 'text'),
    field('name', 'text'),
    field('sku', 'text'),
    field('price', 'amount'),
    field('compare_at_price', 'amount'),
    field('status', 'text'),
    field('url', 'text'),
    field('image_url', 'text'),
    field('created_at', 'timestamp'),
    field('updated_at', 'timestamp'),
    ...cogsColumns(),
  ],
};

export const VARIANTS: TableSchema = {
  sheetName: 'Variants',
  indexColumns: 3,
  storeData: true,
  columns: [
    field('id', 'text'),
    derived('product_id', 'text'),
    derived(
      'sync_status',
      'text',
      'active, or removed when the product no longer lists this variant (rows never move).',
    ),
    derived('synced_at', 'timestamp'),
    field('external_variant_id', 'text'),
    field('title', 'text'),
    field('sku', 'text'),
    field('barcode', 'text'),
    field('position', 'int'),
    field('status', 'text'),
    field('price', 'amount'),
    ...cogsColumns(),
  ],
};

export const DAILY: TableSchema = {
  sheetName: 'Daily P&L',
  indexColumns: 1,
  storeData: true,
  // A day has no change marker: its figures themselves say whether it changed.
  changeColumns: { from: PROFIT_TOTALS_FIELDS[0], to: PROFIT_TOTALS_FIELDS[PROFIT_TOTALS_FIELDS.length - 1] },
  columns: [
    field('date', 'date'),
    derived('synced_at', 'timestamp'),
    ...PROFIT_TOTALS_FIELDS.map((name) => field(name, 'amount', [name], DAILY_NOTES[name])),
  ],
};

const MARGIN_NOTE =
  "Recomputed from the month's sums (never an average of daily margins); 0 when net revenue is zero or negative (API spec 2.3 rule 5).";

/** Daily P&L summed by month (the shared period sums); rebuilt from the Daily P&L sheet after every sync. */
export const MONTHLY: TableSchema = {
  sheetName: 'Monthly P&L',
  indexColumns: 1,
  storeData: true,
  keyPattern: /^\d{4}-\d{2}$/,
  columns: [
    derived('month', 'text', "YYYY-MM, in the store's time zone (as the Daily P&L dates)."),
    {
      ...derived(
        'status',
        'text',
        'complete, or partial (the month in progress, or a month the Daily P&L covers only in part: see first_day/last_day).',
      ),
      // The month in progress's status read whole at the set-up width, not "partial: month in…".
      valueChars: 'partial: month in progress'.length,
    },
    derived('first_day', 'date'),
    derived('last_day', 'date'),
    derived('days', 'int'),
    derived('synced_at', 'timestamp'),
    ...PROFIT_TOTALS_FIELDS.map((name) =>
      derived(name, 'amount', DAILY_NOTES[name] ?? 'Sum of the Daily P&L days of the month.'),
    ),
    derived('contribution_margin_pct', 'pct', MARGIN_NOTE),
    derived('net_margin_pct', 'pct', MARGIN_NOTE),
    derived('currency', 'text'),
    derived(
      'basis',
      'text',
      'The basis of these figures (profitability summary basis, spec 2.8): compare figures only on the same basis.',
    ),
  ],
};

/**
 * Per closed month, what a controller signs first, then the detail (the restatements), one
 * kind of row per `section`, in this order: `summary` (every P&L line: closed, current, difference),
 * `order` (each order whose figures moved since the close: kind of change and its Δ), `allocation`
 * (overhead the service shares out by revenue, apart from the orders), then `day` (every day and
 * field that differs). The columns from `section` on were added after the first layout.
 */
export const RESTATEMENTS: TableSchema = {
  sheetName: 'Restatements',
  indexColumns: 0,
  storeData: true,
  columns: [
    derived('closed_month', 'text'),
    derived('date', 'date', "The day (day rows) or the order's placement day (order rows), store time zone."),
    derived('field', 'text', 'The P&L line (summary, allocation and day rows).'),
    derived('closed_value', 'amount'),
    derived('current_value', 'amount'),
    derived('difference', 'amount', 'current_value − closed_value'),
    derived('closed_at', 'timestamp'),
    derived('checked_at', 'timestamp'),
    derived(
      'section',
      'text',
      "summary (the month per P&L line), order (orders changed since the close), allocation (overhead allocation, not an order's change), day (the detail by day).",
    ),
    derived(
      'change',
      'text',
      'refund, cancellation, cost correction, new, gone or other change: what happened to the order since the close.',
    ),
    derived('order_number', 'text'),
    derived('order_id', 'text'),
    derived(
      'delta_net_revenue',
      'amount',
      "Change of the order's net revenue in the month's P&L (a cancelled or gone order counts no more).",
    ),
    derived('delta_cogs', 'amount'),
    {
      ...derived(
        'delta_profit_before_overhead',
        'amount',
        "Change of the order's contribution profit, before allocated overhead: not its net profit (the overhead allocation moves apart, in the allocation rows).",
      ),
      formerHeader: 'delta_profit',
    },
    derived('explanation', 'text'),
  ],
  addedColumns: 8,
};

/**
 * Figures the tie-out compares: Orders column → Daily P&L field(s) (tieOut). These since
 * the Checks sheet began (their columns come before note); always synced, whatever columns are chosen.
 */
export const TIEOUT_FIGURES = [
  { figure: 'gross_revenue', orders: 'gross_revenue', pnl: ['gross_revenue'] },
  { figure: 'refunds', orders: 'refunds', pnl: ['refunds'] },
  { figure: 'net_revenue', orders: 'net_revenue', pnl: ['net_revenue'] },
  { figure: 'cogs', orders: 'cogs', pnl: ['cogs'] },
  { figure: 'payment_fees', orders: 'payment_fee', pnl: ['payment_fees'] },
  // An order's fulfillment_cost includes its shipping; the P&L reports shipping_cost apart.
  { figure: 'fulfillment_cost', orders: 'fulfillment_cost', pnl: ['fulfillment_cost', 'shipping_cost'] },
  { figure: 'ad_spend', orders: 'ad_spend_allocated', pnl: ['ad_spend'] },
] as const;

/**
 * Figures tied out later (their columns are appended after checked_at, so a Checks sheet of an
 * older version keeps its columns). Each is a sum of the orders' own figures, on the same basis:
 * spec 2.3 rule 1 makes Σ contribution_profit = net revenue − COGS − shipping − fulfilment − fees
 * − ad spend, which is CM3 by 2.8's definition; an order's net_profit is contribution_profit −
 * allocated_overhead (− tax when tax is treated as a cost, rule 6), the P&L's is CM3 − opex −
 * amortised_expenses − interest_expense (− tax on that basis), so allocated_overhead sums to the
 * three overhead lines together; tax is summed as it is reported. The emulator's own P&L
 * (the emulator's P&L) sums exactly these, in cents. Compared when the Orders sheet syncs
 * the column (a column choice may leave it out: then no one reads it there).
 */
export const TIEOUT_FIGURES_WHEN_SYNCED = [
  { figure: 'tax', orders: 'tax', pnl: ['tax'] },
  { figure: 'contribution_profit', orders: 'contribution_profit', pnl: ['contribution_margin_cm3'] },
  {
    figure: 'allocated_overhead',
    orders: 'allocated_overhead',
    pnl: ['opex', 'amortised_expenses', 'interest_expense'],
  },
  { figure: 'net_profit', orders: 'net_profit', pnl: ['net_profit'] },
] as const;

/**
 * Figures tied out later still (their columns come after pnl_sheet, for the same reason), compared
 * when the Orders sheet syncs the column: the P&L's shipping_revenue is the sum of its orders'
 * shipping_revenue (spec 2.3 reports it apart from gross_revenue; the emulator's P&L sums it
 * in cents).
 */
export const TIEOUT_FIGURES_ADDED = [
  { figure: 'shipping_revenue', orders: 'shipping_revenue', pnl: ['shipping_revenue'] },
  // A reference figure (spec 2.3: not subtracted again), but the P&L's discounts are its orders' discounts summed.
  { figure: 'discounts', orders: 'discount', pnl: ['discounts'] },
] as const;

/** The figures compared only where the Orders sheet syncs their column. */
export const TIEOUT_OPTIONAL = [...TIEOUT_FIGURES_WHEN_SYNCED, ...TIEOUT_FIGURES_ADDED] as const;

/** Every figure the tie-out compares. */
export const TIEOUT_COMPARED = [...TIEOUT_FIGURES, ...TIEOUT_OPTIONAL] as const;

/** What the tie-out cannot prove from orders, and why (the note column's header note). */
const NOT_COMPARED =
  "Not matchable from orders: the P&L's cogs_coverage_pct and the orders' margin percentages are ratios, not sums; " +
  'product_margin_cm1 needs the handling part of COGS, which an order does not carry; opex, amortised_expenses and interest_expense ' +
  'apart (and so ebitda): an order carries one allocated_overhead for all three, which is compared with their sum. ' +
  "Line items and an order's cogs_coverage_pct: no API total confirms them, so they are not proven. Orders tax, contribution_profit, allocated_overhead, net_profit, shipping_revenue and discount " +
  'are compared when the Orders sheet syncs them (Columns). Those P&L figures are proven cell by cell in the pnl_sheet column instead.';

const TIEOUT_FIGURE_COLUMNS = (figures: ReadonlyArray<(typeof TIEOUT_COMPARED)[number]>): ColumnSpec[] =>
  figures.flatMap((f) => [
    derived(`${f.figure}_orders`, 'amount', `Sum of Orders ${f.orders} by placed_date.`),
    derived(`${f.figure}_pnl`, 'amount', `Merchant Analytics daily P&L ${f.pnl.join(' + ')}, read at checked_at.`),
    derived(`${f.figure}_difference`, 'amount', 'orders − pnl'),
  ]);

/** What a Checks row's checked_at says: a check rewrites only the rows it changes. */
export const CHECKED_AT_NOTE =
  'checked_at: when the check that last changed the row ran; a later check that finds a row as it stands leaves it, and its time, as they are. ' +
  "The scope line's is when the last check that changed any row ran; the sidebar's Checks line says when the last check ran.";

/**
 * The tie-out: Orders summed by placed_date beside the service's Daily P&L, per day and per month;
 * and every Daily P&L and Monthly P&L figure beside the service's (pnl_sheet).
 */
export const CHECKS: TableSchema = {
  sheetName: 'Checks',
  indexColumns: 0,
  rowKeyColumns: 2,
  storeData: true,
  addedColumns: TIEOUT_OPTIONAL.length * 3 + 1,
  columns: [
    derived('period', 'text', 'A day (YYYY-MM-DD) or a month (YYYY-MM), store time zone.'),
    derived('kind', 'text'),
    derived(
      'result',
      'text',
      "✓ when every figure agrees to the cent (no tolerance: the API's amounts are exact cents); ✗ names why in note.",
    ),
    derived(
      'orders',
      'int',
      'Orders counted: cancelled and gone orders are left out, as the P&L leaves them out (refunds on the sale date).',
    ),
    ...TIEOUT_FIGURE_COLUMNS(TIEOUT_FIGURES),
    derived('note', 'text', NOT_COMPARED),
    derived('checked_at', 'timestamp', CHECKED_AT_NOTE),
    ...TIEOUT_FIGURE_COLUMNS(TIEOUT_FIGURES_WHEN_SYNCED),
    derived(
      'pnl_sheet',
      'text',
      "The Daily P&L row of the day (every field) or the Monthly P&L row of the month (every total, summed from the service's daily rows) " +
        'beside the service, to the cent: ✓, or the fields that differ.',
    ),
    ...TIEOUT_FIGURE_COLUMNS(TIEOUT_FIGURES_ADDED),
  ],
};

const LOG_COUNT = (header: string, note: string): ColumnSpec => derived(header, 'int', note);

export const SYNC_LOG: TableSchema = {
  sheetName: 'Sync log',
  indexColumns: 0,
  storeData: false,
  columns: [
    derived('started_at', 'timestamp', "In the spreadsheet's time zone (File → Settings)."),
    derived('ended_at', 'timestamp'),
    derived('job', 'text'),
    LOG_COUNT(
      'orders_added',
      'Orders new to the Orders sheet (a row you deleted that the sync puts back is not new: see orders_updated). The sidebar shows the same figures for the run.',
    ),
    LOG_COUNT(
      'orders_updated',
      'Orders already synced whose values changed, or whose deleted row was put back (the sidebar says how many were restored). An order the service returned again unchanged is not written and not counted.',
    ),
    LOG_COUNT('orders_cancelled', 'Of the updated orders, those that became cancelled.'),
    LOG_COUNT(
      'orders_gone',
      'Orders the service no longer returns, marked gone (status gone, gone_at) by the monthly check.',
    ),
    LOG_COUNT('line_items', 'Line item rows written (new, changed or marked removed).'),
    LOG_COUNT('products', 'Product rows written (new or changed).'),
    LOG_COUNT('variants', 'Variant rows written (new, changed or marked removed).'),
    LOG_COUNT('pnl_days', 'Days of the Daily P&L written (new, or whose figures changed).'),
    derived('pages', 'int', 'API pages read.'),
    derived('requests', 'int', 'API requests made.'),
    derived('rate_limit_waits', 'int'),
    derived(
      'outcome',
      'text',
      'ok, partial (continues next run), error, busy, interrupted (ended by the Apps Script time limit) or running.',
    ),
    derived('message', 'text'),
  ],
};
