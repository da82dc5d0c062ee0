/**
 * SpreadsheetApp's Connected Sheets classes over the runtime's BigQuery (data-source-execution.ts):
 * DataSource, DataSourceSheet, DataSourcePivotTable, DataExecutionStatus, after Google's reference
 * pages of those names and guides/sheets/connected-sheets. The data sources and their objects are
 * kept per workbook for the runtime's life (not in saved state).
 *
 * Refused as Google documents or, where it is silent, on the stricter side:
 * - data execution must be enabled in the execution (SpreadsheetApp.enableBigQueryExecution or
 *   enableAllDataSourcesExecution): insertDataSourceSheet "Throws an exception if the data source
 *   type is not enabled" (Spreadsheet reference); the runtime applies it to every executing call;
 * - a FULL execution whose manifest grants bigquery, bigquery.readonly or cloud-platform (the guide:
 *   enableBigQueryExecution "adds the required bigquery.readonly OAuth scope");
 * - a spec whose table is missing ends the execution in ERROR with DATA_NOT_FOUND and BigQuery's message;
 * - waitForCompletion "Throws an exception if the execution is not completed when timing out, but
 *   does not cancel the data execution"; its timeout is at most 300 seconds (DataSourceSheet reference).
 */
import { JobFailure } from '../bigquery/errors.js';
import { missingScopeError } from '../consent.js';
import { permissionDenied } from '../types.js';
import { chargeDataWait } from './data-source-cost.js';
import {
  executionEnabled,
  executionState,
  linkOf,
  startExecution,
  type BigQueryLink,
  type ExecutionRecord,
} from './data-source-execution.js';
import { drawCells, gridCell, PREVIEW_ROWS, previewCells } from './data-source-grid.js';
import { pivotCells, SUMMARIZE_FUNCTIONS, type PivotSpec } from './data-source-pivot.js';
import { DataSourceSpec, incompleteSpec, specRecordOf, type BigQuerySpecRecord } from './data-source-spec.js';
import { refuseWrite, type SpreadsheetScope } from './scope';
import { Sheet } from './sheet';
import type { SheetModel } from './sheet-model';
import type { Workbook } from './workbook';

const BIGQUERY_SCOPE = 'https://www.googleapis.com/auth/bigquery';
const ACCEPTED_SCOPES = [
  BIGQUERY_SCOPE,
  'https://www.googleapis.com/auth/bigquery.readonly',
  'https://www.googleapis.com/auth/cloud-platform',
];
/** The wording is the runtime's: Google documents the exception, not its message. */
export const EXECUTION_NOT_ENABLED =
  'Data execution for BigQuery data sources is not enabled. Call SpreadsheetApp.enableBigQueryExecution() first.';
const MAX_WAIT_SECONDS = 300;

interface DataObjectRecord {
  kind: 'SHEET' | 'PIVOT';
  /** The data source sheet, or the sheet the pivot table is anchored on. */
  sheet: SheetModel;
  anchor: { row: number; column: number };
  pivot: PivotSpec;
  execution: ExecutionRecord | null;
  drawn?: { rows: number; columns: number };
  truncated: boolean;
  lastRefreshed: number | null;
}

interface DataSourceRecord {
  spec: BigQuerySpecRecord;
  objects: DataObjectRecord[];
}

const registries = new WeakMap<Workbook, DataSourceRecord[]>();

function sourcesOf(workbook: Workbook): DataSourceRecord[] {
  let list = registries.get(workbook);
  if (!list) registries.set(workbook, (list = []));
  return list;
}

/** The data source sheet record of a sheet, if it is one (Sheet.getType() DATASOURCE). */
/** The workbook's data sources, their specs and pivots, for a test that sets a spreadsheet up as an earlier add-on version left it. */
export function dataSourceRecordsOf(
  workbook: Workbook,
): Array<{ spec: BigQuerySpecRecord; objects: Array<{ kind: 'SHEET' | 'PIVOT'; pivot: PivotSpec }> }> {
  return sourcesOf(workbook);
}

