/**
 * What Connected Sheets shows of the orders table (pure): a data source sheet over a query spec of
 * this store's rows (two stores' spreadsheets may share a dataset: a table spec would show both
 * stores' orders; a BigQuery data source is a table spec or a query spec, and a data source sheet
 * may stand over either: developers.google.com/sheets/api/guides/connected-sheets, BigQueryDataSourceSpec), and
 * a pivot of net revenue and net profit by month over a query spec. A data source pivot groups by
 * a column of its data source (date-time grouping rules are documented for grid pivot groups, not
 * data source ones: the stricter reading), so the month is a column of the query: DATE_TRUNC of
 * placed_day, which is already the order's day in the store's time zone (table-schemas.ts), the day
 * the Daily P&L and /profitability/summary count it on. Only active orders: cancelled and gone ones
 * are not revenue (spec 2.6; the Sheets tie-out sums the same orders). Amounts are in the order's
 * currency (spec 2.3), so the pivot groups by currency first and shows no total across currencies:
 * no cell adds two currencies together.
 */
import type { BigQueryDestination } from './destination-setting';
import { stringLiteral } from './store-scope';
import { ORDERS_TABLE } from './table-schemas';

export const ORDERS_SHEET_NAME = 'Orders (BigQuery)';
export const MONTHLY_SHEET_NAME = 'Orders by month (BigQuery query)';
export const PIVOT_SHEET_NAME = 'Net profit by month (BigQuery)';

export const CURRENCY_COLUMN = 'currency';
export const MONTH_COLUMN = 'month';
export const PIVOT_VALUES = ['net_revenue', 'net_profit'] as const;

/** The query spec the orders data source sheet shows: every row of the store's orders, as the table holds them. */
export function ordersQuery(destination: BigQueryDestination, storeId: string): string {
  return `SELECT * FROM ${tablePath(destination)} WHERE store_id = ${stringLiteral(storeId)}`;
}

const tablePath = (destination: BigQueryDestination): string =>
  `\`${destination.projectId}.${destination.datasetId}.${ORDERS_TABLE.tableId}\``;

/** The query spec the pivot reads: one row per active order of the store with its month (GoogleSQL; a data source query takes no parameters). */
export function monthlyQuery(destination: BigQueryDestination, storeId: string): string {
  const table = tablePath(destination);
  return (
    `SELECT ${CURRENCY_COLUMN}, DATE_TRUNC(placed_day, MONTH) AS ${MONTH_COLUMN}, ${PIVOT_VALUES.join(', ')} ` +
    `FROM ${table} WHERE status = 'active' AND store_id = ${stringLiteral(storeId)}`
  );
}

/** Remembered once made: later runs only refresh (a sheet the user deleted is not made again for that dataset). */
export const CONNECTED_SHEETS_KEY = 'ma.sync.connectedSheets';

export const connectedSheetsMark = (destination: BigQueryDestination): string =>
  `${destination.projectId}.${destination.datasetId} store query`;

/** The mark of a spreadsheet whose orders data source sheet was a table spec over all of `orders`: moved to the store's query once. */
export const tableSpecMark = (destination: BigQueryDestination): string =>
  `${destination.projectId}.${destination.datasetId}`;
