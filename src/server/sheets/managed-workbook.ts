/**
 * The Apps Script edge of the sheets: opens (or creates) the managed sheets, reads each key
 * index once per run, and writes every row write of a page in ONE Values.batchUpdate (RAW),
 * growing the grid first when needed. Only managed columns are written; rows never move.
 */
import { currentSpreadsheet, spreadsheetIdOf } from '../platform/context';
import { a1Range } from './a1';
import { KeyIndex, type IndexedRow } from './key-index';
import { columnWidthPx, setUpRequests } from './layout';
import { lastRowOf, mergeRowWrites, withoutSkipped, type RangeWrite, type RowWrite } from './row-writes';
import { foreignCurrencyFormats } from './currency-formats';
import { numberFormatFor } from './rows';
import { changeSpan, columnIndex, type SheetName, type TableSchema } from './schema';
import { CHECKS, DAILY, LINE_ITEMS, MONTHLY, ORDERS, PRODUCTS, RESTATEMENTS, SYNC_LOG, VARIANTS } from './schema';
import { findHeaderProblem, missingAddedColumns } from './header-check';
import { highlightRequests } from './highlights';
import { indexCellsOf } from './change-check';
import type { CellValue } from './cells';
import {
  readGridCells,
  readManagedRows,
  readSheetInfos,
  sheetsService,
  type ReadRequest,
  type SheetInfo,
  type SheetReads,
} from './sheet-snapshot';
import { noteSpreadsheetChange, sheetsRequest } from './sheets-requests';
import { checkHeaderRow, claimSheet, locateSheet, taggedSheets, tagNewSheet, type LocatedSheet } from './sheet-tags';
import { chosenHeaders, isChoosable, type ChoosableTable, type ColumnChoice } from './column-choice';
import {
  catalogLayout,
  columnMap,
  layoutSchema,
  newLayout,
  planLayoutChange,
  retiredNote,
  toCatalogRow,
  toSheetWrites,
  withClearedOn,
  type LayoutChange,
  type TableLayout,
} from './sheet-layout';

export { SheetLayoutError, SheetOwnershipError, STORE_METADATA_KEY } from './sheet-tags';

/** Rows added at a time when a sheet's grid is full: fewer insert calls, little unused grid. */
const GROW_ROWS = 1000;
/** Rows of a sheet Google creates (insertSheet). */
const NEW_SHEET_ROWS = 1000;

/** A spreadsheet holds at most 10 million cells. */
export const SPREADSHEET_CELL_LIMIT = 10_000_000;

/** Cells the spreadsheet holds toward the limit: every sheet's grid counts, filled or not (two calls per sheet). */
export function spreadsheetGridCells(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): number {
  return spreadsheet.getSheets().reduce((n, sheet) => n + sheet.getMaxRows() * sheet.getMaxColumns(), 0);
}

export class CellLimitError extends Error {
  constructor(
    readonly usedCells: number,
    readonly neededCells: number,
  ) {
    super(
      `The spreadsheet would pass Google's limit of 10 million cells (${usedCells} used, ${neededCells} more needed). Nothing more was written. Sync a shorter period (set a "created after" date) or use a new spreadsheet.`,
    );
    this.name = 'CellLimitError';
  }
}

/**
 * The columns a spreadsheet syncs (sync/column-settings.ts): what the user chose, each sheet's
 * layout as set up, and where a changed layout is saved (with the columns its existing rows lack).
 */
export interface ColumnSettings {
  choice: ColumnChoice;
  layouts: Partial<Record<ChoosableTable, TableLayout>>;
  /** `fill`: headers existing rows lack; `created`: the sheet was set up afresh (nothing to fill). */
  saveLayout(table: ChoosableTable, layout: TableLayout, fill: readonly string[], created: boolean): void;
}

interface OpenSheet {
  /** The sheet's own schema: for Orders and Line items, the catalog at the layout's columns (sheet-layout.ts). */
  schema: TableSchema;
  /** Catalog position → sheet column (sheet-layout.ts columnMap); null when they are the same. */
  map: number[] | null;
  /** Per sheet column (0-based), true when the sync never writes it. */
  skipped: boolean[];
  /** Fetched only when a call needs the sheet itself (set-up, growth, last row, tagging). */
  sheet: GoogleAppsScript.Spreadsheet.Sheet | null;
  maxRows: number;
  /** From the snapshot; for a sheet set up in this run, read at its first grid growth. */
  maxColumns: number | null;
  index: KeyIndex | null;
  /** Last row with content when the sheet was opened (1 = header only); null until a call needs it. */
  lastRow: number | null;
  /** The index columns as read at opening (rows 2 down to the last with a key-column value). */
  keys: unknown[][];
  /** Whole data rows (row 2 first) of a WHOLE_ROW_TABLES table, kept current with this run's writes. */
  rows: unknown[][] | null;
  /** Created (or set up from empty) in this run: whatever was synced into it before is gone. */
  created: boolean;
  /** The sheet's name now (the user may have renamed it: writes address it by this name). */
  name: string;
}

export interface TableWrite {
  schema: TableSchema;
  rows: RowWrite[];
}

/** Tables whose data rows the set-up read takes whole (the finance sheets sum them after the sync): no extra read. */
// The Monthly P&L too (a row a month): the tie-out proves it without a read of its own (finance/tieout-sheet.ts).
const WHOLE_ROW_TABLES: ReadonlySet<SheetName> = new Set<SheetName>(['Daily P&L', 'Monthly P&L']);

/** The tables whose header row and key columns the first sheet access reads, all in one call (the Sync log: its header). */
const STORE_TABLES: readonly TableSchema[] = [
  ORDERS,
  LINE_ITEMS,
  PRODUCTS,
  VARIANTS,
  DAILY,
  MONTHLY,
  RESTATEMENTS,
  CHECKS,
  SYNC_LOG,
];

