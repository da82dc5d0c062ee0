/**
 * The managed tables' sheets as this run opens them: found by name or tag (or created), claimed
 * for the store, set up when empty, brought in line with the chosen columns, and kept open with
 * their layout, grid and key cells for the reads and writes that follow.
 */
import { indexCellsOf } from './change-check';
import type { CellValue } from './cells';
import type { CellCount } from './cell-count';
import { isChoosable } from './column-choice';
import { missingAddedColumns } from './header-check';
import { renameFormerHeaders } from './header-renames';
import { LayoutFollower } from './layout-follow';
import { placeLayout, WHOLE_ROW_TABLES, type OpenSheet } from './open-sheet';
import { checkColumnTags, checkHeaderRow, claimSheet, type LocatedSheet } from './sheet-tags';
import { columnTagRequests, followsColumnTags, taggedHeaderRow } from './column-tags';
import { catalogLayout, type TableLayout } from './sheet-layout';
import { noteSpreadsheetChange, sendHeldBack, sheetsRequest } from './sheets-requests';
import { percentCell } from './percent';
import { holdsPoints, percentColumns } from './percent-upgrade';
import { sendPercentUpgrade } from './percent-upgrade-send';
import { sheetsService, type Grid, type SheetInfo } from './sheet-snapshot';
import { SheetSetUp } from './sheet-setup';
import { StartReads } from './start-reads';
import type { StoreBinding } from './store-binding';
import type { TableLayouts } from './table-layouts';
import type { WorkbookSnapshot } from './workbook-snapshot';
import { columnIndex } from './column-positions';
import { ORDERS, type SheetName, type TableSchema } from './schema';
import type { RowIndex } from './row-index';

/** Rows of a sheet the set-up creates: as many as Google's insertSheet gives. */
const NEW_SHEET_ROWS = 1000;

export class TableSheets {
  private readonly open = new Map<SheetName, OpenSheet>();
  private readonly startReads: StartReads;
  private readonly setUp: SheetSetUp;
  private readonly follower: LayoutFollower;

  constructor(
    private readonly spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
    timeZone: string,
    private readonly snapshot: WorkbookSnapshot,
    private readonly layouts: TableLayouts,
    cells: CellCount,
    private readonly store: StoreBinding,
    private readonly rowIndex: RowIndex,
  ) {
    this.startReads = new StartReads(snapshot, layouts, rowIndex);
    this.setUp = new SheetSetUp(spreadsheet, timeZone, snapshot, this.startReads, cells, store);
    this.follower = new LayoutFollower(timeZone, snapshot, layouts, cells, store, (opened) => this.handle(opened));
  }

  /**
   * The sheet for a schema, created with headers, formats, notes and the store tag if missing.
   * The set-up is one batchUpdate, all or nothing: a run cut short before it leaves no sheet, or
   * (a sheet found empty) no header, and the next run sets it up again.
   */
  sheetFor(schema: TableSchema): OpenSheet {
    const cached = this.open.get(schema.sheetName);
    if (cached) return cached;
    let existing = this.snapshot.locate(schema);
    if (existing && !schema.storeData && this.setUp.retiredOldLayout(existing.name, schema)) existing = null;
    const opened = existing ? this.openExisting(schema, existing) : this.create(schema);
    this.open.set(schema.sheetName, opened);
    return opened;
  }

