/**
 * Writes every row write of a page (or of several) in ONE Values.batchUpdate (RAW), growing each
 * sheet's grid first where needed. Only managed columns are written; rows never move. Writes of
 * derived sheets can be deferred to ride along with the next write.
 */
import { CellLimitError, SPREADSHEET_CELL_LIMIT, type CellCount } from './cell-count';
import { requestsOf } from './ahead-writes';
import { formatRuns } from './column-formats';
import { foreignCurrencyFormats } from './currency-formats';
import { requestGroups } from './request-groups';
import { lastRowOf, mergeRowWrites, withoutSkipped, type RangeWrite, type RowWrite } from './row-writes';
import { toSheetWrites } from './sheet-layout';
import { rowWritesBytes } from './write-size';
import { fenceRunState, liftRunStateFence } from '../platform/properties';
import { sheetsService, valuesService } from './sheet-snapshot';
import { noteSpreadsheetChange, sheetsRequest } from './sheets-requests';
import type { StoreBinding } from './store-binding';
import type { TableSheets } from './table-sheets';
import type { OpenSheet } from './open-sheet';
import type { WorkbookSnapshot } from './workbook-snapshot';
import { SYNC_LOG, type SheetName, type TableSchema } from './schema';

/** Rows added at a time when a sheet's grid is full: fewer insert calls, little unused grid. */
const GROW_ROWS = 1000;

export interface TableWrite {
  schema: TableSchema;
  rows: RowWrite[];
  /** The Sync log's opening row riding along with the run's next write: not the closing row the row index waits for. */
  opensRun?: boolean;
  /** Its table's watcher saw these rows when they were deferred (deferRows): not shown them again when sent. */
  watched?: boolean;
}

export class BatchWriter {
  private deferred: TableWrite[] = [];
  /** Companion cells taken by dropOpeningRow, sent with the next write. */
  private heldCompanion: RangeWrite[] = [];
  /** Deferred data rows hold the run's later state behind a fence until they are sent (deferRows). */
  private fenced = false;
  private firstWrite: { sheets: ReadonlySet<SheetName>; callback: () => void } | null = null;
  /** Called with a table's row writes (catalog columns) before they are sent (the order sums). */
  private readonly watchers = new Map<SheetName, (rows: readonly RowWrite[]) => void>();
  /** Tables whose grid this run grew (charts over them may need re-pointing). */
  readonly grown = new Set<SheetName>();

  constructor(
    private readonly snapshot: WorkbookSnapshot,
    private readonly tables: TableSheets,
    private readonly cells: CellCount,
    private readonly store: StoreBinding,
    /** Cells sent with every write, after its grid growth (the row index's buckets for the rows written). */
    private readonly companion: (closing: boolean) => RangeWrite[] = () => [],
  ) {}

  /**
   * Writes sent with the next write() (in the same Values.batchUpdate): derived sheets written at
   * the end of a run ride along with the Sync log's closing row instead of a call of their own.
   */
  defer(tables: readonly TableWrite[]): void {
    for (const t of tables) {
      if (t.rows.length === 0) continue;
      this.tables.sheetFor(t.schema);
      this.deferred.push(t);
    }
  }

  /**
   * Data rows sent with the next write() instead of a Values.batchUpdate of their own (330 ms,
   * apps-script-cost-model.md): the run's state written from now until that write is sent covers
   * them, so it waits for it (the held writes' fence). The first-write mark is made now, before the
   * fence: it must be stored before the rows are. So is what a watched table's watcher (the Orders
   * day sums) writes: it sees the rows now, as they will be sent, and counts them in what the run
   * keeps at its end, behind the same fence.
   */
  deferRows(tables: readonly TableWrite[]): void {
    const first = this.firstWrite;
    if (first && tables.some((t) => t.rows.length > 0 && first.sheets.has(t.schema.sheetName))) {
      this.firstWrite = null;
      first.callback();
    }
    if (!tables.some((t) => t.rows.length > 0)) return;
    // The grid grows now, as it would for a write: what the run does next sees it (grew(): the dashboard's charts).
    for (const t of tables) if (t.rows.length > 0) this.growTo(t.schema, lastRowOf(t.rows));
    for (const t of tables) if (t.rows.length > 0) this.watchers.get(t.schema.sheetName)?.(t.rows);
    this.defer(tables.map((t) => ({ ...t, watched: true })));
    fenceRunState();
    this.fenced = true;
  }