export class ManagedWorkbook {
  readonly spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet;
  readonly timeZone: string;
  private readonly open = new Map<SheetName, OpenSheet>();
  private spreadsheetId: string | null = null;
  /** Every sheet's title, grid and tags, read once per run (sheet-snapshot.ts). */
  private sheets: SheetInfo[] | null = null;
  /** Sheets by table tag, from the snapshot. */
  private tagged: Map<string, SheetInfo[]> | null = null;
  /** Header rows and key columns of the store tables, by table, read once per run. */
  private reads: Map<SheetName, SheetReads> | null = null;
  private usedCells: number | null = null;
  /** The snapshot's grid sizes no longer hold (a sheet was inserted or set up). */
  private gridChanged = false;
  private deferred: TableWrite[] = [];
  private firstWrite: { sheets: ReadonlySet<SheetName>; callback: () => void } | null = null;
  /** Called with a table's row writes (catalog columns) before they are sent (finance/order-sums-store.ts). */
  private readonly watchers = new Map<SheetName, (rows: readonly RowWrite[]) => void>();
  /** Tables whose grid this run grew (charts over them may need re-pointing). */
  readonly grown = new Set<SheetName>();
  /** Cells sent by batchUpdate during this run. */
  cellsWritten = 0;

  private storeId: string | null = null;
  private currency: string | null = null;
  private columns: ColumnSettings | null = null;

  constructor() {
    this.spreadsheet = currentSpreadsheet('opening the sheets to sync');
    this.timeZone = this.spreadsheet.getSpreadsheetTimeZone();
  }

  /** Binds the store whose data this run writes (checked against each data sheet's tag). */
  bindStore(storeId: string, currency: string | null): void {
    this.storeId = storeId;
    this.currency = currency;
  }

  /** The columns this spreadsheet syncs: needed before Orders or Line items is opened. */
  useColumns(settings: ColumnSettings): void {
    this.columns = settings;
  }

  /** The sheets as this run's one Sheets API read listed them, and whether each is a managed table. */
  scannedSheets(): Array<{ title: string; rows: number; columns: number; managed: boolean }> {
    const tagged = new Set<number>();
    for (const sheets of this.taggedSheets().values()) for (const s of sheets) tagged.add(s.sheetId);
    return this.snapshot().map((s) => ({
      title: s.title,
      rows: s.rows,
      columns: s.columns,
      managed: tagged.has(s.sheetId),
    }));
  }

  private snapshot(): SheetInfo[] {
    return (this.sheets ??= readSheetInfos(this.id()));
  }

  private taggedSheets(): Map<string, SheetInfo[]> {
    return (this.tagged ??= taggedSheets(this.snapshot()));
  }

  /** The first reads of every store table that exists, in one batchGet (a sheet that cannot be located unambiguously is left to sheetFor). */
  private readsFor(schema: TableSchema): SheetReads {
    if (!this.reads) {
      const requests: ReadRequest[] = [];
      for (const table of STORE_TABLES) {
        // A run that never opens Orders or Line items (the Sync log's note, a close) has no layouts to read them by.
        if (isChoosable(table) && !this.columns) continue;
        let located: LocatedSheet | null = null;
        try {
          located = locateSheet(this.snapshot(), table, () => this.taggedSheets());
        } catch {
          located = null;
        }
        if (located) requests.push(this.readRequest(table, located.info));
      }
      const read = readManagedRows(this.id(), requests);
      this.reads = new Map(requests.map((r, i) => [r.schema.sheetName, read[i]]));
    }
    const found = this.reads.get(schema.sheetName);
    if (found) return found;
    // Not among the tables read up front: read it on its own.
    const info = locateSheet(this.snapshot(), schema, () => this.taggedSheets());
    const own = info ? readManagedRows(this.id(), [this.readRequest(schema, info.info)])[0] : { header: [], keys: [] };
    this.reads.set(schema.sheetName, own);
    return own;
  }

  /** What the run's start reads of a table: its header and, for every row, its key columns (schema.keyReadColumns) or index and change columns. */
  private readRequest(table: TableSchema, info: SheetInfo): ReadRequest {
    const request: ReadRequest = {
      schema: this.layoutFor(table, true).schema,
      info,
      wholeRows: WHOLE_ROW_TABLES.has(table.sheetName),
    };
    if (table.keyReadColumns !== undefined) request.keyColumns = table.keyReadColumns;
    return request;
  }

