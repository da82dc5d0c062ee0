/**
 * Formulas of a spreadsheet whose orders are kept elsewhere than the Orders sheet (BigQuery). A
 * custom function cannot call a service that needs the user's authorization
 * (developers.google.com/apps-script/guides/sheets/functions, "Using Apps Script services"), and
 * the BigQuery advanced service does: a formula never queries the table. The figures formulas need
 * from the orders (incomplete-cost counts per day) are kept by each sync's tie-out; what they cannot
 * answer they say, with what to use instead. Where the orders are is registered by the entry layer
 * (entries/bigquery.ts), so functions names no layer above it.
 */

let keptIn: (() => string | null) | null = null;

/** `table` gives the table the orders are kept in (project.dataset.table), or null when they are in the sheets. */
export function useOrdersElsewhere(table: () => string | null): void {
  keptIn = table;
}

/** The table this spreadsheet's orders are kept in, or null when they are in the Orders sheet. */
export function ordersKeptElsewhere(): string | null {
  return keptIn ? keptIn() : null;
}

/** Why an order number (#1001) cannot be looked up: the service is asked by id only, and the numbers are in the table. */
export function orderNumberElsewhere(number: string, table: string): string {
  return (
    `${number} is an order number, and this spreadsheet keeps its orders in BigQuery (${table}), which a formula cannot read. ` +
    'Give the order id (ord_…, in the orders table’s id column or its data source sheet) or the platform’s order id, and PROFIT_ORDER reads the order from Merchant Analytics'
  );
}

/** Why PROFIT_TIEOUT has no Orders sheet to sum, and where the tie-out is. */
export function tieoutElsewhere(table: string): string {
  return (
    `this spreadsheet keeps its orders in BigQuery (${table}), which a formula cannot read. ` +
    'Each sync ties the table out against the Daily P&L in SQL: see the Checks sheet, or Checks → Run to tie out now'
  );
}