export function dataSourceSheetOf(workbook: Workbook, sheet: SheetModel): DataObjectRecord | undefined {
  for (const source of sourcesOf(workbook))
    for (const object of source.objects) if (object.kind === 'SHEET' && object.sheet === sheet) return object;
  return undefined;
}

/** FULL authorization, the bigquery scope in the manifest, data execution enabled; the link to BigQuery. */
function requireExecution(scope: SpreadsheetScope, className: string, method: string): BigQueryLink {
  if (scope.ctx.authMode !== 'FULL') throw permissionDenied(`${className}.${method}`);
  const link = linkOf(scope.ctx);
  if (!link) throw new Error('Unsupported by the local runtime: no BigQuery in this runtime');
  if (link.oauthScopes && !link.oauthScopes.some((s) => ACCEPTED_SCOPES.includes(s)))
    throw missingScopeError(className, method, BIGQUERY_SCOPE);
  if (!executionEnabled(scope.ctx, 'BIGQUERY')) throw new Error(EXECUTION_NOT_ENABLED);
  return link;
}

async function refresh(link: BigQueryLink, source: DataSourceRecord, object: DataObjectRecord): Promise<void> {
  object.execution = await startExecution(link, source.spec);
}

/** Draws a finished execution's result once its modelled end has passed. */
function observe(workbook: Workbook, object: DataObjectRecord, now: number): void {
  const execution = object.execution;
  if (!execution || execution.applied || now < execution.endsAt) return;
  execution.applied = true;
  if (!execution.result || !workbook.sheets.includes(object.sheet)) return;
  const tz = workbook.timeZone;
  try {
    const cells =
      object.kind === 'SHEET'
        ? previewCells(execution.result, tz)
        : { cells: pivotCells(execution.result, object.pivot, tz), truncated: false };
    object.drawn = drawCells(object.sheet, object.anchor, cells.cells, object.drawn);
    object.truncated = cells.truncated;
    object.lastRefreshed = execution.endsAt;
  } catch (error) {
    if (!(error instanceof JobFailure)) throw error;
    execution.errorCode = 'ENGINE';
    execution.errorMessage = error.message;
  }
}

/**
 * Draws every data execution of the workbook (or of one sheet) that has ended by `now`: a script's
 * read of the sheet (scope.ts liveSheet) and the playground's grid see the result once it is there.
 */
export function drawFinishedExecutions(workbook: Workbook, now: number, sheet?: SheetModel): void {
  for (const source of registries.get(workbook) ?? [])
    for (const object of source.objects) if (!sheet || object.sheet === sheet) observe(workbook, object, now);
}

/** True for a data source sheet: its cells are BigQuery's preview, not the user's to edit. */
export function isDataSourceSheet(workbook: Workbook, sheet: SheetModel): boolean {
  return dataSourceSheetOf(workbook, sheet) !== undefined;
}

export class DataExecutionStatus {
  static gasName = 'DataExecutionStatus';
  constructor(
    private readonly state: string,
    private readonly object: DataObjectRecord,
  ) {}

  getExecutionState(): string {
    return this.state;
  }
  getErrorCode(): string {
    return this.state === 'ERROR' ? (this.object.execution?.errorCode ?? 'OTHER') : 'NONE';
  }
  getErrorMessage(): string {
    return this.state === 'ERROR' ? (this.object.execution?.errorMessage ?? '') : '';
  }
  /** "the time the last data execution completed regardless of the execution state" */
  getLastExecutionTime(): Date | null {
    const e = this.object.execution;
    return e && this.state !== 'RUNNING' ? new Date(e.endsAt) : null;
  }
  getLastRefreshedTime(): Date | null {
    return this.object.lastRefreshed === null ? null : new Date(this.object.lastRefreshed);
  }
  isTruncated(): boolean {
    return this.object.truncated;
  }
}

/** getStatus, refreshData, forceRefreshData, waitForCompletion: shared by the sheet and the pivot. */
abstract class DataSourceObject {
  constructor(
    protected readonly scope: SpreadsheetScope,
    protected readonly source: DataSourceRecord,
    protected readonly record: DataObjectRecord,
  ) {}