  /**
   * The sheet for a schema, created with headers, formats, notes and the store tag if missing.
   * Set-up writes the header row last, so a set-up cut short by the time limit (no header yet)
   * is simply done again by the next run.
   */
  private sheetFor(schema: TableSchema): OpenSheet {
    const cached = this.open.get(schema.sheetName);
    if (cached) return cached;
    let existing = locateSheet(this.snapshot(), schema, () => this.taggedSheets());
    if (existing && !schema.storeData && this.retiredOldLayout(existing.name, schema)) existing = null;
    let opened: OpenSheet;
    if (existing) {
      const { info, name } = existing;
      const placed = this.layoutFor(schema, true);
      opened = {
        schema,
        map: null,
        skipped: [],
        sheet: null,
        maxRows: info.rows,
        maxColumns: info.columns,
        index: null,
        lastRow: null,
        keys: [],
        rows: null,
        created: false,
        name,
      };
      this.place(opened, schema, placed.layout);
      let header: unknown[] = [];
      if (schema.storeData) {
        const read = this.readsFor(schema);
        header = read.header;
        opened.keys = read.keys;
        if (WHOLE_ROW_TABLES.has(schema.sheetName)) {
          opened.rows = read.keys.map((r) => r.slice());
          // The index keeps its columns and the change columns (change-check.ts), as for every table.
          opened.keys = read.keys.map((r) => indexCellsOf(schema, r as CellValue[]));
        }
      }
      // A header cell with content means the sheet is not empty; only a blank header row needs the full last-row call.
      const empty = header.every((v) => v === '' || v === null || v === undefined) && this.lastRowOf(opened) === 0;
      if (schema.storeData)
        claimSheet(existing, schema, this.requireStore(), empty, (key, value) => {
          this.handle(opened).addDeveloperMetadata(key, value);
          noteSpreadsheetChange();
        });
      if (empty) {
        this.place(opened, schema, this.layoutForNewSheet(schema));
        this.setUp(this.handle(opened), opened.schema);
        opened.maxColumns = null;
        opened.created = true;
        opened.keys = [];
        if (opened.rows) opened.rows = [];
      } else if (schema.storeData) {
        const missing = missingAddedColumns(opened.schema, header);
        if (missing > 0) this.completeAddedColumns(opened, opened.schema, missing);
        else checkHeaderRow(existing, opened.schema, header);
        if (isChoosable(schema)) this.followChoice(opened, schema, placed.layout);
      }
      if (!schema.storeData) this.lastRowOf(opened);
    } else {
      const sheet = this.spreadsheet.insertSheet(schema.sheetName);
      this.usedCells = null;
      this.gridChanged = true;
      if (schema.storeData) tagNewSheet(sheet, schema, this.requireStore());
      noteSpreadsheetChange();
      opened = {
        schema,
        map: null,
        skipped: [],
        sheet,
        maxRows: 0,
        maxColumns: null,
        index: null,
        lastRow: 1,
        keys: [],
        rows: WHOLE_ROW_TABLES.has(schema.sheetName) ? [] : null,
        created: true,
        name: schema.sheetName,
      };
      this.place(opened, schema, this.layoutForNewSheet(schema));
      this.setUp(sheet, opened.schema);
      opened.maxRows = sheet.getMaxRows();
    }
    this.open.set(schema.sheetName, opened);
    return opened;
  }

  private requireColumns(): ColumnSettings {
    if (!this.columns)
      throw new Error(
        'The chosen columns were not loaded before opening Orders or Line items (ManagedWorkbook.useColumns).',
      );
    return this.columns;
  }

  /**
   * The layout of an existing sheet (`located`) or of one set up now: Orders and Line items follow
   * the chosen columns (sheet-layout.ts); a sheet an older version set up, with no stored layout,
   * holds every catalog column (null layout: the catalog itself). Other tables have none.
   */
  private layoutFor(table: TableSchema, located: boolean): { schema: TableSchema; layout: TableLayout | null } {
    if (!isChoosable(table)) return { schema: table, layout: null };
    const settings = this.requireColumns();
    const name = table.sheetName as ChoosableTable;
    if (located) {
      const stored = settings.layouts[name];
      return stored ? { schema: layoutSchema(table, stored), layout: stored } : { schema: table, layout: null };
    }
    const layout = newLayout(table, settings.choice[name]);
    return { schema: layoutSchema(table, layout), layout };
  }

  /**
   * A sheet about to be set up: for Orders and Line items, the chosen columns, saved as its layout
   * BEFORE the set-up writes its header (a set-up cut short leaves an empty sheet, set up again).
   */
  private layoutForNewSheet(table: TableSchema): TableLayout | null {
    const { layout } = this.layoutFor(table, false);
    if (layout) this.requireColumns().saveLayout(table.sheetName as ChoosableTable, layout, [], true);
    return layout;
  }

  /** The sheet's schema, catalog map and skipped columns from its layout (null: the catalog's own). */
  private place(opened: OpenSheet, table: TableSchema, layout: TableLayout | null): void {
    opened.schema = layout ? layoutSchema(table, layout) : table;
    opened.map = layout ? columnMap(table, layout) : null;
    opened.skipped = opened.schema.columns.map((c) => c.skip !== undefined);
    opened.index = null;
  }

  /**
   * Brings an existing Orders or Line items sheet in line with the chosen columns: a newly chosen
   * column is added right of everything the sheet holds (header, note, widths, format, highlight);
   * one no longer chosen keeps its place, its values cleared (one range per run of adjacent columns)
   * and its header note saying since when it is no longer synced;
   * one chosen again is synced again. The sheet changes first, then the layout is saved with the
   * columns the fill pass (sync/column-fill.ts) must write for rows already there; a run cut short
   * in between finds its added headers and takes them back (planLayoutChange).
   */
  private followChoice(opened: OpenSheet, table: TableSchema, stored: TableLayout | null): void {
    const settings = this.requireColumns();
    const name = table.sheetName as ChoosableTable;
    const layout = stored ?? catalogLayout(table);
    let lastColumn: number | null = null;
    const sheetLast = (): number => (lastColumn ??= this.handle(opened).getLastColumn());
    const change = planLayoutChange(
      layout,
      chosenHeaders(table, settings.choice[name]),
      () => sheetLast() + 1,
      () => {
        const last = sheetLast();
        return last > 0 ? this.handle(opened).getRange(1, 1, 1, last).getValues()[0] : [];
      },
    );
    if (!change) return;
    const today = Utilities.formatDate(new Date(), this.timeZone, 'yyyy-MM-dd');
    this.applyLayoutChange(opened, table, change, today);
    const layoutNow = change.clear.length > 0 ? withClearedOn(change.layout, change.clear, today) : change.layout;
    settings.saveLayout(name, layoutNow, [...change.add.map((a) => a.header), ...change.revive], false);
    this.place(opened, table, layoutNow);
  }

