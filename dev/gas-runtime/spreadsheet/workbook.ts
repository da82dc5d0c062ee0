/** The host-side spreadsheet: sheets, developer metadata and the workbook-wide limits. */
import { shiftChartRanges } from './charts';
import { randomBytes } from 'node:crypto';
import { assertTimeZone } from './dates';
import { checkMetadataLimit } from './metadata-limit';
import { SheetModel, type RowData, type SheetProperties } from './sheet-model';

export const WORKBOOK_CELL_LIMIT = 10_000_000;
export const CELL_LIMIT_EXCEEDED = `This action would increase the number of cells in the workbook above the limit of ${WORKBOOK_CELL_LIMIT} cells.`;

export type MetadataVisibility = 'DOCUMENT' | 'PROJECT';
export type MetadataLocation =
  | { type: 'SPREADSHEET' }
  | { type: 'SHEET'; sheetId: number }
  | { type: 'ROW' | 'COLUMN'; sheetId: number; start: number; end: number };

export interface DeveloperMetadataRecord {
  id: number;
  key: string;
  value: string | null;
  visibility: MetadataVisibility;
  location: MetadataLocation;
}

export interface WorkbookOptions {
  timeZone: string;
  id?: string;
  name?: string;
  locale?: string;
  /** Name of the sheet a new spreadsheet starts with (default "Sheet1"). */
  firstSheetName?: string;
}

export interface WorkbookState {
  id: string;
  name: string;
  timeZone: string;
  locale: string;
  nextSheetId: number;
  nextMetadataId: number;
  sheets: Array<SheetProperties & { rows: Array<RowData | null> }>;
  developerMetadata: DeveloperMetadataRecord[];
}

export class Workbook {
  readonly id: string;
  name: string;
  timeZone: string;
  locale: string;
  sheets: SheetModel[] = [];
  developerMetadata: DeveloperMetadataRecord[] = [];
  private nextSheetId = 0;
  private nextMetadataId = 1;

  constructor(options: WorkbookOptions) {
    assertTimeZone(options.timeZone);
    this.id = options.id ?? randomBytes(22).toString('base64url');
    this.name = options.name ?? 'Untitled spreadsheet';
    this.timeZone = options.timeZone;
    this.locale = options.locale ?? 'en_US';
    if (options.firstSheetName !== '') this.insertSheet(options.firstSheetName ?? 'Sheet1');
  }

  get url(): string {
    return `https://docs.google.com/spreadsheets/d/${this.id}/edit`;
  }

  sheetByName(name: string): SheetModel | undefined {
    return this.sheets.find((s) => s.name === name);
  }

  sheetById(sheetId: number): SheetModel | undefined {
    return this.sheets.find((s) => s.sheetId === sheetId);
  }

  /** Sum of max rows × max columns over all sheets: what the 10,000,000-cell limit counts. */
  totalCells(): number {
    return this.sheets.reduce((sum, s) => sum + s.maxRows * s.maxColumns, 0);
  }

  assertCanAddCells(extraCells: number): void {
    if (this.totalCells() + extraCells > WORKBOOK_CELL_LIMIT) throw new Error(CELL_LIMIT_EXCEEDED);
  }

  private defaultSheetName(): string {
    let n = this.sheets.length + 1;
    while (this.sheetByName(`Sheet${n}`)) n++;
    return `Sheet${n}`;
  }

  insertSheet(name?: string, index?: number, grid?: { rows?: number; columns?: number; sheetId?: number }): SheetModel {
    const sheetName = name ?? this.defaultSheetName();
    if (sheetName.trim() === '') throw new Error('Invalid argument: sheetName');
    if (this.sheetByName(sheetName)) {
      throw new Error(`A sheet with the name "${sheetName}" already exists. Please enter another name.`);
    }
    const rows = grid?.rows ?? 1000;
    const columns = grid?.columns ?? 26;
    this.assertCanAddCells(rows * columns);
    const id = grid?.sheetId ?? (this.nextSheetId === 0 ? 0 : this.newSheetId());
    this.nextSheetId = Math.max(this.nextSheetId, 1);
    const sheet = new SheetModel(id, sheetName);
    sheet.maxRows = rows;
    sheet.maxColumns = columns;
    const at = index === undefined ? this.sheets.length : Math.max(0, Math.min(index, this.sheets.length));
    this.sheets.splice(at, 0, sheet);
    return sheet;
  }

  private newSheetId(): number {
    // Sheets ids are large and not sequential; deterministic here so saved states compare.
    let id = 100_000_000 + this.nextSheetId * 7_919;
    this.nextSheetId++;
    // An id a Sheets API addSheet chose (sheetId) is not handed out again.
    while (this.sheetById(id)) id = 100_000_000 + this.nextSheetId++ * 7_919;
    return id;
  }

  deleteSheet(sheetId: number): void {
    const at = this.sheets.findIndex((s) => s.sheetId === sheetId);
    if (at < 0) throw new Error('Sheet not found');
    if (this.sheets.length === 1) throw new Error("You can't remove all the sheets in a document.");
    this.sheets.splice(at, 1);
    this.developerMetadata = this.developerMetadata.filter(
      (m) => !('sheetId' in m.location) || m.location.sheetId !== sheetId,
    );
  }