  protected abstract className(): string;

  protected status(now: number): DataExecutionStatus {
    observe(this.scope.workbook, this.record, now);
    return new DataExecutionStatus(executionState(this.record.execution, now), this.record);
  }

  getDataSource(): DataSource {
    return new DataSource(this.scope, this.source);
  }

  getStatus(): DataExecutionStatus {
    return this.status(requireExecution(this.scope, this.className(), 'getStatus').now());
  }

  async refreshData(): Promise<this> {
    await refresh(requireExecution(this.scope, this.className(), 'refreshData'), this.source, this.record);
    return this;
  }

  async forceRefreshData(): Promise<this> {
    await refresh(requireExecution(this.scope, this.className(), 'forceRefreshData'), this.source, this.record);
    return this;
  }

  waitForCompletion(timeoutInSeconds: number): DataExecutionStatus {
    const link = requireExecution(this.scope, this.className(), 'waitForCompletion');
    const now = link.now();
    const left = waitFor(this, [this.record], timeoutInSeconds, now);
    return this.status(now + left);
  }
}

/**
 * How long `waiter`'s call waits for `objects`' executions (they run side by side: the longest),
 * charged to the call (data-source-cost.ts); past the timeout the call waits the timeout and throws.
 */
function waitFor(waiter: object, objects: DataObjectRecord[], timeoutInSeconds: unknown, now: number): number {
  const seconds = Number(timeoutInSeconds);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_WAIT_SECONDS)
    throw new Error('Invalid argument: timeoutInSeconds');
  const left = Math.max(0, ...objects.map((o) => (o.execution ? o.execution.endsAt - now : 0)));
  if (left > seconds * 1000) {
    chargeDataWait(waiter, seconds * 1000);
    throw new Error(`The data execution did not complete within ${seconds} seconds.`);
  }
  chargeDataWait(waiter, left);
  return left;
}

export class DataSourceSheet extends DataSourceObject {
  static gasName = 'DataSourceSheet';
  protected className(): string {
    return 'DataSourceSheet';
  }

  asSheet(): Sheet {
    return new Sheet(this.scope, this.record.sheet);
  }

  /** The column's values of the preview (DataSourceSheet.getSheetValues(columnName[, startRow, numRows]), startRow 1-based). */
  getSheetValues(columnName: string, startRow?: number, numRows?: number): unknown[] {
    const link = requireExecution(this.scope, 'DataSourceSheet', 'getSheetValues');
    observe(this.scope.workbook, this.record, link.now());
    const result = this.record.execution?.applied ? this.record.execution.result : undefined;
    const at = result ? result.columns.findIndex((c) => c.name === String(columnName)) : -1;
    if (!result || at < 0) throw new Error(`Column not found: ${String(columnName)}`);
    const first = startRow === undefined ? 1 : Number(startRow);
    const preview = result.rows.slice(0, PREVIEW_ROWS);
    const rows = preview.slice(first - 1, numRows === undefined ? undefined : first - 1 + Number(numRows));
    return rows.map((row) => {
      const cell = gridCell(result.columns[at].type, row[at], this.scope.workbook.timeZone);
      return cell.value === undefined ? '' : cell.value;
    });
  }
}

export class PivotGroup {
  static gasName = 'PivotGroup';
  constructor(
    private readonly column: string,
    private readonly pivot?: PivotSpec,
  ) {}

  getSourceDataColumn(): string {
    return this.column;
  }

  /**
   * "Sets whether to show total values for this pivot group in the table"
   * (reference/spreadsheet/pivot-group#showtotalsshowtotals): drawn with the table's next cells.
   */
  showTotals(showTotals: boolean): PivotGroup {
    if (this.pivot) {
      const hidden = (this.pivot.hiddenTotals ?? []).filter((g) => g !== this.column);
      if (showTotals === false) hidden.push(this.column);
      this.pivot.hiddenTotals = hidden;
    }
    return this;
  }