  private applyLayoutChange(opened: OpenSheet, table: TableSchema, change: LayoutChange, today: string): void {
    const sheet = this.handle(opened);
    const byHeader = new Map(table.columns.map((c) => [c.header, c]));
    const after = layoutSchema(table, change.layout);
    const columnOf = (header: string): number => change.layout.columns.indexOf(header) + 1;
    if (change.add.length > 0) {
      const sheetId = sheet.getSheetId();
      const maxColumns = sheet.getMaxColumns();
      const maxRows = sheet.getMaxRows();
      const widest = Math.max(...change.add.map((a) => a.column));
      const requests: GoogleAppsScript.Sheets.Schema.Request[] = [];
      if (widest > maxColumns) {
        const used = this.cellsUsed();
        const more = (widest - maxColumns) * maxRows;
        if (used + more > SPREADSHEET_CELL_LIMIT) throw new CellLimitError(used, more);
        requests.push({ appendDimension: { sheetId, dimension: 'COLUMNS', length: widest - maxColumns } });
      }
      for (const { header, column } of change.add) {
        const spec = byHeader.get(header)!;
        requests.push({
          updateDimensionProperties: {
            range: { sheetId, dimension: 'COLUMNS', startIndex: column - 1, endIndex: column },
            properties: { pixelSize: columnWidthPx(spec) },
            fields: 'pixelSize',
          },
        });
      }
      if (maxRows > 1)
        requests.push(
          ...formatRequests(after, this.currency, sheetId, 1, maxRows, new Set(change.add.map((a) => a.header))),
        );
      requests.push(...highlightRequests(sheetId, after, new Set(change.add.map((a) => a.header))));
      const id = this.id();
      sheetsRequest('write', () => sheetsService().batchUpdate({ requests }, id));
      this.usedCells = null;
      this.gridChanged = true;
      opened.maxColumns = null;
      for (const run of adjacentRuns(change.add.map((a) => a.column))) {
        const specs = run.map((column) => byHeader.get(change.layout.columns[column - 1]!)!);
        const header = sheet.getRange(1, run[0], 1, run.length);
        header.setNotes([specs.map((c) => c.note ?? '')]);
        header.setFontWeight('bold');
        header.setValues([specs.map((c) => c.header)]);
      }
    }
    if (change.clear.length > 0) {
      // A retired column's old figures would sit beside its row's current ones (issue 21): cleared,
      // formats and notes kept (Range.clearContent). The cells stay part of the grid.
      const rows = sheet.getMaxRows() - 1;
      if (rows > 0)
        for (const run of adjacentRuns(change.clear.map(columnOf)))
          sheet.getRange(2, run[0], rows, run.length).clearContent();
      for (const header of change.clear) sheet.getRange(1, columnOf(header)).setNote(retiredNote(today));
    }
    for (const header of change.revive) sheet.getRange(1, columnOf(header)).setNote(byHeader.get(header)?.note ?? '');
    noteSpreadsheetChange();
  }

  /** Columns (1-based) of a table's sheet as it is or will be set up: what the capacity estimate counts per row. */
  widthOf(table: TableSchema): number {
    const open = this.open.get(table.sheetName);
    if (open) return open.schema.columns.length;
    let located = null;
    try {
      located = locateSheet(this.snapshot(), table, () => this.taggedSheets());
    } catch {
      located = null;
    }
    return this.layoutFor(table, located !== null).schema.columns.length;
  }

  /**
   * A sheet the add-on keeps for itself (the Sync log) written by an older version with other
   * columns: renamed "Sync log (until YYYY-MM-DD)" and kept, so no row sits under the wrong
   * heading; a new one is set up. True when it was renamed.
   */
  private retiredOldLayout(name: string, schema: TableSchema): boolean {
    const header = this.readsFor(schema).header;
    if (header.every((v) => v === '' || v === null || v === undefined)) return false;
    if (findHeaderProblem(schema, header, name) === null) return false;
    const sheet = this.spreadsheet.getSheetByName(name);
    if (!sheet) return false;
    const day = Utilities.formatDate(new Date(), this.timeZone, 'yyyy-MM-dd');
    const titles = new Set(this.snapshot().map((s) => s.title));
    let title = `${schema.sheetName} (until ${day})`;
    for (let n = 2; titles.has(title); n++) title = `${schema.sheetName} (until ${day}, ${n})`;
    sheet.setName(title);
    return true;
  }

  /** The sheet itself, fetched by name the first time a call needs it. */
  private handle(opened: OpenSheet): GoogleAppsScript.Spreadsheet.Sheet {
    if (opened.sheet) return opened.sheet;
    const sheet = this.spreadsheet.getSheetByName(opened.name);
    if (!sheet)
      throw new Error(`The sheet "${opened.name}" was removed while the sync was running; the next run continues.`);
    opened.sheet = sheet;
    return sheet;
  }

  /** Last row with content as of opening (0 when the sheet is empty; recorded as at least 1). */
  private lastRowOf(opened: OpenSheet): number {
    if (opened.lastRow !== null) return opened.lastRow;
    const last = this.handle(opened).getLastRow();
    opened.lastRow = Math.max(last, 1);
    return last;
  }

  /** True when the sheet did not exist (or was empty) at the start of this run: the user deleted it, or it is new. */
  createdThisRun(schema: TableSchema): boolean {
    return this.sheetFor(schema).created;
  }

