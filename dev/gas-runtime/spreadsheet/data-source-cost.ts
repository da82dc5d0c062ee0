/**
 * Which Connected Sheets calls reach BigQuery (they need the bigquery scope and a FULL execution,
 * as the BigQuery advanced service does) and their modelled time. Google publishes no latency for
 * them; the figures are the runtime's Sheets API ones, since each of these calls is a Sheets API
 * request behind SpreadsheetApp (addDataSource, refreshDataSource, an updateCells carrying a
 * pivotTable: Sheets API reference, spreadsheets.batchUpdate), plus the time a waitForCompletion
 * waited for the execution on the runtime clock.
 */

/** Starts or changes a data execution: one spreadsheets.batchUpdate, ~0.33 s (Tanaike 2023, as cost-model.ts). */
export const DATA_EXECUTION_REQUEST_MS = 330;
/** Reads a data source object's status or values: one spreadsheets.get, ~0.24 s (Tanaike 2023, as cost-model.ts). */
export const DATA_SOURCE_READ_MS = 240;

const EXECUTING = new Set([
  'Spreadsheet.insertDataSourceSheet',
  'Spreadsheet.refreshAllDataSources',
  'Range.createDataSourcePivotTable',
  'DataSource.refreshAllLinkedDataSourceObjects',
  'DataSource.updateSpec',
  'DataSourceSheet.refreshData',
  'DataSourceSheet.forceRefreshData',
  'DataSourcePivotTable.refreshData',
  'DataSourcePivotTable.forceRefreshData',
  'DataSourcePivotTable.addRowGroup',
  'DataSourcePivotTable.addPivotValue',
]);

const READING = new Set([
  'Spreadsheet.getDataSources',
  'Spreadsheet.getDataSourceSheets',
  'DataSourceSheet.getStatus',
  'DataSourceSheet.getSheetValues',
  'DataSourceSheet.waitForCompletion',
  'DataSourcePivotTable.getStatus',
  'DataSourcePivotTable.waitForCompletion',
  'DataSource.waitForAllDataExecutionsCompletion',
  'Sheet.getDataSourcePivotTables',
]);

/** Every call of these classes reaches BigQuery's data (builders and specs do not). */
const DATA_CLASSES = new Set(['DataSource', 'DataSourceSheet', 'DataSourcePivotTable', 'DataExecutionStatus']);

/** True for a call that reads or runs BigQuery data: it needs the bigquery scope (consent.ts). */
export function needsBigQueryScope(className: string, method: string): boolean {
  const name = `${className}.${method}`;
  return DATA_CLASSES.has(className) || EXECUTING.has(name) || READING.has(name);
}

/** Time the object's current call waited for data executions, taken by the cost model when the call returns. */
const waits = new WeakMap<object, number>();

/** `waiter`'s call (waitForCompletion and friends) waited `ms` for a data execution, whether it then answers or throws. */
export function chargeDataWait(waiter: object, ms: number): void {
  waits.set(waiter, ms);
}

/** The modelled time of a Connected Sheets call on `target`, or null when it is not one. */
export function dataSourceCallMs(qualifiedName: string, target: object | undefined): number | null {
  const waited = target ? (waits.get(target) ?? 0) : 0;
  if (target) waits.delete(target);
  if (EXECUTING.has(qualifiedName)) return DATA_EXECUTION_REQUEST_MS + waited;
  if (READING.has(qualifiedName)) return DATA_SOURCE_READ_MS + waited;
  return null;
}
