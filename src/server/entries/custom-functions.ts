/**
 * The custom functions. Sheets reads `@customfunction` and the parameter docs from the JSDoc the
 * build copies onto each top-level declaration, for autocomplete.
 */
import {
  maFreshness,
  productCost,
  profitDaily,
  profitMonthlyLaidOut,
  profitOrder,
  profitSummary,
  type Table,
} from '../functions';
import { profitTieout } from '../functions/tieout';
import { isPeriodColumn, profitSummaryColumn } from '../functions/summary-column';
import { shownSummary, summaryShowArgument } from '../functions/summary-show';

/**
 * Profit and loss of the connected store for a period. With a metric ("net_profit", "cm3",
 * "net_margin_pct", any totals field; case-insensitive): that one number. Without: a 2-column
 * table (field, value) of period, currency, basis, COGS coverage and every total. Read the basis
 * before comparing figures. When the plan's history cuts the period, a cell beside the number says so;
 * a period wholly before that history has no figures (an empty cell and a note, never 0).
 * For many periods, give a column of starts and a column of ends (and a metric): one column of
 * answers, each row its own period, a blank with the reason beside it where there is no figure.
 * One formula for the whole column is much faster than one per cell.
 * @param {Date|string|Array<Array<Date|string>>} start First day (a date cell or "YYYY-MM-DD"), in the store's time zone; or a column of first days.
 * @param {Date|string|Array<Array<Date|string>>} end Last day, included (a date cell or "YYYY-MM-DD"); or a column of last days.
 * @param {string=} metric Optional: one metric name, e.g. "net_profit", "cm1", "cm2", "cm3", "net_margin_pct" (required with columns).
 * @param {string=} show Optional, with a metric: "value" for the number alone (always one cell), "note" for the note alone.
 * @return {Array<Array<string|number|boolean>>} the number, or a header row then one row per field; with columns, one row per period (number, reason).
 * @customfunction
 */
export function PROFIT_SUMMARY(start: unknown, end: unknown, metric?: unknown, show?: unknown): Table {
  const column = isPeriodColumn(start, end);
  const shown = summaryShowArgument(show, metric, column);
  if (column) return profitSummaryColumn(start, end, metric);
  return shownSummary(profitSummary(start, end, metric), shown);
}

/**
 * Daily profit and loss of the connected store: a header row of field names (date, then the
 * metrics), then one row per day, oldest first, its date a real date (usable in pivots and charts).
 * @param {Date|string} start First day (a date cell or "YYYY-MM-DD"), in the store's time zone.
 * @param {Date|string} end Last day, included (a date cell or "YYYY-MM-DD").
 * @param {string|Array<Array<string>>=} metrics Optional: "net_revenue, cm3, net_margin_pct" or a range of names; chooses and orders the columns.
 * @return {Array<Array<string|number|Date>>} a header row, then one row per day.
 * @customfunction
 */
export function PROFIT_DAILY(start: unknown, end: unknown, metrics?: unknown): Table {
  return profitDaily(start, end, metrics);
}

/**
 * Monthly profit and loss of the connected store, summed from its daily figures: a header row
 * (month, days, then the metrics), then one row per calendar month, oldest first. `days` shows
 * how many days of the month the period holds (a partial first or last month). With "months
 * across", a P&L as finance lays it out: one row per field, one column per month.
 * @param {Date|string} start First day (a date cell or "YYYY-MM-DD"), in the store's time zone.
 * @param {Date|string} end Last day, included (a date cell or "YYYY-MM-DD").
 * @param {string|Array<Array<string>>=} metrics Optional: "net_revenue, cm3, net_margin_pct" or a range of names.
 * @param {string=} layout Optional: "months down" (default) or "months across".
 * @return {Array<Array<string|number|Date>>} a header row, then one row per month (or turned, months across).
 * @customfunction
 */
export function PROFIT_MONTHLY(start: unknown, end: unknown, metrics?: unknown, layout?: unknown): Table {
  return profitMonthlyLaidOut(start, end, metrics, layout);
}

/**
 * How fresh the store's figures are: when Merchant Analytics last synced the store's data
 * (store_data_synced_at; this spreadsheet's own syncs are in the Sync log), whether it calls the
 * data stale, and how far back the plan's history goes.
 * @return {Array<Array<string|number|boolean|Date>>} a header row, then one row per field.
 * @customfunction
 */
export function MA_FRESHNESS(): Table {
  return maFreshness();
}

/**
 * One order's economics as a 2-column table (field, value): status, dates, revenue, refunds,
 * COGS, fees, ad spend, contribution and net profit with margins.
 * @param {string|number} order_id The order number the store shows (#1001), the order id (ord_…), or external:<platform order id>.
 * @return {Array<Array<string|number|boolean>>} a header row, then one row per field.
 * @customfunction
 */
export function PROFIT_ORDER(order_id: unknown): Table {
  return profitOrder(order_id);
}

/**
 * The current base cost of a product or variant: unit and handling cost, currency, since when,
 * and whether it is known, unknown (never 0) or partial (tiered or per-market costs also exist).
 * @param {string} sku_or_id A SKU from the Products or Variants sheet, a product id (prd_…), or external:<platform product id>.
 * @param {string=} field One field only, for a report cell: unit_cost, handling_cost, currency, cost_status, … (an unknown cost reads "unknown").
 * @return {Array<Array<string|number|boolean|Date>>} a header row, then one row per field; or one value.
 * @customfunction
 */
export function PRODUCT_COST(sku_or_id: unknown, field?: unknown): Table {
  return productCost(sku_or_id, field);
}

/**
 * Tie-out: the Orders sheet summed by placed_date beside the store's Daily P&L from Merchant
 * Analytics, for each day and month of the range, with ✓ only when every figure agrees to the cent, else ✗.
 * Cancelled and gone orders are left out as the P&L leaves them out; overhead figures are not
 * compared (they cannot be matched from orders).
 * @param {Date|string} start First day (a date cell or "YYYY-MM-DD"), in the store's time zone.
 * @param {Date|string} end Last day, included (a date cell or "YYYY-MM-DD").
 * @return {Array<Array<string|number>>} a header row, then one row per day, then one per month.
 * @customfunction
 */
export function PROFIT_TIEOUT(start: unknown, end: unknown): Table {
  return profitTieout(start, end);
}
