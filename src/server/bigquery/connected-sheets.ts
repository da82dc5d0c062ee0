/**
 * Connected Sheets in the spreadsheet (developers.google.com/apps-script/guides/sheets/connected-sheets):
 * after the first sync into BigQuery, once per dataset, a data source sheet over the orders table
 * and a data source pivot of net revenue and net profit by month (connected-sheets-spec.ts); after a
 * run whose MERGEs or DELETEs modified rows of the orders table (new orders, changed ones, a ✗ day's
 * refetch, vanished orders removed), the spreadsheet's data sources refreshed; a run that modified
 * none does not pay a refresh. A sheet the add-on finds
 * already connected to the same table or query is not made twice (an execution ended between the
 * insert and the mark makes no second one). A failure here never fails the sync: the orders are in
 * BigQuery already, and the next run tries again.
 */
import { currentSpreadsheet } from '../platform/context';
import { documentProperties } from '../platform/properties';
import type { JobContext } from '../sync/job-context';
import {
  CONNECTED_SHEETS_KEY,
  connectedSheetsMark,
  CURRENCY_COLUMN,
  MONTH_COLUMN,
  MONTHLY_SHEET_NAME,
  monthlyQuery,
  ORDERS_SHEET_NAME,
  PIVOT_SHEET_NAME,
  ordersQuery,
  PIVOT_VALUES,
  tableSpecMark,
} from './connected-sheets-spec';
import type { BigQueryDestination } from './destination-setting';
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
const MOVED_MESSAGE = `Connected Sheets: “${ORDERS_SHEET_NAME}” now shows this store's orders only (it showed every row of the table).`;

/** The run's step after its jobs: null when there is nothing to say. */
export function connectSheets(ctx: JobContext, destination: BigQueryDestination): string | null {
  const mark = connectedSheetsMark(destination);
  const made = ctx.state.readAtStart[CONNECTED_SHEETS_KEY] === mark;
  const overTable = ctx.state.readAtStart[CONNECTED_SHEETS_KEY] === tableSpecMark(destination);
  // Rows of the orders table this run modified, as BigQuery counted them: the MERGEs' inserted and
  // updated rows (only orders whose values differ: merge-sql.ts) and the DELETEs' affected rows.
  const { ordersAdded, ordersUpdated, ordersGone } = ctx.tally.counts;
  const ordersChanged = ordersAdded + ordersUpdated + ordersGone > 0;
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
    if (overTable) {
      // Made before the sheet showed one store: moved to the store's query, nothing made again.
      ordersSheet(connected, destination, false);
      documentProperties().setProperty(CONNECTED_SHEETS_KEY, mark);
    }
    if (made || overTable) {
      if (ordersChanged) connected.refreshAllDataSources();
      return overTable ? MOVED_MESSAGE : null;
    }
    addConnectedSheets(spreadsheet, destination);
    documentProperties().setProperty(CONNECTED_SHEETS_KEY, mark);
    return ADDED_MESSAGE;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    console.warn(`[connected sheets] ${message}`);
    const what = made ? 'refreshed' : overTable ? 'moved to this store’s orders' : 'added';
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

function addConnectedSheets(spreadsheet: Spreadsheet, destination: BigQueryDestination): void {
  const connected = spreadsheet as unknown as ConnectedSpreadsheet;
  ordersSheet(connected, destination, true);
  const sources = connected.getDataSources();
  const query = monthlyQuery(destination, storeIdOfRun());
  let monthly = sources.find((s) => specOf(s).getRawQuery() === query);
  if (!monthly) {
    const sheet = connected.insertDataSourceSheet(specBuilder(destination.projectId).setRawQuery(query).build());
    name(spreadsheet, sheet.asSheet(), MONTHLY_SHEET_NAME);
    monthly = sheet.getDataSource();
  }
  const pivoted = spreadsheet
    .getSheets()
    .some((sheet) =>
      (sheet as unknown as PivotSheet)
        .getDataSourcePivotTables()
        .some((p) => specOf(p.getDataSource()).getRawQuery() === query),
    );
  if (pivoted) return;
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