  /**
   * Grows each table's grid to the last row of writes about to be sent in several requests, once,
   * not once a request: each growth is a SpreadsheetApp insert, its formats and a flush, and a sheet
   * this run created and has not sent yet gets the rows in its addSheet. Past the cell limit
   * nothing grows here: each write grows as it is sent, up to the one that does not fit.
   */
  growFor(tables: readonly TableWrite[]): void {
    try {
      for (const t of tables) if (t.rows.length > 0) this.growTo(t.schema, lastRowOf(t.rows));
    } catch (e) {
      if (!(e instanceof CellLimitError)) throw e;
    }
  }

  /** Bytes of the rows waiting to ride with the next write (defer, deferRows), as sent. */
  heldBytes(): number {
    return this.deferred.reduce((n, t) => n + rowWritesBytes(t.rows), 0);
  }

  /** Rows of the table wait to ride along with the next write (deferRows, defer). */
  holdsRowsOf(sheetName: SheetName): boolean {
    return this.deferred.some((t) => t.rows.length > 0 && t.schema.sheetName === sheetName);
  }

  /**
   * Drops the Sync log's opening row when nothing else waits to be sent: true when it did (the
   * run ends without writing a cell, SyncLog.close). False when other writes wait or the row was sent.
   */
  dropOpeningRow(): boolean {
    if (this.deferred.length === 0 || this.deferred.some((t) => t.opensRun !== true)) return false;
    // The row index's cells that wait for the closing row are sent with it: the row stays.
    const closing = this.companion(true);
    if (closing.length > 0) {
      this.heldCompanion = closing;
      return false;
    }
    this.deferred = [];
    return true;
  }

  /** Whole rows as they stand once this run's deferred writes of the table are sent (the Monthly P&L rebuilt before the tie-out). */
  withDeferred(schema: TableSchema, rows: unknown[][]): unknown[][] {
    for (const t of this.deferred) {
      if (t.schema.sheetName !== schema.sheetName) continue;
      for (const w of t.rows) if (w.column === 1) rows[w.row - 2] = w.cells.slice();
    }
    for (let i = 0; i < rows.length; i++) if (rows[i] === undefined) rows[i] = [];
    return rows;
  }

  /** `callback` runs once, before this run's first row write to one of `tables` is sent (formulas owed until re-entered). */
  beforeFirstWrite(tables: readonly TableSchema[], callback: () => void): void {
    this.firstWrite = { sheets: new Set(tables.map((t) => t.sheetName)), callback };
  }

  /** `watcher` sees every later write of the table's rows before it is sent (it may read the rows first). */
  watchWrites(schema: TableSchema, watcher: (rows: readonly RowWrite[]) => void): void {
    this.watchers.set(schema.sheetName, watcher);
  }