  /**
   * The reference documents date-time grouping for pivot groups, not for data source pivot groups;
   * the runtime takes the stricter reading and refuses it: group by a month column of a query spec.
   */
  setDateTimeGroupingRule(): PivotGroup {
    throw new Error(
      'Unsupported by the local runtime: a date-time grouping rule on a data source pivot table (group by a column of the data source, e.g. DATE_TRUNC(placed_day, MONTH) in a query spec)',
    );
  }
}

export class PivotValue {
  static gasName = 'PivotValue';
  constructor(private readonly fn: string) {}

  getSummarizedBy(): string {
    return this.fn;
  }
}

export class DataSourcePivotTable extends DataSourceObject {
  static gasName = 'DataSourcePivotTable';
  protected className(): string {
    return 'DataSourcePivotTable';
  }

  /** "Adds a new pivot row group based on the specified data source column"; the table executes again. */
  async addRowGroup(columnName: string): Promise<PivotGroup> {
    const link = requireExecution(this.scope, 'DataSourcePivotTable', 'addRowGroup');
    this.record.pivot.rowGroups.push(String(columnName));
    await refresh(link, this.source, this.record);
    return new PivotGroup(String(columnName), this.record.pivot);
  }

  async addPivotValue(columnName: string, summarizeFunction?: string): Promise<PivotValue> {
    const link = requireExecution(this.scope, 'DataSourcePivotTable', 'addPivotValue');
    const fn = String(summarizeFunction ?? '');
    if (!(SUMMARIZE_FUNCTIONS as readonly string[]).includes(fn))
      throw new Error(
        `Unsupported by the local runtime: the summarize function ${fn || '(none)'} (${SUMMARIZE_FUNCTIONS.join(', ')})`,
      );
    this.record.pivot.values.push({ column: String(columnName), fn });
    await refresh(link, this.source, this.record);
    return new PivotValue(fn);
  }
}

export class DataSource {
  static gasName = 'DataSource';
  constructor(
    private readonly scope: SpreadsheetScope,
    private readonly record: DataSourceRecord,
  ) {}

  _record(): DataSourceRecord {
    return this.record;
  }

  getSpec(): DataSourceSpec {
    return new DataSourceSpec({ ...this.record.spec });
  }

  getDataSourceSheets(): DataSourceSheet[] {
    return this.record.objects
      .filter((o) => o.kind === 'SHEET' && this.scope.workbook.sheets.includes(o.sheet))
      .map((o) => new DataSourceSheet(this.scope, this.record, o));
  }

  async refreshAllLinkedDataSourceObjects(): Promise<void> {
    const link = requireExecution(this.scope, 'DataSource', 'refreshAllLinkedDataSourceObjects');
    for (const object of this.record.objects) await refresh(link, this.record, object);
  }

  /**
   * "Updates the data source spec and starts data execution asynchronously" for every object linked
   * to it (the DataExecutionStatus reference's sample; the DataSource page: updateSpec(spec) refreshes
   * the linked objects with the new spec). The new spec is checked as insertDataSourceSheet checks one.
   */
  async updateSpec(spec: unknown): Promise<DataSource> {
    refuseWrite(this.scope, 'DataSource.updateSpec');
    const link = requireExecution(this.scope, 'DataSource', 'updateSpec');
    const record = specRecordOf(spec, 'SpreadsheetApp.DataSource.updateSpec');
    const missing = incompleteSpec(record);
    if (missing) throw new Error(`Invalid argument: the data source spec lacks ${missing}`);
    this.record.spec = record;
    for (const object of this.record.objects) await refresh(link, this.record, object);
    return this;
  }

  /** Waits for every linked object's execution; void, as Google's page says. */
  waitForAllDataExecutionsCompletion(timeoutInSeconds: number): void {
    const link = requireExecution(this.scope, 'DataSource', 'waitForAllDataExecutionsCompletion');
    const now = link.now();
    const left = waitFor(this, this.record.objects, timeoutInSeconds, now);
    for (const object of this.record.objects) observe(this.scope.workbook, object, now + left);
  }
}

