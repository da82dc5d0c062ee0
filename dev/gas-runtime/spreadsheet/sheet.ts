/** SpreadsheetApp's Sheet over a host-side SheetModel. */
import { parseA1, resolveReference } from './a1';
import { DeveloperMetadata, DeveloperMetadataFinder, metadataOnSheet } from './developer-metadata';
import { deleteColumns, moveColumns } from './column-edits';
import { userEnteredWrite } from './input';
import { Range, splitMetadataArgs } from './range';
import { liveSheet, refuseWrite, requireInteger, type SpreadsheetScope } from './scope';
import type { SheetModel } from './sheet-model';
import { Spreadsheet } from './spreadsheet';
import { sheetCharts, type EmbeddedChart, type EmbeddedChartBuilder } from './charts';
import { rulesAfterDeletedRows } from './conditional-formats';
import { newProtectionState, Protection } from './protection';
import {
  asDataSourceSheet,
  dataSourcePivotTablesOn,
  type DataSourcePivotTable,
  type DataSourceSheet,
} from './data-source';

const OUTSIDE_GRID = 'The coordinates of the range are outside the dimensions of the sheet.';

export class Sheet {
  constructor(
    private readonly scope: SpreadsheetScope,
    private readonly model: SheetModel,
  ) {}

  private _live(): SheetModel {
    return liveSheet(this.scope, this.model);
  }

  /** The host model behind a Sheet handle passed back by the script (e.g. deleteSheet(sheet)). */
  _model(): SheetModel {
    return this.model;
  }

  getName(): string {
    return this._live().name;
  }

  setName(name: string): Sheet {
    refuseWrite(this.scope, 'Sheet.setName');
    this.scope.workbook.renameSheet(this._live(), String(name));
    return this;
  }

  getSheetId(): number {
    return this._live().sheetId;
  }

  getIndex(): number {
    return this.scope.workbook.sheets.indexOf(this._live()) + 1;
  }

  /** SheetType: DATASOURCE for a data source sheet (Spreadsheet.insertDataSourceSheet), else GRID. */
  getType(): string {
    return asDataSourceSheet(this.scope, this._live()) ? 'DATASOURCE' : 'GRID';
  }

  /** "Returns the sheet as a DataSourceSheet if the sheet is of type SheetType.DATASOURCE, or null otherwise." */
  asDataSourceSheet(): DataSourceSheet | null {
    return asDataSourceSheet(this.scope, this._live());
  }

  getDataSourcePivotTables(): DataSourcePivotTable[] {
    return dataSourcePivotTablesOn(this.scope, this._live());
  }

  getParent(): Spreadsheet {
    return new Spreadsheet(this.scope);
  }

  activate(): Sheet {
    this.scope.activeSheetId = this._live().sheetId;
    return this;
  }

  /** A builder for a chart on this sheet (insert it with insertChart). */
  newChart(): EmbeddedChartBuilder {
    this._live();
    return sheetCharts.newChart(this.scope);
  }

  insertChart(chart: EmbeddedChart): void {
    sheetCharts.insert(this.scope, this._live(), chart);
  }

  updateChart(chart: EmbeddedChart): void {
    sheetCharts.update(this.scope, this._live(), chart);
  }

  removeChart(chart: EmbeddedChart): void {
    sheetCharts.remove(this.scope, this._live(), chart);
  }

  getCharts(): EmbeddedChart[] {
    return sheetCharts.list(this.scope, this._live());
  }

  /** The sheet's protection, created on first call (Google: until editors change it mirrors the spreadsheet's sharing). */
  protect(): Protection {
    refuseWrite(this.scope, 'Sheet.protect');
    const m = this._live();
    m.protection ??= newProtectionState();
    return new Protection(this.scope, m);
  }

  getRange(a1OrRow: string | number, column?: number, numRows?: number, numColumns?: number): Range {
    const m = this._live();
    if (typeof a1OrRow === 'string' && column === undefined) return rangeFromA1(this.scope, a1OrRow, m);
    const method = 'SpreadsheetApp.Sheet.getRange';
    const row = requireInteger(a1OrRow, method);
    const col = requireInteger(column, method);
    const rows = numRows === undefined ? 1 : requireInteger(numRows, method);
    const cols = numColumns === undefined ? 1 : requireInteger(numColumns, method);
    if (row < 1) throw new Error('The starting row of the range is too small.');
    if (col < 1) throw new Error('The starting column of the range is too small.');
    if (rows < 1) throw new Error('The number of rows in the range must be at least 1.');
    if (cols < 1) throw new Error('The number of columns in the range must be at least 1.');
    if (row + rows - 1 > m.maxRows || col + cols - 1 > m.maxColumns) throw new Error(OUTSIDE_GRID);
    return new Range(this.scope, m, { row, column: col, numRows: rows, numColumns: cols });
  }

