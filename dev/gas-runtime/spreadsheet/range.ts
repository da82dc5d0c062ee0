/** SpreadsheetApp's Range over a rectangle of a host-side sheet. */
import { formatA1, type GridRect } from './a1';
import { serialToEpoch } from './dates';
import { DeveloperMetadata, DeveloperMetadataFinder, metadataInRange } from './developer-metadata';
import { userEnteredWrite, type CellWrite } from './input';
import { displayValue, isDateFormat } from './number-format';
import { describeType, liveSheet, refuseWrite, requireInteger, type SpreadsheetScope } from './scope';
import { Sheet } from './sheet';
import { createDataSourcePivotTable, type DataSourcePivotTable } from './data-source';
import type { CellStyle, SheetModel } from './sheet-model';

/** What getNumberFormat returns for a cell with the automatic format. */
export const AUTOMATIC_FORMAT = '0.###############';
const METADATA_ON_RANGE =
  'Adding developer metadata to arbitrary ranges is not currently supported. Developer metadata may only be added to the top-level spreadsheet, an individual sheet, or an entire row or column.';

type CellValueOut = string | number | boolean | Date;

export class Range {
  constructor(
    private readonly scope: SpreadsheetScope,
    private readonly model: SheetModel,
    private readonly rect: GridRect,
  ) {}

  private _live(): SheetModel {
    return liveSheet(this.scope, this.model);
  }

  /** Connected Sheets: an empty data source pivot table anchored at this range's first cell (data-source.ts). */
  createDataSourcePivotTable(dataSource: unknown): Promise<DataSourcePivotTable> {
    refuseWrite(this.scope, 'Range.createDataSourcePivotTable');
    return createDataSourcePivotTable(
      this.scope,
      this._live(),
      { row: this.rect.row, column: this.rect.column },
      dataSource,
    );
  }

  /** The host model of the range's sheet (the write buffer keys pending writes by it). */
  _model(): SheetModel {
    return this.model;
  }

  private _each<T>(read: (row: number, column: number) => T): T[][] {
    this._live();
    const out: T[][] = [];
    for (let r = 0; r < this.rect.numRows; r++) {
      const line: T[] = new Array<T>(this.rect.numColumns);
      for (let c = 0; c < this.rect.numColumns; c++) line[c] = read(this.rect.row + r, this.rect.column + c);
      out.push(line);
    }
    return out;
  }

  private _valueAt(row: number, column: number): CellValueOut {
    const m = this.model;
    if (m.formula(row, column) !== undefined) return '';
    const value = m.value(row, column);
    if (value === undefined) return '';
    if (typeof value === 'number' && isDateFormat(m.format(row, column))) {
      return new Date(serialToEpoch(value, this.scope.workbook.timeZone));
    }
    return value;
  }

  /** Validates the whole 2-D input before any cell changes (bad input loses nothing). */
  private _checkGrid<T>(data: unknown, method: string): T[][] {
    if (!Array.isArray(data) || !data.every((row) => Array.isArray(row))) {
      throw new Error(
        `The parameters (${describeType(data)}) don't match the method signature for SpreadsheetApp.Range.${method}.`,
      );
    }
    if (data.length !== this.rect.numRows) {
      throw new Error(
        `The number of rows in the data does not match the number of rows in the range. The data has ${data.length} but the range has ${this.rect.numRows}.`,
      );
    }
    for (const row of data as unknown[][]) {
      if (row.length !== this.rect.numColumns) {
        throw new Error(
          `The number of columns in the data does not match the number of columns in the range. The data has ${row.length} but the range has ${this.rect.numColumns}.`,
        );
      }
    }
    return data as T[][];
  }

  private _writeAll(writes: CellWrite[][]): void {
    const m = this._live();
    writes.forEach((line, r) => line.forEach((w, c) => m.write(this.rect.row + r, this.rect.column + c, w)));
  }

  /** setValues and setFormulas: every cell written as if the user had entered it. */
  private _writeUserEntered(method: string, grid: unknown[][]): Range {
    refuseWrite(this.scope, `Range.${method}`);
    const data = this._checkGrid<unknown>(grid, method);
    const tz = this.scope.workbook.timeZone;
    this._writeAll(data.map((row) => row.map((v) => userEnteredWrite(v, tz))));
    return this;
  }