  private openExisting(schema: TableSchema, existing: LocatedSheet): OpenSheet {
    const { info, name } = existing;
    const placed = this.layouts.placedFor(schema, info);
    const opened = openSheet(schema, name, {
      sheet: null,
      maxRows: info.rows,
      maxColumns: info.columns,
      lastRow: null,
      created: false,
    });
    placeLayout(opened, schema, placed.layout);
    let header: unknown[] = [];
    if (schema.storeData) {
      const read = this.startReads.of(schema);
      header = read.header;
      opened.keys = read.keys;
      opened.sparse = read.sparse === true;
      if (WHOLE_ROW_TABLES.has(schema.sheetName)) {
        opened.rows = read.keys.map((r) => r.slice());
        // The index keeps its columns and the change columns (indexCellsOf), as for every table.
        opened.keys = read.keys.map((r) => indexCellsOf(schema, r as CellValue[]));
      }
    }
    // A header cell with content means the sheet is not empty; only a blank header row needs the full last-row call.
    const empty = header.every((v) => v === '' || v === null || v === undefined) && this.lastRowOf(opened) === 0;
    if (schema.storeData)
      claimSheet(existing, schema, this.store.requireStore(), empty, (key, value) => {
        this.handle(opened).addDeveloperMetadata(key, value);
        noteSpreadsheetChange();
      });
    if (empty) {
      placeLayout(opened, schema, this.layouts.layoutForNewSheet(schema));
      this.setUp.setUp(info, opened.schema);
      opened.maxColumns = opened.schema.columns.length;
      opened.created = true;
      opened.keys = [];
      opened.sparse = false;
      if (opened.rows) opened.rows = [];
    } else if (schema.storeData) {
      // A tagged sheet's columns are found by tag: its headings are the user's (column-tags.ts).
      if (placed.tagged) {
        checkColumnTags(existing, schema, placed.lost);
        // A sheet without a layout keeps its columns in place: checked with each heading read as its tag names it.
        if (!placed.layout) checkHeaderRow(existing, opened.schema, taggedHeaderRow(header, info.columnTags ?? []));
      } else {
        header = renameFormerHeaders(() => this.handle(opened), opened.schema, header);
        const missing = missingAddedColumns(opened.schema, header);
        if (missing > 0) {
          this.setUp.completeAddedColumns(this.handle(opened), opened.schema, missing);
          opened.maxColumns = null;
        } else checkHeaderRow(existing, opened.schema, header);
        if (followsColumnTags(schema)) this.tagColumns(info, placed.layout ?? catalogLayout(schema));
      }
      if (isChoosable(schema)) this.follower.followChoice(opened, schema, placed.layout);
      if (holdsPoints(schema, info)) this.upgradePercents(opened, info);
    }
    if (!schema.storeData) this.lastRowOf(opened);
    return opened;
  }

  /** A sheet set up before the column tags, its headers just checked against its layout: tagged, in one batchUpdate. */
  private tagColumns(info: SheetInfo, layout: TableLayout): void {
    const requests = columnTagRequests(info.sheetId, layout.columns);
    const id = this.snapshot.id();
    if (requests.length > 0) sheetsRequest('write', () => sheetsService().batchUpdate({ requests }, id));
  }

  /** A sheet an earlier version wrote with points in its percent columns: fractions now (percent-upgrade.ts), in one read and one write (more for a large sheet). */
  private upgradePercents(opened: OpenSheet, info: SheetInfo): void {
    const columns = percentColumns(opened.schema);
    const converted = sendPercentUpgrade(this.snapshot.id(), opened.name, info, opened.schema, opened.maxRows);
    // The whole rows this run already holds (the Monthly P&L) read as the sheet does now.
    (opened.rows ?? []).forEach((row, i) => {
      columns.forEach((c, k) => {
        if (typeof row[c] === 'number' && converted?.[k]?.[i] !== true) row[c] = percentCell(row[c]);
      });
    });
  }

  private create(schema: TableSchema): OpenSheet {
    const opened = openSheet(schema, schema.sheetName, {
      sheet: null,
      maxRows: NEW_SHEET_ROWS,
      maxColumns: null,
      lastRow: 1,
      created: true,
    });
    if (WHOLE_ROW_TABLES.has(schema.sheetName)) opened.rows = [];
    placeLayout(opened, schema, this.layouts.layoutForNewSheet(schema));
    this.setUp.create(opened.schema, schema.storeData ? this.store.requireStore() : null, NEW_SHEET_ROWS);
    opened.maxColumns = opened.schema.columns.length;
    // A new Orders sheet is indexed from its first rows: the row index sheet rides with its set-up.
    if (schema.sheetName === ORDERS.sheetName) this.rowIndex.sheetWithSetUp();
    return opened;
  }

  /** Before the first sheet access: the run goes over every order, so the start read takes the key columns whole. */
  wholeKeysAtStart(): void {
    this.startReads.wholeKeys = true;
  }

  /** The key columns of these tables read whole, down to their grid rows now, in ONE call. */
  readKeysWhole(tables: readonly TableSchema[], rows: { orders: number; lines: number }): Map<SheetName, unknown[][]> {
    return this.startReads.readWhole(tables, rows);
  }

  /** A hidden sheet of `columns` columns, tagged `tagKey`, created with the run's next Sheets API request. */
  createHidden(title: string, rows: number, columns: number, tagKey: string): void {
    this.setUp.createHidden(title, rows, columns, tagKey);
  }

  /** A hidden sheet's grid grown to `to`, with the run's next Sheets API request. */
  growHidden(sheetId: number, from: Grid, to: Grid): void {
    this.setUp.growHidden(sheetId, from, to);
  }