  getDataRange(): Range {
    const m = this._live();
    return new Range(this.scope, m, {
      row: 1,
      column: 1,
      numRows: Math.max(1, m.lastRow()),
      numColumns: Math.max(1, m.lastColumn()),
    });
  }

  getLastRow(): number {
    return this._live().lastRow();
  }

  getLastColumn(): number {
    return this._live().lastColumn();
  }

  getMaxRows(): number {
    return this._live().maxRows;
  }

  getMaxColumns(): number {
    return this._live().maxColumns;
  }

  insertRowsAfter(afterPosition: number, howMany: number): Sheet {
    refuseWrite(this.scope, 'Sheet.insertRowsAfter');
    const m = this._live();
    const after = requireInteger(afterPosition, 'SpreadsheetApp.Sheet.insertRowsAfter');
    const count = requireInteger(howMany, 'SpreadsheetApp.Sheet.insertRowsAfter');
    if (after < 1 || after > m.maxRows) throw new Error('Those rows are out of bounds.');
    if (count < 1) throw new Error('The number of rows to insert must be at least 1.');
    this.scope.workbook.assertCanAddCells(count * m.maxColumns);
    m.insertRows(after, count);
    this.scope.workbook.shiftMetadata(m.sheetId, 'ROW', after, count);
    return this;
  }

  /**
   * Sheet.deleteRows(rowPosition, howMany) (developers.google.com/apps-script/reference/spreadsheet/sheet#deleterowsrowposition,-howmany):
   * the rows go, the rows below move up. Refused like Sheets: rows outside the grid ("Those rows are
   * out of bounds."), or every row that is not frozen ("Sorry, it is not possible to delete all
   * non-frozen rows."). Stricter than Google: a chart or conditional format rule over the deleted
   * rows is refused as not modelled (Sheets would shrink its range; the add-on deletes only Sync log rows).
   */
  deleteRows(rowPosition: number, howMany: number): Sheet {
    refuseWrite(this.scope, 'Sheet.deleteRows');
    const m = this._live();
    const first = requireInteger(rowPosition, 'SpreadsheetApp.Sheet.deleteRows');
    const count = requireInteger(howMany, 'SpreadsheetApp.Sheet.deleteRows');
    const last = first + count - 1;
    if (first < 1 || count < 1 || last > m.maxRows) throw new Error('Those rows are out of bounds.');
    if (m.maxRows - count <= m.frozenRows) throw new Error('Sorry, it is not possible to delete all non-frozen rows.');
    const overlaps = (top: number, bottom: number): boolean => top <= last && bottom >= first;
    const touched = this.scope.workbook.sheets.some((sheet) =>
      sheet.charts.some((chart) =>
        chart.ranges.some((r) => r.sheetId === m.sheetId && overlaps(r.row, r.row + r.numRows - 1)),
      ),
    );
    if (touched) throw new Error('Sheet.deleteRows under a chart is not modelled by the local runtime.');
    m.conditionalFormats = rulesAfterDeletedRows(m.conditionalFormats, m.sheetId, first, count);
    m.deleteRows(first, count);
    this.scope.workbook.dropRowMetadata(m.sheetId, first, last);
    return this;
  }

  insertColumnsAfter(afterPosition: number, howMany: number): Sheet {
    refuseWrite(this.scope, 'Sheet.insertColumnsAfter');
    const m = this._live();
    const after = requireInteger(afterPosition, 'SpreadsheetApp.Sheet.insertColumnsAfter');
    const count = requireInteger(howMany, 'SpreadsheetApp.Sheet.insertColumnsAfter');
    if (after < 1 || after > m.maxColumns) throw new Error('Those columns are out of bounds.');
    if (count < 1) throw new Error('The number of columns to insert must be at least 1.');
    this.scope.workbook.assertCanAddCells(count * m.maxRows);
    m.insertColumns(after, count);
    this.scope.workbook.shiftMetadata(m.sheetId, 'COLUMN', after, count);
    return this;
  }

