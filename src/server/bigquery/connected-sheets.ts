/**
 * Connected Sheets in the spreadsheet (developers.google.com/apps-script/guides/sheets/connected-sheets):
 * after the first sync into BigQuery, once per dataset, a data source sheet over the store's orders
 * and a data source pivot of net revenue and net profit by month (connected-sheets-spec.ts); after a
 * run whose MERGEs or DELETEs modified rows of the orders table (new orders, changed ones, a ✗ day's
 * refetch, vanished orders removed), the spreadsheet's data sources refreshed; a run that modified
 * none does not pay a refresh. A sheet the add-on finds already connected to the same query is not
 * made twice (an execution ended between the insert and the mark makes no second one); one an
 * earlier version, or an earlier plan window, left with another query is updated in place (its mark
 * differs). A failure here never fails the sync: the orders are in BigQuery already, and the next
 * run tries again.
 */
import { currentSpreadsheet } from '../platform/context';
import { documentProperties } from '../platform/properties';
import type { JobContext } from '../sync/job-context';
import {
  CONNECTED_SHEETS_KEY,
  connectedSheetsMark,
  CURRENCY_COLUMN,
  datasetMark,
  isMonthlyQuery,
  MONTH_COLUMN,
  MONTHLY_SHEET_NAME,
  monthlyQuery,
  ORDERS_SHEET_NAME,
  PIVOT_SHEET_NAME,
  ordersQuery,
  PIVOT_VALUES,
  UNKNOWN_PROFIT_COLUMN,
} from './connected-sheets-spec';
import type { BigQueryDestination } from './destination-setting';
import { ordersRowsModified } from './orders-modified';
import { storeIdOfRun } from './store-scope';
import { ORDERS_TABLE } from './table-schemas';
import { TABLES_MADE_KEY, tablesMark } from './tables';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type DataSource = GoogleAppsScript.Spreadsheet.DataSource;
type DataSourceSheet = GoogleAppsScript.Spreadsheet.DataSourceSheet;

/** The table spec's getters (BigQueryDataSourceSpec), which the published typings lack. */
interface BigQuerySpec extends GoogleAppsScript.Spreadsheet.BigQueryDataSourceSpec {
  getTableProjectId(): string;
  getDatasetId(): string;
  getTableId(): string;
}
/** DataSource.updateSpec: the published typings have it; the runtime's object is reached through this. */
type UpdatableSource = DataSource & { updateSpec(spec: GoogleAppsScript.Spreadsheet.DataSourceSpec): DataSource };
/** Spreadsheet's Connected Sheets methods the published typings lack. */
interface ConnectedSpreadsheet {
  insertDataSourceSheet(spec: GoogleAppsScript.Spreadsheet.DataSourceSpec): DataSourceSheet;
  getDataSources(): DataSource[];
  refreshAllDataSources(): void;
}
/** Sheet.getDataSourcePivotTables(), which the published typings lack. */
interface PivotSheet {
  getDataSourcePivotTables(): GoogleAppsScript.Spreadsheet.DataSourcePivotTable[];
}

const ADDED_MESSAGE =
  `Connected Sheets: “${ORDERS_SHEET_NAME}” shows this store's orders in BigQuery and “${PIVOT_SHEET_NAME}” ` +
  'their net revenue and net profit by month; each sync that changes the table refreshes them.';
const UPDATED_MESSAGE =
  `Connected Sheets brought up to date: “${ORDERS_SHEET_NAME}” shows this store's orders only, and ` +
  `“${PIVOT_SHEET_NAME}” counts the orders whose net profit is unknown and labels the months the plan's history cuts.`;

