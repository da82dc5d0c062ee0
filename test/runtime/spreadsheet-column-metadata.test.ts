/**
 * Column developer metadata as Google keeps it (developers.google.com/workspace/sheets/api/guides/metadata):
 * it moves with its column when columns are inserted, deleted or moved, and is deleted with its
 * column; spreadsheets.get lists it in each column's DimensionProperties (grid data columnMetadata).
 */
import { describe, expect, it } from 'vitest';
import { openSession } from '../../dev/gas-runtime/spreadsheet/session';
import { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';

function setup() {
  const wb = new Workbook({ timeZone: 'UTC', id: 'book-1' });
  const { SpreadsheetApp } = openSession(wb);
  const sheet = SpreadsheetApp.getActive().insertSheet('Orders');
  ['a', 'b', 'c', 'd'].forEach((key, i) => {
    sheet.getRange(1, i + 1).setValue(key.toUpperCase());
    sheet.getRange(1, i + 1, sheet.getMaxRows(), 1).addDeveloperMetadata('col', key);
  });
  /** Column (1-based) of each tag, by its value. */
  const where = (): Record<string, number> =>
    Object.fromEntries(
      sheet
        .createDeveloperMetadataFinder()
        .withKey('col')
        .find()
        .map((m) => [m.getValue(), m.getLocation().getColumn()!.getColumn()]),
    );
  return { wb, sheet, where };
}

describe('column developer metadata follows its column', () => {
  it('is deleted with its column; the columns right of it keep theirs', () => {
    const { sheet, where } = setup();
    sheet.deleteColumns(2, 1);
    expect(where()).toEqual({ a: 1, c: 2, d: 3 });
    expect(sheet.getRange(1, 1, 1, 3).getValues()[0]).toEqual(['A', 'C', 'D']);
  });

  it('moves with its column (Sheet.moveColumns, destination in the coordinates before the move)', () => {
    const { sheet, where } = setup();
    sheet.moveColumns(sheet.getRange('D1'), 1);
    expect(where()).toEqual({ d: 1, a: 2, b: 3, c: 4 });
    sheet.moveColumns(sheet.getRange('A1'), 5);
    expect(where()).toEqual({ a: 1, b: 2, c: 3, d: 4 });
    expect(sheet.getRange(1, 1, 1, 4).getValues()[0]).toEqual(['A', 'B', 'C', 'D']);
  });
});