  private _forEachCell(apply: (row: number, column: number) => void): void {
    this._live();
    for (let r = 0; r < this.rect.numRows; r++)
      for (let c = 0; c < this.rect.numColumns; c++) apply(this.rect.row + r, this.rect.column + c);
  }

  private _style(method: string, patch: CellStyle): Range {
    refuseWrite(this.scope, `Range.${method}`);
    this._forEachCell((r, c) => this.model.setStyle(r, c, patch));
    return this;
  }

  getValues(): CellValueOut[][] {
    return this._each((r, c) => this._valueAt(r, c));
  }

  getValue(): CellValueOut {
    this._live();
    return this._valueAt(this.rect.row, this.rect.column);
  }

  setValues(values: unknown[][]): Range {
    return this._writeUserEntered('setValues', values);
  }

  setValue(value: unknown): Range {
    refuseWrite(this.scope, 'Range.setValue');
    const write = userEnteredWrite(value, this.scope.workbook.timeZone);
    this._writeAll(this._each(() => write));
    return this;
  }

  getDisplayValues(): string[][] {
    return this._each((r, c) => displayValue(this.model.value(r, c), this.model.format(r, c)));
  }

  getDisplayValue(): string {
    return this.getDisplayValues()[0][0];
  }

  getFormulas(): string[][] {
    return this._each((r, c) => this.model.formula(r, c) ?? '');
  }

  getFormula(): string {
    return this.getFormulas()[0][0];
  }

  setFormulas(formulas: string[][]): Range {
    return this._writeUserEntered('setFormulas', formulas);
  }

  setFormula(formula: string): Range {
    refuseWrite(this.scope, 'Range.setFormula');
    return this.setValue(formula);
  }

  getNumberFormats(): string[][] {
    return this._each((r, c) => this.model.format(r, c) ?? AUTOMATIC_FORMAT);
  }

  getNumberFormat(): string {
    return this.getNumberFormats()[0][0];
  }

  setNumberFormat(format: string): Range {
    refuseWrite(this.scope, 'Range.setNumberFormat');
    this._forEachCell((r, c) => this.model.setFormat(r, c, String(format)));
    return this;
  }

  setNumberFormats(formats: string[][]): Range {
    refuseWrite(this.scope, 'Range.setNumberFormats');
    const data = this._checkGrid<string>(formats, 'setNumberFormats');
    this._forEachCell((r, c) => this.model.setFormat(r, c, String(data[r - this.rect.row][c - this.rect.column])));
    return this;
  }

  getNotes(): string[][] {
    return this._each((r, c) => this.model.note(r, c) ?? '');
  }

  getNote(): string {
    return this.getNotes()[0][0];
  }

  setNote(note: string | null): Range {
    refuseWrite(this.scope, 'Range.setNote');
    this._forEachCell((r, c) => this.model.setNote(r, c, note == null ? undefined : String(note)));
    return this;
  }

  setNotes(notes: Array<Array<string | null>>): Range {
    refuseWrite(this.scope, 'Range.setNotes');
    const data = this._checkGrid<string | null>(notes, 'setNotes');
    this._forEachCell((r, c) => {
      const note = data[r - this.rect.row][c - this.rect.column];
      this.model.setNote(r, c, note == null ? undefined : String(note));
    });
    return this;
  }

  setFontWeight(fontWeight: string | null): Range {
    return this._style('setFontWeight', { fontWeight: fontWeight ?? 'normal' });
  }

  setBackground(color: string | null): Range {
    return this._style('setBackground', { background: color ?? undefined });
  }

  setWrap(wrap: boolean): Range {
    return this._style('setWrap', { wrap: Boolean(wrap) });
  }

  setHorizontalAlignment(alignment: string | null): Range {
    return this._style('setHorizontalAlignment', { horizontalAlignment: alignment ?? 'general' });
  }

  clearContent(): Range {
    refuseWrite(this.scope, 'Range.clearContent');
    this._live().clear(this.rect, false);
    return this;
  }