/** The run's step after its jobs: null when there is nothing to say. */
export function connectSheets(ctx: JobContext, destination: BigQueryDestination): string | null {
  const meta = ctx.state.get('meta');
  const planFrom = meta.truncated ? meta.historyAvailableFrom : null;
  const mark = connectedSheetsMark(destination, planFrom);
  const atStart = ctx.state.readAtStart[CONNECTED_SHEETS_KEY];
  const made = atStart === mark;
  const dataset = datasetMark(destination);
  const earlier = !made && typeof atStart === 'string' && (atStart === dataset || atStart.startsWith(`${dataset} `));
  // Rows of the orders table this run modified, as BigQuery counted them: the MERGEs' inserted and
  // updated rows (only orders whose values differ: merge-sql.ts) and the DELETEs' affected rows.
  const { ordersAdded, ordersUpdated, ordersGone } = ctx.tally.counts;
  const ordersChanged = ordersAdded + ordersUpdated + ordersGone > 0 || ordersRowsModified(ctx);
  // The tables exist once a flush of this run wrote to them, an earlier run made them, or this run
  // did (the move of the sheets' orders makes them, and its feed may then find nothing new to write).
  const tables = tablesMark(destination);
  const tablesThere =
    ordersAdded + ordersUpdated > 0 ||
    ctx.state.readAtStart[TABLES_MADE_KEY] === tables ||
    documentProperties().getProperty(TABLES_MADE_KEY) === tables;
  if ((made && !ordersChanged) || !tablesThere) return null;
  try {
    // "Turns data execution on for BigQuery data sources" for this execution (reference/spreadsheet/spreadsheet-app).
    SpreadsheetApp.enableBigQueryExecution();
    const spreadsheet = currentSpreadsheet('Connected Sheets');
    const connected = spreadsheet as unknown as ConnectedSpreadsheet;
    if (earlier) {
      updateConnectedSheets(spreadsheet, destination, planFrom);
      documentProperties().setProperty(CONNECTED_SHEETS_KEY, mark);
    }
    if (made || earlier) {
      if (ordersChanged) connected.refreshAllDataSources();
      return earlier ? UPDATED_MESSAGE : null;
    }
    addConnectedSheets(spreadsheet, destination, planFrom);
    documentProperties().setProperty(CONNECTED_SHEETS_KEY, mark);
    return ADDED_MESSAGE;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    console.warn(`[connected sheets] ${message}`);
    const what = made ? 'refreshed' : earlier ? 'brought up to date' : 'added';
    return `The sheets connected to BigQuery were not ${what} (${message}); the next sync tries again.`;
  }
}

function specOf(source: DataSource): BigQuerySpec {
  return source.getSpec().asBigQuery() as BigQuerySpec;
}

/** The orders data source sheet's spec before it showed one store: the whole table. */
function isOrdersTable(spec: BigQuerySpec, destination: BigQueryDestination): boolean {
  return (
    spec.getRawQuery() === '' &&
    spec.getTableProjectId() === destination.projectId &&
    spec.getDatasetId() === destination.datasetId &&
    spec.getTableId() === ORDERS_TABLE.tableId
  );
}

function specBuilder(projectId: string): GoogleAppsScript.Spreadsheet.BigQueryDataSourceSpecBuilder {
  return SpreadsheetApp.newDataSourceSpec().asBigQuery().setProjectId(projectId);
}

/**
 * The orders data source sheet over the store's query: one over the whole table moved to it
 * (updateSpec keeps the sheet, its name and place); inserted when there is neither and `insert`.
 */
function ordersSheet(connected: ConnectedSpreadsheet, destination: BigQueryDestination, insert: boolean): void {
  const sources = connected.getDataSources();
  const query = ordersQuery(destination, storeIdOfRun());
  if (sources.some((s) => specOf(s).getRawQuery() === query)) return;
  const spec = specBuilder(destination.projectId).setRawQuery(query).build();
  const overTable = sources.filter((s) => isOrdersTable(specOf(s), destination));
  for (const source of overTable) (source as UpdatableSource).updateSpec(spec);
  if (overTable.length === 0 && insert)
    name(connected as unknown as Spreadsheet, connected.insertDataSourceSheet(spec).asSheet(), ORDERS_SHEET_NAME);
}

