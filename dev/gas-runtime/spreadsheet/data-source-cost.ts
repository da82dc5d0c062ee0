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
]);

/** Every call of these classes reaches BigQuery's data (builders and specs do not). */
const DATA_CLASSES = new Set(['DataSource', 'DataSourceSheet', 'DataSourcePivotTable', 'DataExecutionStatus']);

/** True for a call that reads or runs BigQuery data: it needs the bigquery scope (consent.ts). */
export function needsBigQueryScope(className: string, method: string): boolean {
  const name = `${className}.${method}`;
  return DATA_CLASSES.has(className) || EXECUTING.has(name) || READING.has(name);
}

const waits = new WeakMap<object, number>();

/** The call waited `ms` for a data execution before answering (or failing) with `answer`. */
export function chargeDataWait<T extends object>(answer: T, ms: number): T {
  waits.set(answer, ms);
  return answer;
}

/** The modelled time of a Connected Sheets call, or null when it is not one. */
export function dataSourceCallMs(qualifiedName: string, result: unknown): number | null {
  const waited = result !== null && typeof result === 'object' ? (waits.get(result) ?? 0) : 0;
  if (EXECUTING.has(qualifiedName)) return DATA_EXECUTION_REQUEST_MS + waited;
  if (READING.has(qualifiedName)) return DATA_SOURCE_READ_MS + waited;
  return null;
}
