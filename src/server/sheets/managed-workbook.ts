/**
 * The Apps Script edge of the sheets, as one run uses it: opens (or creates) the managed sheets,
 * reads each key index once per run, and writes every row write of a page in ONE
 * Values.batchUpdate. Its parts do the work, each with one job: the snapshot (what sheets there
 * are), the table sheets (opening, set-up, layouts), the key reads, the batch writer (with grid
 * growth) and the cell count. The parts stay private: callers get the named operations below.
 */
import { currentSpreadsheet } from '../platform/context';
import { BatchWriter, type TableWrite } from './batch-writer';
import { CellCount } from './cell-count';
import type { KeyIndex } from './key-index';
import { KeyReads } from './key-reads';
import { RowIndex } from './row-index';
import type { RowWrite } from './row-writes';
import { StoreBinding } from './store-binding';
import { TableLayouts, type ColumnSettings } from './table-layouts';
import { TableSheets } from './table-sheets';
import { WorkbookSnapshot } from './workbook-snapshot';
import type { SheetInfo } from './sheet-snapshot';
import { LINE_ITEMS, ORDERS, type SheetName, type TableSchema } from './schema';

export { SheetLayoutError, SheetOwnershipError, STORE_METADATA_KEY } from './sheet-tags';
export { CellLimitError, SPREADSHEET_CELL_LIMIT, spreadsheetGridCells } from './cell-count';
export type { ColumnSettings } from './table-layouts';
export type { TableWrite } from './batch-writer';

/** The tables whose rows a run may leave to ride along with its next write (the orders feed's last pages). */
const RIDING_TABLES: ReadonlySet<SheetName> = new Set([ORDERS.sheetName, LINE_ITEMS.sheetName]);

export class ManagedWorkbook {
  readonly timeZone: string;
  /** Every sheet's title, grid and tags, read once per run. */
  private readonly snapshot: WorkbookSnapshot;
  /** Cells toward the spreadsheet's limit. */
  private readonly cells: CellCount;
  /** The managed tables' sheets: found or created, set up, in line with the chosen columns. */
  private readonly tables: TableSheets;
  /** Key indexes and reads of tables, columns, rows and ranges. */
  private readonly reads: KeyReads;
  /** Row writes in one batchUpdate, grid growth, deferred writes and write watchers. */
  private readonly writer: BatchWriter;
  private readonly store = new StoreBinding();
  /** The order id → rows index in its hidden sheet: what the hourly run reads instead of the key columns. */
  private readonly rowIndex: RowIndex;
  private readonly layouts = new TableLayouts();

  /** `spreadsheet` is handed in by a caller that also edits sheets of its own in it (the month-end close). */
  constructor(private readonly spreadsheet = currentSpreadsheet('opening the sheets to sync')) {
    this.timeZone = spreadsheet.getSpreadsheetTimeZone();
    this.snapshot = new WorkbookSnapshot(spreadsheet);
    this.cells = new CellCount(this.snapshot);
    this.rowIndex = new RowIndex(this.snapshot);
    this.tables = new TableSheets(
      spreadsheet,
      this.timeZone,
      this.snapshot,
      this.layouts,
      this.cells,
      this.store,
      this.rowIndex,
    );
    this.writer = new BatchWriter(this.snapshot, this.tables, this.cells, this.store, (closing) => [
      ...this.rowIndex.writes(closing),
      ...this.rowIndex.numbers.writes(closing),
    ]);
    this.reads = new KeyReads(
      this.timeZone,
      this.snapshot,
      this.tables,
      (schema, rows) => this.writer.withDeferred(schema, rows),
      this.rowIndex,
    );
  }

  /** Binds the store whose data this run writes (checked against each data sheet's tag). */
  bindStore(storeId: string, currency: string | null): void {
    this.store.bind(storeId, currency);
  }

  /** The columns this spreadsheet syncs: needed before Orders or Line items is opened. */
  useColumns(settings: ColumnSettings): void {
    this.layouts.use(settings);
  }

