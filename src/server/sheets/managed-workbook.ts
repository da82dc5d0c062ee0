/**
 * The Apps Script edge of the sheets: opens (or creates) the managed sheets, reads each key
 * index once per run, and writes every row write of a page in ONE Values.batchUpdate (RAW),
 * growing the grid first when needed. Only managed columns are written; rows never move.
 */
import { KeyIndex } from './key-index';
import { setUpRequests } from './layout';
import { lastRowOf, mergeRowWrites, type RangeWrite, type RowWrite } from './row-writes';
import { numberFormatFor } from './rows';
import type { SheetName, TableSchema } from './schema';
import { checkHeaderRow, claimSheet, locateSheet, taggedSheets, tagNewSheet } from './sheet-tags';

export { SheetLayoutError, SheetOwnershipError, STORE_METADATA_KEY } from './sheet-tags';

/** Rows added at a time when a sheet's grid is full: fewer insert calls, little unused grid. */
const GROW_ROWS = 1000;

/** A spreadsheet holds at most 10 million cells. */
export const SPREADSHEET_CELL_LIMIT = 10_000_000;

/** Cells the spreadsheet holds toward the limit: every sheet's grid counts, filled or not (two calls per sheet). */
export function spreadsheetGridCells(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): number {
  return spreadsheet.getSheets().reduce((n, sheet) => n + sheet.getMaxRows() * sheet.getMaxColumns(), 0);
}

export class CellLimitError extends Error {
  constructor(readonly usedCells: number, readonly neededCells: number) {
    super(
      `The spreadsheet would pass Google's limit of 10 million cells (${usedCells} used, ${neededCells} more needed). Nothing more was written. Sync a shorter period (set a "created after" date) or use a new spreadsheet.`,
    );
    this.name = 'CellLimitError';
  }
}

interface OpenSheet {
  schema: TableSchema;
  sheet: GoogleAppsScript.Spreadsheet.Sheet;
  maxRows: number;
  /** Read at the first grid growth of the run (the set-up leaves exactly the managed columns). */
  maxColumns: number | null;
  index: KeyIndex | null;
  /** Last row with content when the sheet was opened (1 = header only). */
  lastRow: number;
  /** Created (or set up from empty) in this run: whatever was synced into it before is gone. */
  created: boolean;
  /** The sheet's name now (the user may have renamed it: writes address it by this name). */
  name: string;
}

export interface TableWrite {
  schema: TableSchema;
  rows: RowWrite[];
}

export class ManagedWorkbook {
  readonly spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet;
  readonly timeZone: string;
  private readonly open = new Map<SheetName, OpenSheet>();
  private spreadsheetId: string | null = null;
  /** Sheets by table tag, searched once per run and only when a managed sheet is missing by name. */
  private tagged: Map<string, GoogleAppsScript.Spreadsheet.Sheet[]> | null = null;
  private usedCells: number | null = null;
  /** Cells sent by batchUpdate during this run. */
  cellsWritten = 0;

  private storeId: string | null = null;
  private currency: string | null = null;

  constructor() {
    this.spreadsheet = SpreadsheetApp.getActive();
    this.timeZone = this.spreadsheet.getSpreadsheetTimeZone();
  }

  /** Binds the store whose data this run writes (checked against each data sheet's tag). */
  bindStore(storeId: string, currency: string | null): void {
    this.storeId = storeId;
    this.currency = currency;
  }

  /**
   * The sheet for a schema, created with headers, formats, notes and the store tag if missing.
   * Set-up writes the header row last, so a set-up cut short by the time limit (no header yet)
   * is simply done again by the next run.
   */
  private sheetFor(schema: TableSchema): OpenSheet {
    const cached = this.open.get(schema.sheetName);
    if (cached) return cached;
    const existing = locateSheet(this.spreadsheet, schema, () => (this.tagged ??= taggedSheets(this.spreadsheet)));
    let sheet: GoogleAppsScript.Spreadsheet.Sheet;
    let lastRow = 0;
    if (existing) {
      sheet = existing.sheet;
      lastRow = sheet.getLastRow();
      if (schema.storeData) claimSheet(existing, schema, this.requireStore(), lastRow === 0);
      if (lastRow === 0) this.setUp(sheet, schema);
      else if (schema.storeData) checkHeaderRow(existing, schema);
    } else {
      sheet = this.spreadsheet.insertSheet(schema.sheetName);
      this.usedCells = null;
      if (schema.storeData) tagNewSheet(sheet, schema, this.requireStore());
      this.setUp(sheet, schema);
    }
    const name = existing ? existing.name : schema.sheetName;
    const opened: OpenSheet = { schema, sheet, maxRows: sheet.getMaxRows(), maxColumns: null, index: null, lastRow: Math.max(lastRow, 1), created: lastRow === 0, name };
    this.open.set(schema.sheetName, opened);
    return opened;
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
    // Column count and widths in ONE call (setColumnWidths would take one call per width).
    sheetsService().batchUpdate({ requests: setUpRequests(sheet.getSheetId(), schema, sheet.getMaxColumns()) }, this.id());
    sheet.setFrozenRows(1);
    const header = sheet.getRange(1, 1, 1, width);
    const notes = schema.columns.map((c) => c.note ?? '');
    if (notes.some((n) => n !== '')) header.setNotes([notes]);
    const maxRows = sheet.getMaxRows();
    if (maxRows > 1) this.applyFormats(sheet, schema, 2, maxRows - 1);
    header.setFontWeight('bold');
    header.setValues([schema.columns.map((c) => c.header)]);
  }