  clear(options?: { contentsOnly?: boolean }): Range {
    refuseWrite(this.scope, 'Range.clear');
    this._live().clear(this.rect, !options?.contentsOnly);
    return this;
  }

  getRow(): number {
    return this.rect.row;
  }

  getColumn(): number {
    return this.rect.column;
  }

  getNumRows(): number {
    return this.rect.numRows;
  }

  getNumColumns(): number {
    return this.rect.numColumns;
  }

  getLastRow(): number {
    return this.rect.row + this.rect.numRows - 1;
  }

  getLastColumn(): number {
    return this.rect.column + this.rect.numColumns - 1;
  }

  /** Host-only: the rectangle a chart built over this range keeps (an EmbeddedChart's ChartRangeRef). */
  _chartRef(): { sheetId: number; row: number; column: number; numRows: number; numColumns: number } {
    return { sheetId: this._live().sheetId, ...this.rect };
  }

  getA1Notation(): string {
    return formatA1(this.rect);
  }

  getSheet(): Sheet {
    return new Sheet(this.scope, this._live());
  }

  getCell(row: number, column: number): Range {
    requireInteger(row, 'SpreadsheetApp.Range.getCell');
    requireInteger(column, 'SpreadsheetApp.Range.getCell');
    if (row < 1 || column < 1 || row > this.rect.numRows || column > this.rect.numColumns) {
      throw new Error('Cell reference out of range');
    }
    return new Range(this.scope, this.model, {
      row: this.rect.row + row - 1,
      column: this.rect.column + column - 1,
      numRows: 1,
      numColumns: 1,
    });
  }

  offset(rowOffset: number, columnOffset: number, numRows?: number, numColumns?: number): Range {
    requireInteger(rowOffset, 'SpreadsheetApp.Range.offset');
    requireInteger(columnOffset, 'SpreadsheetApp.Range.offset');
    return this.getSheet().getRange(
      this.rect.row + rowOffset,
      this.rect.column + columnOffset,
      numRows ?? this.rect.numRows,
      numColumns ?? this.rect.numColumns,
    );
  }

  addDeveloperMetadata(key: string, valueOrVisibility?: string, visibility?: string): Range {
    refuseWrite(this.scope, 'Range.addDeveloperMetadata');
    const m = this._live();
    const wholeRows = this.rect.column === 1 && this.rect.numColumns === m.maxColumns;
    const wholeColumns = this.rect.row === 1 && this.rect.numRows === m.maxRows;
    if (!wholeRows && !wholeColumns) throw new Error(METADATA_ON_RANGE);
    const [value, vis] = splitMetadataArgs(valueOrVisibility, visibility);
    const location = wholeRows
      ? { type: 'ROW' as const, sheetId: m.sheetId, start: this.rect.row, end: this.getLastRow() }
      : { type: 'COLUMN' as const, sheetId: m.sheetId, start: this.rect.column, end: this.getLastColumn() };
    this.scope.workbook.addDeveloperMetadata(key, value, vis, location);
    return this;
  }

  getDeveloperMetadata(): DeveloperMetadata[] {
    return metadataInRange(this.scope.workbook, this._live().sheetId, this.rect).map(
      (r) => new DeveloperMetadata(this.scope, r),
    );
  }

  createDeveloperMetadataFinder(): DeveloperMetadataFinder {
    const { sheetId } = this._live();
    const rect = this.rect;
    return new DeveloperMetadataFinder(this.scope, () => metadataInRange(this.scope.workbook, sheetId, rect));
  }
}

/** (key), (key, visibility), (key, value) and (key, value, visibility), as Google overloads them. */
export function splitMetadataArgs(second?: string, third?: string): [string | null, 'DOCUMENT' | 'PROJECT'] {
  const isVisibility = (v: unknown): v is 'DOCUMENT' | 'PROJECT' => v === 'DOCUMENT' || v === 'PROJECT';
  if (third !== undefined) {
    if (!isVisibility(third)) throw new Error('Invalid argument: visibility');
    return [second == null ? null : String(second), third];
  }
  if (isVisibility(second)) return [null, second];
  return [second == null ? null : String(second), 'DOCUMENT'];
}