  /** Every row write of a page (or of several), all applied before it returns: grid growth where needed, then one batchUpdate. */
  write(tables: readonly TableWrite[]): number {
    const data: RangeWrite[] = [];
    const formats: GoogleAppsScript.Sheets.Schema.Request[] = [];
    const all = this.deferred.concat(tables);
    this.deferred = [];
    const first = this.firstWrite;
    if (first && all.some((t) => t.rows.length > 0 && first.sheets.has(t.schema.sheetName))) {
      this.firstWrite = null;
      first.callback();
    }
    for (const t of all) if (t.rows.length > 0 && t.watched !== true) this.watchers.get(t.schema.sheetName)?.(t.rows);
    // Writes of one sheet merged into one set of ranges: a later write of the same row wins, never two ranges over one cell.
    const bySheet = new Map<string, RowWrite[]>();
    for (const t of all) {
      if (t.rows.length === 0) continue;
      const opened = this.tables.sheetFor(t.schema);
      // Rows come in the catalog's column order: placed at the sheet's own columns.
      const rows = opened.map ? toSheetWrites(opened.map, opened.schema.columns.length, t.rows) : t.rows;
      this.growTo(t.schema, lastRowOf(rows));
      if (opened.rows) for (const w of rows) if (w.column === 1) opened.rows[w.row - 2] = w.cells.slice();
      const sheetRows = bySheet.get(opened.name) ?? [];
      if (sheetRows.length === 0) bySheet.set(opened.name, sheetRows);
      for (const w of withoutSkipped(opened.skipped, rows)) sheetRows.push(w);
      const currency = this.store.currency;
      if (currency !== null && t.schema.storeData) {
        const foreign = foreignCurrencyFormats(0, opened.schema, rows, currency);
        if (foreign.length > 0) {
          const sheetId = this.tables.handle(opened).getSheetId();
          for (const r of foreign) r.repeatCell!.range!.sheetId = sheetId;
          formats.push(...foreign);
        }
      }
    }
    for (const [name, rows] of bySheet) data.push(...mergeRowWrites(name, rows));
    // The row index changes with the rows in the same request: applied together, or neither.
    const companion = this.heldCompanion
      .splice(0)
      .concat(
        this.companion(
          all.some((t) => t.rows.length > 0 && t.schema.sheetName === SYNC_LOG.sheetName && t.opensRun !== true),
        ),
      );
    // The Sync log's opening row rides along with a write; alone it waits (a run that writes nothing may drop it).
    if (companion.length === 0 && all.every((t) => t.rows.length === 0 || t.opensRun === true)) {
      this.deferred = all.filter((t) => t.rows.length > 0);
      return 0;
    }
    data.push(...companion);
    if (data.length === 0) return 0;
    const cells = data.reduce((n, d) => n + d.values.length * (d.values[0]?.length ?? 0), 0);
    const id = this.snapshot.id();
    // Pending SpreadsheetApp changes (the grid's growth) are flushed first (sheetsRequest).
    for (const request of requestsOf(data))
      sheetsRequest('write', () => valuesService().batchUpdate({ valueInputOption: 'RAW', data: request }, id));
    if (this.fenced) {
      this.fenced = false;
      liftRunStateFence();
    }
    // Rows in another currency than the store's: their amount cells' format, in one more request (more
    // when a store of many such rows passes 2 MB of them).
    for (const group of requestGroups(formats))
      sheetsRequest('write', () => sheetsService().batchUpdate({ requests: group }, id));
    return cells;
  }

  /**
   * Grows the grid: a sheet created in this run and not sent yet in its set-up's addSheet (growQueued);
   * any other with SpreadsheetApp, which formats the new rows: no Sheets API write request (60 a
   * minute, developers.google.com/workspace/sheets/api/limits), and the growth is applied with the
   * write that needs it (sheetsRequest flushes pending SpreadsheetApp changes before a request; the
   * runtime models that a write past a pending growth fails). The insert and the formats are queued
   * with no SpreadsheetApp read of the sheet between them (the runtime's write buffer), so they
   * are applied together: an execution ended before the flush loses both, and the next run grows
   * the grid again.
   */
  private growTo(schema: TableSchema, lastRow: number): void {
    const opened = this.tables.sheetFor(schema);
    if (lastRow <= opened.maxRows) return;
    const columns = (opened.maxColumns ??= this.tables.handle(opened).getMaxColumns());
    const needed = lastRow - opened.maxRows;
    this.cells.checkRoom(needed * columns);
    const room = Math.floor((SPREADSHEET_CELL_LIMIT - this.cells.used()) / columns);
    const add = Math.min(Math.max(needed, GROW_ROWS), room);
    // A sheet this run creates and has not sent yet is added with the rows (one request, no flush).
    if (!this.tables.growQueued(opened, opened.maxRows + add)) this.addRows(opened, add);
    this.grown.add(schema.sheetName);
    opened.maxRows += add;
    this.cells.added(add * columns);
  }

  private addRows(opened: OpenSheet, add: number): void {
    const sheet = this.tables.handle(opened);
    // The new rows' ranges are offsets of one taken before the insert: a getRange after it could
    // apply the pending insert alone (a SpreadsheetApp read of a sheet applies its pending writes).
    const lastCell = sheet.getRange(opened.maxRows, 1);
    sheet.insertRowsAfter(opened.maxRows, add);
    for (const run of formatRuns(opened.schema, this.store.currency)) {
      lastCell
        .offset(1, run.column - 1, add, run.patterns.length)
        .setNumberFormats(Array.from({ length: add }, () => run.patterns));
    }
    noteSpreadsheetChange();
  }
}