/** Spreadsheet.insertDataSourceSheet(spec): a new sheet of type DATASOURCE, made active, executing. */
export async function insertDataSourceSheet(scope: SpreadsheetScope, spec: unknown): Promise<DataSourceSheet> {
  const link = requireExecution(scope, 'Spreadsheet', 'insertDataSourceSheet');
  const record = specRecordOf(spec, 'SpreadsheetApp.Spreadsheet.insertDataSourceSheet');
  const missing = incompleteSpec(record);
  if (missing) throw new Error(`Invalid argument: the data source spec lacks ${missing}`);
  const sheet = scope.workbook.insertSheet(undefined, undefined, { rows: 501 });
  scope.activeSheetId = sheet.sheetId;
  const source: DataSourceRecord = { spec: record, objects: [] };
  sourcesOf(scope.workbook).push(source);
  const object = newObject('SHEET', sheet, { row: 1, column: 1 });
  source.objects.push(object);
  await refresh(link, source, object);
  return new DataSourceSheet(scope, source, object);
}

function newObject(
  kind: 'SHEET' | 'PIVOT',
  sheet: SheetModel,
  anchor: { row: number; column: number },
): DataObjectRecord {
  return {
    kind,
    sheet,
    anchor,
    pivot: { rowGroups: [], values: [] },
    execution: null,
    truncated: false,
    lastRefreshed: null,
  };
}

/** Range.createDataSourcePivotTable(dataSource): an empty pivot anchored at the range's first cell. */
export async function createDataSourcePivotTable(
  scope: SpreadsheetScope,
  sheet: SheetModel,
  anchor: { row: number; column: number },
  dataSource: unknown,
): Promise<DataSourcePivotTable> {
  const link = requireExecution(scope, 'Range', 'createDataSourcePivotTable');
  if (!(dataSource instanceof DataSource))
    throw new Error(
      `The parameters (${typeof dataSource}) don't match the method signature for SpreadsheetApp.Range.createDataSourcePivotTable.`,
    );
  if (dataSourceSheetOf(scope.workbook, sheet))
    throw new Error('Unsupported by the local runtime: a pivot table on a data source sheet');
  const source = dataSource._record();
  const object = newObject('PIVOT', sheet, anchor);
  source.objects.push(object);
  await refresh(link, source, object);
  return new DataSourcePivotTable(scope, source, object);
}

export function getDataSources(scope: SpreadsheetScope): DataSource[] {
  requireExecution(scope, 'Spreadsheet', 'getDataSources');
  return sourcesOf(scope.workbook).map((s) => new DataSource(scope, s));
}

export function getDataSourceSheets(scope: SpreadsheetScope): DataSourceSheet[] {
  requireExecution(scope, 'Spreadsheet', 'getDataSourceSheets');
  return sourcesOf(scope.workbook).flatMap((s) => new DataSource(scope, s).getDataSourceSheets());
}

export async function refreshAllDataSources(scope: SpreadsheetScope): Promise<void> {
  const link = requireExecution(scope, 'Spreadsheet', 'refreshAllDataSources');
  for (const source of sourcesOf(scope.workbook))
    for (const object of source.objects) await refresh(link, source, object);
}

/** Sheet.asDataSourceSheet(): the sheet as a DataSourceSheet when it is one, else null. */
export function asDataSourceSheet(scope: SpreadsheetScope, sheet: SheetModel): DataSourceSheet | null {
  for (const source of sourcesOf(scope.workbook))
    for (const object of source.objects)
      if (object.kind === 'SHEET' && object.sheet === sheet) return new DataSourceSheet(scope, source, object);
  return null;
}

/** Sheet.getDataSourcePivotTables(): the data source pivot tables anchored on the sheet. */
export function dataSourcePivotTablesOn(scope: SpreadsheetScope, sheet: SheetModel): DataSourcePivotTable[] {
  return sourcesOf(scope.workbook).flatMap((source) =>
    source.objects
      .filter((o) => o.kind === 'PIVOT' && o.sheet === sheet)
      .map((o) => new DataSourcePivotTable(scope, source, o)),
  );
}
