/**
 * What Connected Sheets shows of the orders table (pure): a data source sheet over a query spec of
 * this store's rows (two stores' spreadsheets may share a dataset: a table spec would show both
 * stores' orders; a BigQuery data source is a table spec or a query spec, and a data source sheet
 * may stand over either: developers.google.com/sheets/api/guides/connected-sheets,
 * BigQueryDataSourceSpec), and a pivot of net revenue and net profit by month over a query spec. A
 * data source pivot groups by a column of its data source (date-time grouping rules are documented for grid pivot groups, not
 * data source ones: the stricter reading), so the month is a column of the query, from
 * placed_day, which is already the order's day in the store's time zone (table-schemas.ts), the day
 * the Daily P&L and /profitability/summary count it on. Only active orders: cancelled and gone ones
 * are not revenue (spec 2.6; the Sheets tie-out sums the same orders). Amounts are in the order's
 * currency (spec 2.3), so the pivot groups by currency first and shows no total across currencies:
 * no cell adds two currencies together. A net profit the service does not know (a cost unknown) is
 * NULL, which SUM skips (spec 2.7: unknown is not zero), so beside the sums each month counts its
 * orders whose net profit is unknown. The month is a label (YYYY-MM), with the plan's history window
 * said on it as the Monthly P&L says it: a month the window cuts is partial, one before it is as last
 * synced; the label depends on the window's month only, so the query changes once a month at most.
 */
import type { BigQueryDestination } from './destination-setting';
import { stringLiteral } from './store-scope';
import { ORDERS_TABLE } from './table-schemas';

export const ORDERS_SHEET_NAME = 'Orders (BigQuery)';
export const MONTHLY_SHEET_NAME = 'Orders by month (BigQuery query)';
export const PIVOT_SHEET_NAME = 'Net profit by month (BigQuery)';

export const CURRENCY_COLUMN = 'currency';
export const MONTH_COLUMN = 'month';
export const UNKNOWN_PROFIT_COLUMN = 'orders_with_unknown_net_profit';
export const PIVOT_VALUES = ['net_revenue', 'net_profit', UNKNOWN_PROFIT_COLUMN] as const;

/** The query spec the orders data source sheet shows: every row of the store's orders, as the table holds them. */
export function ordersQuery(destination: BigQueryDestination, storeId: string): string {
  return `SELECT * FROM ${tablePath(destination)} WHERE store_id = ${stringLiteral(storeId)}`;
}

const tablePath = (destination: BigQueryDestination): string =>
  `\`${destination.projectId}.${destination.datasetId}.${ORDERS_TABLE.tableId}\``;

/** The first day of the plan window's month, and whether the window cuts that month; null for the whole history. */
function windowMonth(planFrom: string | null): { first: string; cut: boolean } | null {
  if (planFrom === null) return null;
  const first = `${planFrom.slice(0, 7)}-01`;
  return { first, cut: planFrom !== first };
}

/** The month label: YYYY-MM, with what the plan's history window makes of the month. */
function monthLabel(planFrom: string | null): string {
  const month = "FORMAT_DATE('%Y-%m', placed_day)";
  const window = windowMonth(planFrom);
  if (window === null) return month;
  const start = `DATE '${window.first}'`;
  const cut = window.cut ? ` WHEN DATE_TRUNC(placed_day, MONTH) = ${start} THEN ' (partial: plan history)'` : '';
  return `CONCAT(${month}, CASE WHEN placed_day < ${start} THEN ' (before plan history: as last synced)'${cut} ELSE '' END)`;
}

/**
 * The query spec the pivot reads: one row per active order of the store with its month label and a
 * 1 when its net profit is unknown (GoogleSQL; a data source query takes no parameters). `planFrom`:
 * the plan's first day of history when the service says it is cut, else null.
 */
export function monthlyQuery(destination: BigQueryDestination, storeId: string, planFrom: string | null): string {
  return (
    `SELECT ${CURRENCY_COLUMN}, ${monthLabel(planFrom)} AS ${MONTH_COLUMN}, net_revenue, net_profit, ` +
    `IF(net_profit IS NULL, 1, 0) AS ${UNKNOWN_PROFIT_COLUMN} ` +
    `FROM ${tablePath(destination)} WHERE status = 'active' AND store_id = ${stringLiteral(storeId)}`
  );
}

/** A monthly query of this store's orders as this or an earlier version of the add-on wrote it. */
export function isMonthlyQuery(destination: BigQueryDestination, storeId: string, sql: string): boolean {
  return (
    sql.startsWith(`SELECT ${CURRENCY_COLUMN}, `) &&
    sql.includes(` AS ${MONTH_COLUMN}, `) &&
    sql.endsWith(`FROM ${tablePath(destination)} WHERE status = 'active' AND store_id = ${stringLiteral(storeId)}`)
  );
}

/** Remembered once made: later runs only refresh (a sheet the user deleted is not made again for that dataset). */
export const CONNECTED_SHEETS_KEY = 'ma.sync.connectedSheets';

/** The dataset and what the queries depend on: another mark for the same dataset means the specs are updated, nothing made. */
export function connectedSheetsMark(destination: BigQueryDestination, planFrom: string | null): string {
  const window = windowMonth(planFrom);
  const label =
    window === null ? 'whole history' : `plan from ${window.cut ? 'within ' : ''}${window.first.slice(0, 7)}`;
  return `${datasetMark(destination)} v2, ${label}`;
}

/** The mark's dataset part: the first version's whole mark (its orders sheet a table spec over all of `orders`). */
export const datasetMark = (destination: BigQueryDestination): string =>
  `${destination.projectId}.${destination.datasetId}`;