/**
 * The sheets as an earlier version or plan window left them, given this run's queries in place
 * (updateSpec keeps each sheet, its name and place, and executes its objects again).
 */
function updateConnectedSheets(
  spreadsheet: Spreadsheet,
  destination: BigQueryDestination,
  planFrom: string | null,
): void {
  ordersSheet(spreadsheet as unknown as ConnectedSpreadsheet, destination, false);
  updateMonthlyQueries(spreadsheet, destination, monthlyQuery(destination, storeIdOfRun(), planFrom));
}

/** Monthly queries other than `query` take it; a pivot over one that had no count of unknown net profits gets that value. */
function updateMonthlyQueries(spreadsheet: Spreadsheet, destination: BigQueryDestination, query: string): void {
  const storeId = storeIdOfRun();
  const stale = (sql: string) => sql !== query && isMonthlyQuery(destination, storeId, sql);
  const connected = spreadsheet as unknown as ConnectedSpreadsheet;
  const sources = connected.getDataSources().filter((s) => stale(specOf(s).getRawQuery()));
  if (sources.length === 0) return;
  const uncounted = pivotsOf(spreadsheet).filter((p) => {
    const sql = specOf(p.getDataSource()).getRawQuery();
    return stale(sql) && !sql.includes(UNKNOWN_PROFIT_COLUMN);
  });
  const spec = specBuilder(destination.projectId).setRawQuery(query).build();
  for (const source of sources) (source as UpdatableSource).updateSpec(spec);
  for (const pivot of uncounted)
    pivot.addPivotValue(UNKNOWN_PROFIT_COLUMN, SpreadsheetApp.PivotTableSummarizeFunction.SUM);
}

function pivotsOf(spreadsheet: Spreadsheet): GoogleAppsScript.Spreadsheet.DataSourcePivotTable[] {
  return spreadsheet.getSheets().flatMap((sheet) => (sheet as unknown as PivotSheet).getDataSourcePivotTables());
}

function addConnectedSheets(spreadsheet: Spreadsheet, destination: BigQueryDestination, planFrom: string | null): void {
  const connected = spreadsheet as unknown as ConnectedSpreadsheet;
  ordersSheet(connected, destination, true);
  const query = monthlyQuery(destination, storeIdOfRun(), planFrom);
  // An execution ended before the mark: what it made is kept, and brought up to date.
  updateMonthlyQueries(spreadsheet, destination, query);
  const sources = connected.getDataSources();
  let monthly = sources.find((s) => specOf(s).getRawQuery() === query);
  if (!monthly) {
    const sheet = connected.insertDataSourceSheet(specBuilder(destination.projectId).setRawQuery(query).build());
    name(spreadsheet, sheet.asSheet(), MONTHLY_SHEET_NAME);
    monthly = sheet.getDataSource();
  }
  if (pivotsOf(spreadsheet).some((p) => specOf(p.getDataSource()).getRawQuery() === query)) return;
  const sheet = spreadsheet.getSheetByName(PIVOT_SHEET_NAME)
    ? spreadsheet.insertSheet()
    : spreadsheet.insertSheet(PIVOT_SHEET_NAME);
  const pivot = sheet.getRange('A1').createDataSourcePivotTable(monthly);
  // Per currency, each closed by its own total; no Grand Total, which would add currencies together.
  pivot.addRowGroup(CURRENCY_COLUMN).showTotals(false);
  pivot.addRowGroup(MONTH_COLUMN);
  for (const value of PIVOT_VALUES) pivot.addPivotValue(value, SpreadsheetApp.PivotTableSummarizeFunction.SUM);
}

/** A sheet the user already named so keeps its name; the new one keeps Google's. */
function name(spreadsheet: Spreadsheet, sheet: GoogleAppsScript.Spreadsheet.Sheet, wanted: string): void {
  if (!spreadsheet.getSheetByName(wanted)) sheet.setName(wanted);
}