  id(): string {
    return this.snapshot.id();
  }

  /** The run's locked read found no sync state: a plainly new spreadsheet is listed without a Sheets API read. */
  neverSynced(): void {
    this.snapshot.neverSynced();
  }

  /** Every sheet's title and grid as this run's one Sheets API read listed them. */
  sheets(): readonly SheetInfo[] {
    return this.snapshot.sheetInfos();
  }

  /** Whether this run's one Sheets API read listed a sheet of that title. */
  listsSheet(title: string): boolean {
    return this.snapshot.sheetInfos().some((s) => s.title === title);
  }

  /** The sheets as this run's read listed them, and whether each is a managed table (formula re-entry). */
  scannedSheets(): Array<{ title: string; rows: number; columns: number; managed: boolean }> {
    return this.snapshot.scannedSheets();
  }

  /** A sheet by its title, as the spreadsheet holds it now (one SpreadsheetApp lookup). */
  sheetByName(title: string): GoogleAppsScript.Spreadsheet.Sheet | null {
    return this.spreadsheet.getSheetByName(title);
  }

  /** Grid cells in use toward the spreadsheet's limit. */
  usedCells(): number {
    return this.cells.used();
  }

  /** Grid cells in use, when this run knows them without a call (its snapshot and what it added since), else null. */
  knownUsedCells(): number | null {
    return this.cells.known();
  }

  /** The key index of a table: from its index columns, read with every store table's in ONE call per run. */
  index(schema: TableSchema): KeyIndex {
    return this.reads.index(schema);
  }

  /** Fills in the index cells the run's start read left out, for every table asked, in ONE Values.batchGet. */
  completeIndex(
    ...tables: ReadonlyArray<{ schema: TableSchema; keys?: Iterable<string>; parents?: Iterable<string> }>
  ): void {
    // No riding rows are sent first: rows ride only into sheets created this run, never read to complete an index.
    this.reads.completeIndex(...tables);
  }

  /** Orders a page lists: the order number index keeps each one's number (written with the run's next write). */
  learnOrderNumbers(orders: Iterable<unknown>): void {
    this.rowIndex.numbers.learn(orders);
  }

  /** The managed columns of a table from row 2 down, in ONE Values.get; empty when the sheet does not exist yet. */
  readTable(schema: TableSchema): unknown[][] {
    this.sendRidingRows(schema);
    return this.reads.readTable(schema);
  }

  /** Only the named columns of a table, row 2 down, at their catalog positions, in ONE Values.batchGet. */
  readColumns(table: TableSchema, headers: readonly string[]): unknown[][] {
    this.sendRidingRows(table);
    return this.reads.readColumns(table, headers);
  }

  /** The named columns of some rows (1-based sheet rows) of a table, at their catalog positions, in ONE Values.batchGet. */
  readRows(table: TableSchema, sheetRows: readonly number[], headers: readonly string[]): unknown[][] {
    if (sheetRows.length > 0) this.sendRidingRows(table);
    return this.reads.readRows(table, sheetRows, headers);
  }

  /**
   * Orders and Line items rows that wait to ride along with the run's next write (the orders feed's
   * last pages) are sent before a read of their sheet, which must find them there (the tie-out's
   * whole read before it says ✗): the write they would have had of their own, made at this point.
   */
  private sendRidingRows(...tables: readonly TableSchema[]): void {
    if (tables.some((t) => RIDING_TABLES.has(t.sheetName) && this.writer.holdsRowsOf(t.sheetName))) this.write([]);
  }

  /** Values of A1 ranges (quoted sheet names), unformatted, in ONE Values.batchGet. */
  readRanges(ranges: readonly string[]): unknown[][][] {
    return this.reads.readRanges(ranges);
  }

  /** Before the first sheet access: the run goes over every order, so its first read takes the Orders and Line items key columns whole. */
  readKeysWhole(): void {
    this.tables.wholeKeysAtStart();
  }

