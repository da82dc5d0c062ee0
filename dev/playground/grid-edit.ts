/**
 * A user's own edits to the grid's shape, made in the playground as in the Sheets UI: delete a row,
 * insert a column, rename a sheet. They change the runtime's workbook model, so the add-on's next
 * execution meets them as it would meet a user's edit on Google (its header checks, key index and
 * layout read the same model).
 */
import type { SheetModel } from '../gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../gas-runtime/spreadsheet/workbook';

/**
 * Deletes row `row`: the rows below move up, the grid loses a row, frozen rows shrink when one of
 * them goes; developer metadata on that row is deleted and metadata and chart ranges below move up
 * (Sheets' "Delete row"; developers.google.com/apps-script/reference/spreadsheet/sheet#deleteRow(Integer)).
 */
export function deleteRow(workbook: Workbook, sheet: SheetModel, row: number): void {
  if (row < 1 || row > sheet.maxRows) throw new Error('Those rows are out of bounds.');
  if (sheet.maxRows === 1) throw new Error("You can't delete all the rows on the sheet.");
  // Array literals, not splice(...spread): the model's own insertRows does the same for large sheets.
  if (sheet.rows.length >= row) sheet.rows = [...sheet.rows.slice(0, row - 1), ...sheet.rows.slice(row)];
  sheet.maxRows -= 1;
  if (row <= sheet.frozenRows) sheet.frozenRows -= 1;
  workbook.developerMetadata = workbook.developerMetadata.filter((m) => {
    const loc = m.location;
    return !(loc.type === 'ROW' && loc.sheetId === sheet.sheetId && loc.start === row && loc.end === row);
  });
  workbook.shiftMetadata(sheet.sheetId, 'ROW', row, -1);
}

/** Inserts an empty column before `column` (Sheets' "Insert 1 column left"), as Sheet.insertColumnsBefore does. */
export function insertColumnBefore(workbook: Workbook, sheet: SheetModel, column: number): void {
  if (column < 1 || column > sheet.maxColumns) throw new Error('Those columns are out of bounds.');
  workbook.assertCanAddCells(sheet.maxRows);
  sheet.insertColumns(column - 1, 1);
  workbook.shiftMetadata(sheet.sheetId, 'COLUMN', column - 1, 1);
}

/** Renames a sheet (double-click its tab in Sheets); the workbook refuses an empty or taken name. */
export function renameSheet(workbook: Workbook, sheet: SheetModel, name: string): void {
  workbook.renameSheet(sheet, name.trim());
}