  /** Whether the table's sheet is open in this run. */
  isOpen(table: TableSchema): boolean {
    return this.open.has(table.sheetName);
  }

  /** A sheet created in this run whose set-up is not sent yet is added with `rows` rows (SheetSetUp.growQueued); false otherwise. */
  growQueued(opened: OpenSheet, rows: number): boolean {
    return opened.created && opened.sheet === null && this.setUp.growQueued(opened.name, rows);
  }

  /** The sheet itself, fetched by name the first time a call needs it. */
  handle(opened: OpenSheet): GoogleAppsScript.Spreadsheet.Sheet {
    if (opened.sheet) return opened.sheet;
    // A sheet created in this run exists once its held-back set-up is sent.
    if (opened.created) sendHeldBack();
    const sheet = this.spreadsheet.getSheetByName(opened.name);
    if (!sheet)
      throw new Error(`The sheet "${opened.name}" was removed while the sync was running; the next run continues.`);
    opened.sheet = sheet;
    return sheet;
  }

  /** Last row with content as of opening (0 when the sheet is empty; recorded as at least 1). */
  lastRowOf(opened: OpenSheet): number {
    if (opened.lastRow !== null) return opened.lastRow;
    const last = this.handle(opened).getLastRow();
    opened.lastRow = Math.max(last, 1);
    return last;
  }

  /** Last row with content as of opening the sheet in this run (1 when it holds only the header). */
  lastRowAtOpen(schema: TableSchema): number {
    const opened = this.sheetFor(schema);
    this.lastRowOf(opened);
    return opened.lastRow ?? 1;
  }

  /** Makes sure the sheet exists (for tables written without an index, e.g. the Sync log). */
  ensure(schema: TableSchema): GoogleAppsScript.Spreadsheet.Sheet {
    return this.handle(this.sheetFor(schema));
  }

  /** True when the sheet did not exist (or was empty) at the start of this run: the user deleted it, or it is new. */
  createdThisRun(schema: TableSchema): boolean {
    return this.sheetFor(schema).created;
  }

  /** Whether the table's sheet exists (found by its tag or name, or opened in this run). */
  hasSheet(table: TableSchema): boolean {
    return this.open.has(table.sheetName) || this.snapshot.locate(table) !== null;
  }

  /** Whether the table's sheet holds a column (a column choice may leave one out); a sheet not set up yet holds every one. */
  holdsColumn(table: TableSchema, header: string): boolean {
    const located = this.snapshot.locate(table);
    if (!located && !this.open.has(table.sheetName)) return true;
    const opened = this.sheetFor(table);
    return opened.map ? opened.map[columnIndex(table, header)] > 0 : true;
  }

  /** Columns (1-based) of a table's sheet as it is or will be set up: what the capacity estimate counts per row. */
  widthOf(table: TableSchema): number {
    const open = this.open.get(table.sheetName);
    if (open) return open.schema.columns.length;
    const located = this.snapshot.locateIfClear(table);
    return (located ? this.layouts.placedFor(table, located.info) : this.layouts.layoutFor(table, false)).schema.columns
      .length;
  }

  /**
   * Grid cells the set-up of these tables has still to add: a table with no sheet yet gets a new
   * sheet of Google's 1,000 rows by its columns. The backfill check counts them with the cells in use
   * (a first backfill creates Line items, Daily P&L, … after its first orders page).
   */
  setUpCellsToCome(tables: readonly TableSchema[]): number {
    let cells = 0;
    for (const table of tables) {
      if (this.open.has(table.sheetName)) continue;
      if (!this.snapshot.locateIfClear(table))
        cells += NEW_SHEET_ROWS * this.layouts.layoutFor(table, false).schema.columns.length;
    }
    return cells;
  }

  /**
   * The note on a sheet's first header cell: where the sheet says what the plan's history window
   * left out (null removes it). The schema's own note of that column comes back then.
   */
  setHeaderNote(schema: TableSchema, note: string | null): void {
    const sheet = this.handle(this.sheetFor(schema));
    sheet.getRange(1, 1).setNote(note ?? schema.columns[0].note ?? '');
    noteSpreadsheetChange();
  }
}

function openSheet(
  schema: TableSchema,
  name: string,
  found: Pick<OpenSheet, 'sheet' | 'maxRows' | 'maxColumns' | 'lastRow' | 'created'>,
): OpenSheet {
  return { schema, map: null, skipped: [], index: null, keys: [], sparse: false, rows: null, name, ...found };
}