  /**
   * Sheet.deleteColumns(columnPosition, howMany) (developers.google.com/apps-script/reference/spreadsheet/sheet#deletecolumnscolumnposition,-howmany):
   * the columns go with their metadata (column-edits.ts). Refused like Sheets: columns outside the
   * grid, or every column that is not frozen.
   */
  deleteColumns(columnPosition: number, howMany: number): Sheet {
    refuseWrite(this.scope, 'Sheet.deleteColumns');
    const m = this._live();
    const first = requireInteger(columnPosition, 'SpreadsheetApp.Sheet.deleteColumns');
    const count = requireInteger(howMany, 'SpreadsheetApp.Sheet.deleteColumns');
    if (first < 1 || count < 1 || first + count - 1 > m.maxColumns) throw new Error('Those columns are out of bounds.');
    if (m.maxColumns - count <= m.frozenColumns)
      throw new Error('Sorry, it is not possible to delete all non-frozen columns.');
    deleteColumns(this.scope.workbook, m, first, count);
    return this;
  }

  deleteColumn(columnPosition: number): Sheet {
    return this.deleteColumns(columnPosition, 1);
  }

  /** Sheet.moveColumns(columnSpec, destinationIndex): every column the range spans, with its metadata (column-edits.ts). */
  moveColumns(columnSpec: Range, destinationIndex: number): void {
    refuseWrite(this.scope, 'Sheet.moveColumns');
    const m = this._live();
    const destination = requireInteger(destinationIndex, 'SpreadsheetApp.Sheet.moveColumns');
    if (!(columnSpec instanceof Range) || columnSpec.getSheet().getSheetId() !== m.sheetId)
      throw new Error(
        "The parameters (Range,number) don't match the method signature for SpreadsheetApp.Sheet.moveColumns.",
      );
    if (destination < 1 || destination > m.maxColumns + 1) throw new Error('Those columns are out of bounds.');
    moveColumns(this.scope.workbook, m, columnSpec.getColumn(), columnSpec.getNumColumns(), destination);
  }

  /** Writes after the last row with content, growing the grid when that row does not exist yet. */
  appendRow(rowContents: unknown[]): Sheet {
    refuseWrite(this.scope, 'Sheet.appendRow');
    if (!Array.isArray(rowContents)) {
      throw new Error("The parameters (String) don't match the method signature for SpreadsheetApp.Sheet.appendRow.");
    }
    const m = this._live();
    const writes = rowContents.map((v) => userEnteredWrite(v, this.scope.workbook.timeZone));
    const row = m.lastRow() + 1;
    const addRows = Math.max(0, row - m.maxRows);
    const addColumns = Math.max(0, writes.length - m.maxColumns);
    if (addRows > 0 || addColumns > 0) this.scope.workbook.growSheet(m, addRows, addColumns);
    writes.forEach((w, i) => m.write(row, i + 1, w));
    return this;
  }

  setFrozenRows(rows: number): void {
    refuseWrite(this.scope, 'Sheet.setFrozenRows');
    const m = this._live();
    const n = requireInteger(rows, 'SpreadsheetApp.Sheet.setFrozenRows');
    if (n < 0 || n >= m.maxRows) throw new Error("You can't freeze all visible rows on the sheet.");
    m.frozenRows = n;
  }

  getFrozenRows(): number {
    return this._live().frozenRows;
  }

  setFrozenColumns(columns: number): void {
    refuseWrite(this.scope, 'Sheet.setFrozenColumns');
    const m = this._live();
    const n = requireInteger(columns, 'SpreadsheetApp.Sheet.setFrozenColumns');
    if (n < 0 || n >= m.maxColumns) throw new Error("You can't freeze all visible columns on the sheet.");
    m.frozenColumns = n;
  }

  getFrozenColumns(): number {
    return this._live().frozenColumns;
  }

  hideSheet(): Sheet {
    refuseWrite(this.scope, 'Sheet.hideSheet');
    const m = this._live();
    const visible = this.scope.workbook.sheets.filter((s) => !s.hidden && s !== m);
    if (visible.length === 0) throw new Error("You can't hide all the sheets in a document.");
    m.hidden = true;
    return this;
  }