  /**
   * Formats and widths are set here, once, when the sheet is created (never per run): a user who
   * resizes a column or restyles the header keeps it.
   */
  private setUp(sheet: GoogleAppsScript.Spreadsheet.Sheet, schema: TableSchema): void {
    const width = schema.columns.length;
    this.usedCells = null;
    this.gridChanged = true;
    // Column count and widths in ONE call (setColumnWidths would take one call per width).
    const sheetId = sheet.getSheetId();
    const requests = [...setUpRequests(sheetId, schema, sheet.getMaxColumns()), ...highlightRequests(sheetId, schema)];
    const id = this.id();
    sheetsRequest('write', () => sheetsService().batchUpdate({ requests }, id));
    sheet.setFrozenRows(1);
    noteSpreadsheetChange();
    const header = sheet.getRange(1, 1, 1, width);
    const notes = schema.columns.map((c) => c.note ?? '');
    if (notes.some((n) => n !== '')) header.setNotes([notes]);
    const maxRows = sheet.getMaxRows();
    if (maxRows > 1) this.applyFormats(sheet, schema, 2, maxRows - 1);
    header.setFontWeight('bold');
    header.setValues([schema.columns.map((c) => c.header)]);
  }

  /**
   * A sheet an earlier version set up without the schema's newest columns (schema.addedColumns):
   * the grid grows by the missing columns where needed, and they get their widths, header, note,
   * number format and highlight, once. Rows already there are filled as the sync rewrites them.
   */
  private completeAddedColumns(opened: OpenSheet, schema: TableSchema, missing: number): void {
    const sheet = this.handle(opened);
    const width = schema.columns.length;
    const first = width - missing + 1;
    const columns = sheet.getMaxColumns();
    const sheetId = sheet.getSheetId();
    // Widths of the new columns only: the user's widths of the others stay.
    const widths = schema.columns.slice(first - 1).map((column, i) => ({
      updateDimensionProperties: {
        range: { sheetId, dimension: 'COLUMNS', startIndex: first - 1 + i, endIndex: first + i },
        properties: { pixelSize: columnWidthPx(column) },
        fields: 'pixelSize',
      },
    }));
    const grow =
      columns < width ? [{ appendDimension: { sheetId, dimension: 'COLUMNS', length: width - columns } }] : [];
    const id = this.id();
    sheetsRequest('write', () =>
      sheetsService().batchUpdate({ requests: [...grow, ...widths, ...highlightRequests(sheetId, schema)] }, id),
    );
    this.usedCells = null;
    this.gridChanged = true;
    noteSpreadsheetChange();
    opened.maxColumns = null;
    const added = schema.columns.slice(first - 1);
    const header = sheet.getRange(1, first, 1, missing);
    header.setNotes([added.map((c) => c.note ?? '')]);
    header.setFontWeight('bold');
    header.setValues([added.map((c) => c.header)]);
    const rows = sheet.getMaxRows() - 1;
    const formats = added.map((c) => numberFormatFor(c.kind, this.currency) ?? 'General');
    if (rows > 0 && formats.some((f) => f !== 'General'))
      sheet.getRange(2, first, rows, missing).setNumberFormats(Array.from({ length: rows }, () => formats));
  }

  private applyFormats(
    sheet: GoogleAppsScript.Spreadsheet.Sheet,
    schema: TableSchema,
    firstRow: number,
    count: number,
  ): void {
    const formats = schema.columns.map((c) => numberFormatFor(c.kind, this.currency) ?? 'General');
    if (formats.every((f) => f === 'General')) return;
    const block: string[][] = [];
    for (let i = 0; i < count; i++) block.push(formats);
    sheet.getRange(firstRow, 1, count, schema.columns.length).setNumberFormats(block);
  }

  private requireStore(): string {
    if (this.storeId === null)
      throw new Error('No store is bound: store data cannot be written before the account is read.');
    return this.storeId;
  }

  /** The key index of a table: from its index columns, read with every store table's in ONE call per run. */
  index(schema: TableSchema): KeyIndex {
    const opened = this.sheetFor(schema);
    if (opened.index) return opened.index;
    // New rows go below the sheet's last row with ANY content (a user's rows too): asked only when a row is added.
    const lastRow = opened.created ? null : () => this.lastRowOf(opened);
    opened.index = new KeyIndex(
      opened.keys,
      this.timeZone,
      { keyIsDate: schema.columns[0].kind === 'date', keyPrefix: schema.keyPrefix, keyPattern: schema.keyPattern },
      2,
      lastRow,
    );
    return opened.index;
  }

  /**
   * Fills in the index cells the run's start read left out (schema.keyReadColumns: the other index
   * columns and the change columns), for every table asked, in ONE Values.batchGet: for named keys,
   * one range per run of adjacent rows and of columns (what a page touches, never the sheet); without
   * keys, the whole columns (a pass over all orders: reconciliation, restatements). Rows written in
   * this run already hold their cells and are not read; nothing to read, no call.
   */
  completeIndex(...tables: ReadonlyArray<{ schema: TableSchema; keys?: Iterable<string> }>): void {
    const plans = tables.map(({ schema, keys }) => this.planCompletion(schema, keys)).filter((p) => p !== null);
    const got = this.readRanges(plans.flatMap((p) => p.ranges));
    let at = 0;
    for (const plan of plans) {
      plan.apply(got.slice(at, at + plan.ranges.length));
      at += plan.ranges.length;
    }
  }