  private applyFormats(sheet: GoogleAppsScript.Spreadsheet.Sheet, schema: TableSchema, firstRow: number, count: number): void {
    const formats = schema.columns.map((c) => numberFormatFor(c.kind, this.currency) ?? 'General');
    if (formats.every((f) => f === 'General')) return;
    const block: string[][] = [];
    for (let i = 0; i < count; i++) block.push(formats);
    sheet.getRange(firstRow, 1, count, schema.columns.length).setNumberFormats(block);
  }

  private requireStore(): string {
    if (this.storeId === null) throw new Error('No store is bound: store data cannot be written before the account is read.');
    return this.storeId;
  }

  /** The key index of a table: its index columns read in ONE call the first time in a run. */
  index(schema: TableSchema): KeyIndex {
    const opened = this.sheetFor(schema);
    if (opened.index) return opened.index;
    const lastRow = opened.lastRow;
    const values: unknown[][] =
      lastRow > 1 && schema.indexColumns > 0 ? opened.sheet.getRange(2, 1, lastRow - 1, schema.indexColumns).getValues() : [];
    // Read through the sheet's last row with ANY content: new rows go below a user's rows too.
    opened.index = new KeyIndex(values, this.timeZone, { keyIsDate: schema.columns[0].kind === 'date', keyPrefix: schema.keyPrefix });
    return opened.index;
  }

  /** Makes sure the sheet exists (for tables written without an index, e.g. the Sync log). */
  ensure(schema: TableSchema): GoogleAppsScript.Spreadsheet.Sheet {
    return this.sheetFor(schema).sheet;
  }

  /** Last row with content as of opening the sheet in this run (1 when it holds only the header). */
  lastRowAtOpen(schema: TableSchema): number {
    return this.sheetFor(schema).lastRow;
  }

  /** Every row write of a page: grid growth where needed, then one batchUpdate. */
  write(tables: readonly TableWrite[]): number {
    const data: RangeWrite[] = [];
    for (const t of tables) {
      if (t.rows.length === 0) continue;
      this.growTo(t.schema, lastRowOf(t.rows));
      data.push(...mergeRowWrites(this.sheetFor(t.schema).name, t.rows));
    }
    if (data.length === 0) return 0;
    const cells = data.reduce((n, d) => n + d.values.length * (d.values[0]?.length ?? 0), 0);
    valuesService().batchUpdate({ valueInputOption: 'RAW', data }, this.id());
    this.cellsWritten += cells;
    return cells;
  }

  private growTo(schema: TableSchema, lastRow: number): void {
    const opened = this.sheetFor(schema);
    if (lastRow <= opened.maxRows) return;
    const columns = (opened.maxColumns ??= opened.sheet.getMaxColumns());
    const used = this.cellsUsed();
    const needed = lastRow - opened.maxRows;
    if (used + needed * columns > SPREADSHEET_CELL_LIMIT) throw new CellLimitError(used, needed * columns);
    const add = Math.min(Math.max(needed, GROW_ROWS), Math.floor((SPREADSHEET_CELL_LIMIT - used) / columns));
    opened.sheet.insertRowsAfter(opened.maxRows, add);
    this.applyFormats(opened.sheet, schema, opened.maxRows + 1, add);
    opened.maxRows += add;
    this.usedCells = used + add * columns;
  }

  /** Grid cells of every sheet in the spreadsheet (what counts toward the 10 M limit); read once per run. */
  cellsUsed(): number {
    if (this.usedCells === null) this.usedCells = spreadsheetGridCells(this.spreadsheet);
    return this.usedCells;
  }

  id(): string {
    if (this.spreadsheetId === null) this.spreadsheetId = this.spreadsheet.getId();
    return this.spreadsheetId;
  }
}

function sheetsService(): GoogleAppsScript.Sheets.Collection.SpreadsheetsCollection {
  if (typeof Sheets === 'undefined' || !Sheets || !Sheets.Spreadsheets || !Sheets.Spreadsheets.Values) {
    throw new Error('The Advanced Sheets service (Sheets v4) is not enabled for this script; the sync needs it to write rows in batches.');
  }
  return Sheets.Spreadsheets;
}

function valuesService(): GoogleAppsScript.Sheets.Collection.Spreadsheets.ValuesCollection {
  return sheetsService().Values as GoogleAppsScript.Sheets.Collection.Spreadsheets.ValuesCollection;
}