  renameSheet(sheet: SheetModel, name: string): void {
    if (name.trim() === '') throw new Error('Invalid argument: name');
    const other = this.sheetByName(name);
    if (other && other !== sheet)
      throw new Error(`A sheet with the name "${name}" already exists. Please enter another name.`);
    sheet.name = name;
  }

  /** Grows a sheet's grid (insertRowsAfter, appendDimension, API writes past the end). */
  growSheet(sheet: SheetModel, addRows: number, addColumns: number): void {
    const extra = addRows * (sheet.maxColumns + addColumns) + addColumns * sheet.maxRows;
    this.assertCanAddCells(extra);
    sheet.maxRows += addRows;
    sheet.maxColumns += addColumns;
  }

  addDeveloperMetadata(
    key: string,
    value: string | null,
    visibility: MetadataVisibility,
    location: MetadataLocation,
  ): DeveloperMetadataRecord {
    if (typeof key !== 'string' || key === '') throw new Error('Invalid argument: key');
    checkMetadataLimit(this.developerMetadata, { key, value, location });
    const record: DeveloperMetadataRecord = { id: this.nextMetadataId++, key, value, visibility, location };
    this.developerMetadata.push(record);
    return record;
  }

  removeDeveloperMetadata(id: number): void {
    this.developerMetadata = this.developerMetadata.filter((m) => m.id !== id);
  }

  /** Row/column metadata moves with inserted rows and columns, as in Sheets. */
  /**
   * Rows `first`…`last` of a sheet were deleted: row metadata anchored only there goes with them,
   * later rows' metadata moves up. Charts and conditional formats over those rows are not modelled
   * (refused before anything changed, by Sheet.deleteRows).
   */
  dropRowMetadata(sheetId: number, first: number, last: number): void {
    const count = last - first + 1;
    this.developerMetadata = this.developerMetadata.filter((m) => {
      const loc = m.location;
      if (loc.type !== 'ROW' || loc.sheetId !== sheetId) return true;
      if (loc.start >= first && loc.end <= last) return false;
      const cut = (n: number): number => (n > last ? n - count : n >= first ? first - 1 : n);
      loc.end = cut(loc.end);
      loc.start = loc.start > last ? loc.start - count : Math.min(loc.start, loc.end);
      return true;
    });
  }

  shiftMetadata(sheetId: number, type: 'ROW' | 'COLUMN', after: number, count: number): void {
    shiftChartRanges(this.sheets, sheetId, type, after, count);
    for (const m of this.developerMetadata) {
      const loc = m.location;
      if (loc.type !== type || loc.sheetId !== sheetId) continue;
      if (loc.start > after) loc.start += count;
      if (loc.end > after) loc.end += count;
    }
  }

  toJSON(): WorkbookState {
    return {
      id: this.id,
      name: this.name,
      timeZone: this.timeZone,
      locale: this.locale,
      nextSheetId: this.nextSheetId,
      nextMetadataId: this.nextMetadataId,
      sheets: this.sheets.map((s) => ({ ...s.properties(), rows: Array.from(s.rows, (r) => r ?? null) })),
      developerMetadata: this.developerMetadata.map((m) => ({ ...m, location: { ...m.location } })),
    };
  }

  static fromJSON(state: WorkbookState): Workbook {
    if (!state || typeof state !== 'object' || !Array.isArray(state.sheets)) {
      throw new Error('Invalid workbook state: expected {id, timeZone, sheets: [...]}');
    }
    const wb = new Workbook({
      timeZone: state.timeZone,
      id: state.id,
      name: state.name,
      locale: state.locale,
      firstSheetName: '',
    });
    wb.nextSheetId = state.nextSheetId;
    wb.nextMetadataId = state.nextMetadataId;
    wb.developerMetadata = state.developerMetadata ?? [];
    for (const saved of state.sheets) {
      const sheet = new SheetModel(saved.sheetId, saved.name);
      Object.assign(sheet, {
        maxRows: saved.maxRows,
        maxColumns: saved.maxColumns,
        frozenRows: saved.frozenRows,
        frozenColumns: saved.frozenColumns,
        hidden: saved.hidden,
        columnWidths: saved.columnWidths ?? {},
        protection: saved.protection ?? null,
        charts: saved.charts ?? [],
        conditionalFormats: saved.conditionalFormats ?? [],
      });
      sheet.rows = saved.rows.map((r) => (r ? reviveRow(r) : undefined));
      wb.sheets.push(sheet);
    }
    return wb;
  }
}

/** JSON turns array holes and undefined into null; cells use undefined for "empty". */
function reviveRow(row: RowData): RowData {
  const revive = <T>(cells: Array<T | null | undefined> | undefined): Array<T | undefined> | undefined =>
    cells?.map((c) => (c === null ? undefined : c));
  const out: RowData = { v: revive(row.v) ?? [] };
  if (row.f) out.f = revive(row.f);
  if (row.nf) out.nf = revive(row.nf);
  if (row.note) out.note = revive(row.note);
  if (row.style) out.style = revive(row.style);
  return out;
}