  private planCompletion(
    schema: TableSchema,
    keys: Iterable<string> | undefined,
  ): { ranges: string[]; apply: (got: unknown[][][]) => void } | null {
    const opened = this.sheetFor(schema);
    const first = opened.schema.keyReadColumns;
    if (first === undefined || opened.created) return null;
    const index = this.index(schema);
    const width = indexWidth(opened.schema);
    const partial = new Set<IndexedRow>();
    if (keys) {
      for (const key of keys) {
        const entry = index.get(key);
        if (entry && entry.cells.length < width) partial.add(entry);
      }
    } else for (const [, entry] of index.entries()) if (entry.cells.length < width) partial.add(entry);
    if (partial.size === 0) return null;
    const span = changeSpan(opened.schema);
    const columns: number[] = [];
    for (let c = first + 1; c <= opened.schema.indexColumns; c++) columns.push(c);
    if (span) for (let c = span.start + 1; c <= span.end; c++) columns.push(c);
    const columnRuns = adjacentRuns(columns);
    const rowRuns = keys ? adjacentRuns([...partial].map((e) => e.row)) : [[2, Math.max(2, opened.maxRows)]];
    const ranges: string[] = [];
    for (const rows of rowRuns)
      for (const run of columnRuns)
        ranges.push(a1Range(opened.name, rows[0], run[0], rows[rows.length - 1], run[run.length - 1]));
    const apply = (got: unknown[][][]): void => {
      const byRow = new Map<number, CellValue[]>();
      rowRuns.forEach((rows, r) => {
        for (let row = rows[0]; row <= rows[rows.length - 1]; row++) {
          const cells: CellValue[] = [];
          columnRuns.forEach((run, c) => {
            const values = got[r * columnRuns.length + c][row - rows[0]] ?? [];
            for (let k = 0; k < run.length; k++) cells.push(cellOf(values[k]));
          });
          byRow.set(row, cells);
        }
      });
      for (const entry of partial) {
        const keyCells = entry.cells.slice(0, first);
        while (keyCells.length < first) keyCells.push('');
        entry.cells = keyCells.concat(byRow.get(entry.row) ?? columns.map(() => ''));
      }
    };
    return { ranges, apply };
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

  /**
   * Grid cells the set-up of these tables has still to add: a table with no sheet yet gets a new
   * sheet of Google's 1,000 rows by its columns. The backfill check counts them with the cells in use
   * (a first backfill creates Line items, Daily P&L, … after its first orders page).
   */
  setUpCellsToCome(tables: readonly TableSchema[]): number {
    let cells = 0;
    for (const table of tables) {
      if (this.open.has(table.sheetName)) continue;
      let located = null;
      try {
        located = locateSheet(this.snapshot(), table, () => this.taggedSheets());
      } catch {
        located = null;
      }
      if (!located) cells += NEW_SHEET_ROWS * this.layoutFor(table, false).schema.columns.length;
    }
    return cells;
  }

  /** Makes sure the sheet exists (for tables written without an index, e.g. the Sync log). */
  ensure(schema: TableSchema): GoogleAppsScript.Spreadsheet.Sheet {
    return this.handle(this.sheetFor(schema));
  }

  /** Last row with content as of opening the sheet in this run (1 when it holds only the header). */
  lastRowAtOpen(schema: TableSchema): number {
    const opened = this.sheetFor(schema);
    this.lastRowOf(opened);
    return opened.lastRow ?? 1;
  }

  /** Every sheet's title, grid and tags as read at the run's start (one call per run). */
  sheetInfos(): readonly SheetInfo[] {
    return this.snapshot();
  }

  /**
   * The managed columns of a table from row 2 down to its last row with content, in ONE
   * Values.get (unformatted; dates as serial numbers). Empty when the sheet does not exist yet.
   */
  readTable(schema: TableSchema): unknown[][] {
    const located = locateSheet(this.snapshot(), schema, () => this.taggedSheets());
    if (!located && !this.open.has(schema.sheetName)) return [];
    const opened = this.sheetFor(schema);
    if (opened.rows)
      return this.withDeferred(
        schema,
        opened.rows.map((r) => (r ? r.slice() : [])),
      );
    // The whole grid: the API leaves out trailing empty rows, and rows written in this run are in it.
    if (opened.maxRows < 2) return [];
    const id = this.id();
    const range = a1Range(opened.name, 2, 1, opened.maxRows, opened.schema.columns.length);
    const got = sheetsRequest('read', () =>
      valuesService().get(id, range, { valueRenderOption: 'UNFORMATTED_VALUE', dateTimeRenderOption: 'SERIAL_NUMBER' }),
    );
    const rows = (got.values ?? []) as unknown[][];
    // Callers read by the catalog's columns, whatever the sheet's layout.
    const map = opened.map;
    return map ? rows.map((row) => toCatalogRow(map, row)) : rows;
  }

  /** Whether the table's sheet exists (found by its tag or name, or opened in this run). */
  hasSheet(table: TableSchema): boolean {
    return this.open.has(table.sheetName) || locateSheet(this.snapshot(), table, () => this.taggedSheets()) !== null;
  }

  /** Whether the table's sheet holds a column (a column choice may leave one out); a sheet not set up yet holds every one. */
  holdsColumn(table: TableSchema, header: string): boolean {
    const located = locateSheet(this.snapshot(), table, () => this.taggedSheets());
    if (!located && !this.open.has(table.sheetName)) return true;
    const opened = this.sheetFor(table);
    return opened.map ? opened.map[columnIndex(table, header)] > 0 : true;
  }

  /** Whole rows as they stand once this run's deferred writes of the table are sent (the Monthly P&L rebuilt before the tie-out). */
  private withDeferred(schema: TableSchema, rows: unknown[][]): unknown[][] {
    for (const t of this.deferred) {
      if (t.schema.sheetName !== schema.sheetName) continue;
      for (const w of t.rows) if (w.column === 1) rows[w.row - 2] = w.cells.slice();
    }
    for (let i = 0; i < rows.length; i++) if (rows[i] === undefined) rows[i] = [];
    return rows;
  }

  /**
   * Only the named columns of a table, row 2 down, at their catalog positions (other cells empty),
   * in ONE Values.batchGet of the runs of adjacent columns: the tie-out needs 13 of Orders' 54.
   */
  readColumns(table: TableSchema, headers: readonly string[]): unknown[][] {
    const located = locateSheet(this.snapshot(), table, () => this.taggedSheets());
    if (!located && !this.open.has(table.sheetName)) return [];
    const opened = this.sheetFor(table);
    if (opened.maxRows < 2) return [];
    const { runs, catalogAt } = this.columnRuns(opened, table, headers);
    const got = this.readRanges(
      runs.map((run) => a1Range(opened.name, 2, run[0], opened.maxRows, run[run.length - 1])),
    );
    const count = got.reduce((n, values) => Math.max(n, values.length), 0);
    const rows: unknown[][] = [];
    for (let r = 0; r < count; r++) rows.push(catalogRow(table, runs, catalogAt, (i) => got[i][r] ?? []));
    return rows;
  }

  /**
   * The named columns of some rows of a table (1-based sheet rows), at their catalog positions, in
   * ONE Values.batchGet of one range per row and run of adjacent columns: a few rows, never the sheet.
   */
  readRows(table: TableSchema, sheetRows: readonly number[], headers: readonly string[]): unknown[][] {
    if (sheetRows.length === 0) return [];
    const opened = this.sheetFor(table);
    const { runs, catalogAt } = this.columnRuns(opened, table, headers);
    const got = this.readRanges(
      sheetRows.flatMap((row) => runs.map((run) => a1Range(opened.name, row, run[0], row, run[run.length - 1]))),
    );
    return sheetRows.map((_, r) => catalogRow(table, runs, catalogAt, (i) => got[r * runs.length + i][0] ?? []));
  }

  /** The sheet columns of the named catalog columns, grouped into runs of adjacent ones. */
  private columnRuns(
    opened: OpenSheet,
    table: TableSchema,
    headers: readonly string[],
  ): { runs: number[][]; catalogAt: Map<number, number> } {
    const catalogAt = new Map<number, number>();
    for (const header of headers) {
      const position = columnIndex(table, header);
      const column = opened.map ? opened.map[position] : position + 1;
      if (column > 0) catalogAt.set(column, position);
    }
    return { runs: adjacentRuns([...catalogAt.keys()]), catalogAt };
  }

  /**
   * Writes sent with the next write() (in the same Values.batchUpdate): derived sheets written at
   * the end of a run ride along with the Sync log's closing row instead of a call of their own.
   */
  defer(tables: readonly TableWrite[]): void {
    for (const t of tables) {
      if (t.rows.length === 0) continue;
      this.sheetFor(t.schema);
      this.deferred.push(t);
    }
  }

  /** Values of A1 ranges (quoted sheet names), unformatted, in ONE Values.batchGet. */
  readRanges(ranges: readonly string[]): unknown[][][] {
    if (ranges.length === 0) return [];
    const id = this.id();
    const got = sheetsRequest('read', () =>
      valuesService().batchGet(id, {
        ranges: ranges.slice(),
        valueRenderOption: 'UNFORMATTED_VALUE',
        dateTimeRenderOption: 'SERIAL_NUMBER',
      }),
    );
    return ranges.map((_, i) => (got.valueRanges?.[i]?.values ?? []) as unknown[][]);
  }

  /** `callback` runs once, before this run's first row write to one of `tables` is sent (runner.ts: formulas owed until re-entered). */
  beforeFirstWrite(tables: readonly TableSchema[], callback: () => void): void {
    this.firstWrite = { sheets: new Set(tables.map((t) => t.sheetName)), callback };
  }

  /** `watcher` sees every later write of the table's rows before it is sent (it may read the rows first). */
  watchWrites(schema: TableSchema, watcher: (rows: readonly RowWrite[]) => void): void {
    this.watchers.set(schema.sheetName, watcher);
  }

  /** Every row write of a page (or of several: orders-job.ts), all applied before it returns: grid growth where needed, then one batchUpdate. */
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
    for (const t of all) if (t.rows.length > 0) this.watchers.get(t.schema.sheetName)?.(t.rows);
    for (const t of all) {
      if (t.rows.length === 0) continue;
      const opened = this.sheetFor(t.schema);
      // Rows come in the catalog's column order: placed at the sheet's own columns.
      const rows = opened.map ? toSheetWrites(opened.map, opened.schema.columns.length, t.rows) : t.rows;
      this.growTo(t.schema, lastRowOf(rows));
      if (opened.rows) for (const w of rows) if (w.column === 1) opened.rows[w.row - 2] = w.cells.slice();
      data.push(...mergeRowWrites(opened.name, withoutSkipped(opened.skipped, rows)));
      if (this.currency !== null && t.schema.storeData) {
        const foreign = foreignCurrencyFormats(0, opened.schema, rows, this.currency);
        if (foreign.length > 0) {
          const sheetId = this.handle(opened).getSheetId();
          for (const r of foreign) r.repeatCell!.range!.sheetId = sheetId;
          formats.push(...foreign);
        }
      }
    }
    if (data.length === 0) return 0;
    const cells = data.reduce((n, d) => n + d.values.length * (d.values[0]?.length ?? 0), 0);
    const id = this.id();
    // Pending SpreadsheetApp changes (the grid's growth) are flushed first (sheets-requests.ts).
    sheetsRequest('write', () => valuesService().batchUpdate({ valueInputOption: 'RAW', data }, id));
    this.cellsWritten += cells;
    // Rows in another currency than the store's (rare): their amount cells' format, in one more request.
    if (formats.length > 0) sheetsRequest('write', () => sheetsService().batchUpdate({ requests: formats }, id));
    return cells;
  }

