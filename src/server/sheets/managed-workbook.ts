/**
 * The Apps Script edge of the sheets, as one run uses it: opens (or creates) the managed sheets,
 * reads each key index once per run, and writes every row write of a page in ONE
 * Values.batchUpdate. Its parts do the work, each with one job: the snapshot (what sheets there
 * are), the table sheets (opening, set-up, layouts), the key reads, the batch writer (with grid
 * growth) and the cell count. Callers that need a part's rarer calls use the part.
 */
import { currentSpreadsheet } from '../platform/context';
import { BatchWriter, type TableWrite } from './batch-writer';
import { CellCount } from './cell-count';
import type { KeyIndex } from './key-index';
import { KeyReads } from './key-reads';
import { StoreBinding } from './store-binding';
import { TableLayouts, type ColumnSettings } from './table-layouts';
import { TableSheets } from './table-sheets';
import { WorkbookSnapshot } from './workbook-snapshot';
import type { TableSchema } from './schema';

export { SheetLayoutError, SheetOwnershipError, STORE_METADATA_KEY } from './sheet-tags';
export { CellLimitError, SPREADSHEET_CELL_LIMIT, spreadsheetGridCells } from './cell-count';
export type { ColumnSettings } from './table-layouts';
export type { TableWrite } from './batch-writer';

export class ManagedWorkbook {
  readonly spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet;
  readonly timeZone: string;
  /** Every sheet's title, grid and tags, read once per run. */
  readonly snapshot: WorkbookSnapshot;
  /** Cells toward the spreadsheet's limit. */
  readonly cells: CellCount;
  /** The managed tables' sheets: found or created, set up, in line with the chosen columns. */
  readonly tables: TableSheets;
  /** Key indexes and reads of tables, columns, rows and ranges. */
  readonly reads: KeyReads;
  /** Row writes in one batchUpdate, grid growth, deferred writes and write watchers. */
  readonly writer: BatchWriter;
  private readonly store = new StoreBinding();
  private readonly layouts = new TableLayouts();

  constructor() {
    this.spreadsheet = currentSpreadsheet('opening the sheets to sync');
    this.timeZone = this.spreadsheet.getSpreadsheetTimeZone();
    this.snapshot = new WorkbookSnapshot(this.spreadsheet);
    this.cells = new CellCount(this.snapshot);
    this.tables = new TableSheets(this.spreadsheet, this.timeZone, this.snapshot, this.layouts, this.cells, this.store);
    this.writer = new BatchWriter(this.snapshot, this.tables, this.cells, this.store);
    this.reads = new KeyReads(this.timeZone, this.snapshot, this.tables, (schema, rows) =>
      this.writer.withDeferred(schema, rows),
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

  /** The key index of a table: from its index columns, read with every store table's in ONE call per run. */
  index(schema: TableSchema): KeyIndex {
    return this.reads.index(schema);
  }

  /** Fills in the index cells the run's start read left out, for every table asked, in ONE Values.batchGet. */
  completeIndex(...tables: ReadonlyArray<{ schema: TableSchema; keys?: Iterable<string> }>): void {
    this.reads.completeIndex(...tables);
  }

  /** The managed columns of a table from row 2 down, in ONE Values.get; empty when the sheet does not exist yet. */
  readTable(schema: TableSchema): unknown[][] {
    return this.reads.readTable(schema);
  }

  /** Every row write of a page (or of several), all applied before it returns: grid growth where needed, then one batchUpdate. */
  write(tables: readonly TableWrite[]): number {
    return this.writer.write(tables);
  }

  /** Writes sent with the next write() (in the same Values.batchUpdate). */
  defer(tables: readonly TableWrite[]): void {
    this.writer.defer(tables);
  }

  /** Makes sure the sheet exists (for tables written without an index, e.g. the Sync log). */
  ensure(schema: TableSchema): GoogleAppsScript.Spreadsheet.Sheet {
    return this.tables.ensure(schema);
  }

  /** Last row with content as of opening the sheet in this run (1 when it holds only the header). */
  lastRowAtOpen(schema: TableSchema): number {
    return this.tables.lastRowAtOpen(schema);
  }
}