  /** What the Sync log says of the row index this run (found wrong and written again), once. */
  rowIndexNote(): string | null {
    return this.rowIndex.takeNote();
  }

  /** Every row write of a page (or of several), all applied before it returns: grid growth where needed, then one batchUpdate. */
  write(tables: readonly TableWrite[]): number {
    try {
      return this.writer.write(tables);
    } finally {
      this.reads.forgetRows();
    }
  }

  /** The named columns come with the index cells a page reads of the table's rows, for a readRows of them before the next write. */
  readAlong(table: TableSchema, headers: readonly string[]): void {
    this.reads.readAlong(table, headers);
  }

  /** Grows the grids once for writes that follow in several requests (BatchWriter.growFor). */
  growFor(tables: readonly TableWrite[]): void {
    this.writer.growFor(tables);
  }

  /** Bytes of the rows waiting to ride with the next write (BatchWriter.heldBytes). */
  heldBytes(): number {
    return this.writer.heldBytes();
  }

  /** Writes sent with the next write() (in the same Values.batchUpdate). */
  defer(tables: readonly TableWrite[]): void {
    this.writer.defer(tables);
  }

  /** Drops the Sync log's opening row when nothing else waits to be sent (BatchWriter.dropOpeningRow). */
  dropOpeningRow(): boolean {
    return this.writer.dropOpeningRow();
  }

  /** Data rows sent with the next write(); the run's state written meanwhile waits for them (BatchWriter.deferRows). */
  deferRows(tables: readonly TableWrite[]): void {
    this.writer.deferRows(tables);
  }

  /** `callback` runs once, before this run's first row write to one of `tables` is sent. */
  beforeFirstWrite(tables: readonly TableSchema[], callback: () => void): void {
    this.writer.beforeFirstWrite(tables, callback);
  }

  /** `watcher` sees every later write of the table's rows before it is sent. */
  watchWrites(schema: TableSchema, watcher: (rows: readonly RowWrite[]) => void): void {
    this.writer.watchWrites(schema, watcher);
  }

  /** Whether this run grew the table's grid (charts over it may need re-pointing). */
  grew(schema: TableSchema): boolean {
    return this.writer.grown.has(schema.sheetName);
  }

  /** Makes sure the sheet exists (for tables written without an index, e.g. the Sync log). */
  ensure(schema: TableSchema): GoogleAppsScript.Spreadsheet.Sheet {
    return this.tables.ensure(schema);
  }

  /** Last row with content as of opening the sheet in this run (1 when it holds only the header). */
  lastRowAtOpen(schema: TableSchema): number {
    return this.tables.lastRowAtOpen(schema);
  }

  /** The leading columns of every row as the run's first read found them (schema.rowKeyColumns); none for a sheet created this run. */
  rowKeysAtOpen(schema: TableSchema): readonly unknown[][] {
    return this.tables.sheetFor(schema).keys;
  }

  /** True when the sheet did not exist (or was empty) at the start of this run. */
  createdThisRun(schema: TableSchema): boolean {
    return this.tables.createdThisRun(schema);
  }

  /** Whether the table's sheet exists (found by its tag or name, or opened in this run). */
  hasSheet(table: TableSchema): boolean {
    return this.tables.hasSheet(table);
  }

  /** Whether the table's sheet holds a column (a column choice may leave one out). */
  holdsColumn(table: TableSchema, header: string): boolean {
    return this.tables.holdsColumn(table, header);
  }

  /** Columns of a table's sheet as it is or will be set up. */
  widthOf(table: TableSchema): number {
    return this.tables.widthOf(table);
  }

  /** Grid cells the set-up of these tables has still to add (new sheets of Google's 1,000 rows). */
  setUpCellsToCome(tables: readonly TableSchema[]): number {
    return this.tables.setUpCellsToCome(tables);
  }

  /** The note on a sheet's first header cell (null brings back the schema's own note). */
  setHeaderNote(schema: TableSchema, note: string | null): void {
    this.tables.setHeaderNote(schema, note);
  }
}