  /**
   * Grows the grid and formats the new rows with SpreadsheetApp: no Sheets API write request (60 a
   * minute, developers.google.com/workspace/sheets/api/limits), and the growth is applied with the
   * write that needs it (sheetsRequest flushes pending SpreadsheetApp changes before a request; the
   * runtime models that a write past a pending growth fails). The insert and the formats are queued
   * with no SpreadsheetApp read of the sheet between them (dev/gas-runtime write-buffer.ts), so they
   * are applied together: an execution ended before the flush loses both, and the next run grows
   * the grid again.
   */
  private growTo(schema: TableSchema, lastRow: number): void {
    const opened = this.sheetFor(schema);
    if (lastRow <= opened.maxRows) return;
    const sheet = this.handle(opened);
    const columns = (opened.maxColumns ??= sheet.getMaxColumns());
    const used = this.cellsUsed();
    const needed = lastRow - opened.maxRows;
    if (used + needed * columns > SPREADSHEET_CELL_LIMIT) throw new CellLimitError(used, needed * columns);
    const add = Math.min(Math.max(needed, GROW_ROWS), Math.floor((SPREADSHEET_CELL_LIMIT - used) / columns));
    // The new rows' ranges are offsets of one taken before the insert: a getRange after it could
    // apply the pending insert alone (a SpreadsheetApp read of a sheet applies its pending writes).
    const lastCell = sheet.getRange(opened.maxRows, 1);
    sheet.insertRowsAfter(opened.maxRows, add);
    for (const run of formatRuns(opened.schema, this.currency)) {
      lastCell
        .offset(1, run.column - 1, add, run.patterns.length)
        .setNumberFormats(Array.from({ length: add }, () => run.patterns));
    }
    noteSpreadsheetChange();
    this.grown.add(schema.sheetName);
    opened.maxRows += add;
    this.usedCells = used + add * columns;
  }