  showSheet(): Sheet {
    refuseWrite(this.scope, 'Sheet.showSheet');
    this._live().hidden = false;
    return this;
  }

  isSheetHidden(): boolean {
    return this._live().hidden;
  }

  clear(options?: { contentsOnly?: boolean; formatOnly?: boolean }): Sheet {
    refuseWrite(this.scope, 'Sheet.clear');
    const m = this._live();
    m.clear({ row: 1, column: 1, numRows: m.maxRows, numColumns: m.maxColumns }, !options?.contentsOnly);
    return this;
  }

  clearContents(): Sheet {
    refuseWrite(this.scope, 'Sheet.clearContents');
    const m = this._live();
    m.clear({ row: 1, column: 1, numRows: m.maxRows, numColumns: m.maxColumns }, false);
    return this;
  }

  autoResizeColumns(startColumn: number, numColumns: number): Sheet {
    refuseWrite(this.scope, 'Sheet.autoResizeColumns');
    const [first, count] = this._columns(startColumn, numColumns, 'autoResizeColumns');
    this._live().fitColumnWidths(first, count);
    return this;
  }

  setColumnWidth(columnPosition: number, width: number): Sheet {
    return this._setWidths(columnPosition, 1, width, 'setColumnWidth');
  }

  setColumnWidths(startColumn: number, numColumns: number, width: number): Sheet {
    return this._setWidths(startColumn, numColumns, width, 'setColumnWidths');
  }

  getColumnWidth(columnPosition: number): number {
    return this._live().columnWidth(this._columns(columnPosition, 1, 'getColumnWidth')[0]);
  }

  private _setWidths(startColumn: number, numColumns: number, width: number, method: string): Sheet {
    refuseWrite(this.scope, `Sheet.${method}`);
    const [first, count] = this._columns(startColumn, numColumns, method);
    const px = requireInteger(width, `SpreadsheetApp.Sheet.${method}`);
    if (px < 0) throw new Error('Invalid argument: width');
    this._live().setColumnWidths(first, count, px);
    return this;
  }

  private _columns(startColumn: number, numColumns: number, method: string): [number, number] {
    const first = requireInteger(startColumn, `SpreadsheetApp.Sheet.${method}`);
    const count = requireInteger(numColumns, `SpreadsheetApp.Sheet.${method}`);
    if (first < 1 || count < 1 || first + count - 1 > this._live().maxColumns)
      throw new Error('Those columns are out of bounds.');
    return [first, count];
  }

  addDeveloperMetadata(key: string, valueOrVisibility?: string, visibility?: string): Sheet {
    refuseWrite(this.scope, 'Sheet.addDeveloperMetadata');
    const [value, vis] = splitMetadataArgs(valueOrVisibility, visibility);
    this.scope.workbook.addDeveloperMetadata(key, value, vis, { type: 'SHEET', sheetId: this._live().sheetId });
    return this;
  }

  getDeveloperMetadata(): DeveloperMetadata[] {
    return metadataOnSheet(this.scope.workbook, this._live().sheetId, false).map(
      (r) => new DeveloperMetadata(this.scope, r),
    );
  }

  createDeveloperMetadataFinder(): DeveloperMetadataFinder {
    const { sheetId } = this._live();
    return new DeveloperMetadataFinder(this.scope, () => metadataOnSheet(this.scope.workbook, sheetId, true));
  }
}

/** A1 lookup shared by Sheet.getRange and Spreadsheet.getRange ("Range not found" when invalid). */
export function rangeFromA1(scope: SpreadsheetScope, a1: string, defaultSheet: SheetModel | undefined): Range {
  const ref = parseA1(String(a1));
  if (!ref) throw new Error('Range not found');
  const onlySheetName = ref.startRow === undefined && ref.startColumn === undefined;
  const model = ref.sheetName !== undefined ? scope.workbook.sheetByName(ref.sheetName) : defaultSheet;
  if (!model || (onlySheetName && ref.sheetName === undefined)) throw new Error('Range not found');
  const rect = resolveReference(ref, model.maxRows, model.maxColumns);
  if (
    rect.numRows < 1 ||
    rect.numColumns < 1 ||
    rect.row + rect.numRows - 1 > model.maxRows ||
    rect.column + rect.numColumns - 1 > model.maxColumns
  ) {
    throw new Error('Range not found');
  }
  return new Range(scope, model, rect);
}