  /** Grid cells of every sheet in the spreadsheet (what counts toward the 10 M limit); read once per run. */
  cellsUsed(): number {
    if (this.usedCells === null) {
      const sheets = this.gridChanged ? null : this.snapshot();
      this.usedCells = sheets ? sheets.reduce((n, s) => n + s.rows * s.columns, 0) : readGridCells(this.id());
    }
    return this.usedCells;
  }

  id(): string {
    if (this.spreadsheetId === null) this.spreadsheetId = spreadsheetIdOf(this.spreadsheet);
    return this.spreadsheetId;
  }
}

function valuesService(): GoogleAppsScript.Sheets.Collection.Spreadsheets.ValuesCollection {
  return sheetsService().Values as GoogleAppsScript.Sheets.Collection.Spreadsheets.ValuesCollection;
}

/** The Sheets API number-format type of a pattern's column kind (the API needs one with the pattern). */
const FORMAT_TYPES: Partial<Record<string, string>> = {
  amount: 'NUMBER',
  pct: 'NUMBER',
  int: 'NUMBER',
  timestamp: 'DATE_TIME',
  date: 'DATE',
  text: 'TEXT',
};

/** repeatCell requests giving rows [startRow, endRow) (0-based) each managed column's number format. */
function formatRequests(
  schema: TableSchema,
  currency: string | null,
  sheetId: number,
  startRow: number,
  endRow: number,
  only?: ReadonlySet<string>,
): GoogleAppsScript.Sheets.Schema.Request[] {
  const requests: GoogleAppsScript.Sheets.Schema.Request[] = [];
  schema.columns.forEach((column, i) => {
    // A retired or user's column keeps the format it has.
    if (column.skip || (only && !only.has(column.header))) return;
    const pattern = numberFormatFor(column.kind, currency);
    if (pattern === null) return;
    requests.push({
      repeatCell: {
        range: { sheetId, startRowIndex: startRow, endRowIndex: endRow, startColumnIndex: i, endColumnIndex: i + 1 },
        cell: { userEnteredFormat: { numberFormat: { type: FORMAT_TYPES[column.kind] ?? 'NUMBER', pattern } } },
        fields: 'userEnteredFormat.numberFormat',
      },
    });
  });
  return requests;
}

/**
 * The number formats of new rows, one block per run of adjacent managed columns (a retired or
 * user's column keeps its format): as the set-up formats its first rows, 'General' where a column
 * has none.
 */
function formatRuns(schema: TableSchema, currency: string | null): Array<{ column: number; patterns: string[] }> {
  const runs: Array<{ column: number; patterns: string[] }> = [];
  schema.columns.forEach((column, i) => {
    if (column.skip) return;
    const pattern = numberFormatFor(column.kind, currency) ?? 'General';
    const last = runs[runs.length - 1];
    if (last && last.column + last.patterns.length === i + 1) last.patterns.push(pattern);
    else runs.push({ column: i + 1, patterns: [pattern] });
  });
  return runs.filter((run) => run.patterns.some((p) => p !== 'General'));
}

/** One row at catalog positions (other cells empty) from the values read for each run. */
function catalogRow(
  table: TableSchema,
  runs: readonly number[][],
  catalogAt: ReadonlyMap<number, number>,
  valuesOf: (run: number) => readonly unknown[],
): unknown[] {
  const row: unknown[] = new Array<unknown>(table.columns.length).fill('');
  runs.forEach((run, i) => {
    const values = valuesOf(i);
    run.forEach((column, k) => {
      row[catalogAt.get(column)!] = values[k] ?? '';
    });
  });
  return row;
}

/** Cells the key index keeps of a row: its index columns, then its change columns (change-check.ts). */
function indexWidth(schema: TableSchema): number {
  const span = changeSpan(schema);
  return schema.indexColumns + (span ? span.end - span.start : 0);
}

/** A value as read UNFORMATTED (the API leaves out trailing empty cells). */
function cellOf(value: unknown): CellValue {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return value === null || value === undefined ? '' : String(value);
}

/** 1-based columns grouped into runs of adjacent ones (sorted). */
function adjacentRuns(columns: readonly number[]): number[][] {
  const sorted = [...columns].sort((a, b) => a - b);
  const runs: number[][] = [];
  for (const column of sorted) {
    const run = runs[runs.length - 1];
    if (run && run[run.length - 1] + 1 === column) run.push(column);
    else runs.push([column]);
  }
  return runs;
}
