/**
 * The playground's own grid edits on the runtime's workbook model (deleting a row, inserting a
 * column, renaming a sheet) and the order a person names in "Change an order" (id or #number).
 */
import { describe, expect, it } from 'vitest';
import { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { deleteRow, insertColumnBefore, renameSheet } from '../../dev/playground/grid-edit';
import { orderIdFor } from '../../dev/playground/order-ref';

describe('grid edits on the workbook model', () => {
  it('deletes a row: the rows below move up, the grid loses a row, metadata on it goes and metadata below moves up', () => {
    const workbook = new Workbook({ timeZone: 'UTC' });
    const sheet = workbook.sheets[0]!;
    ['id', 'ord_1', 'ord_2', 'ord_3'].forEach((v, i) => sheet.write(i + 1, 1, { value: v }));
    sheet.frozenRows = 1;
    workbook.addDeveloperMetadata('on', null, 'DOCUMENT', { type: 'ROW', sheetId: sheet.sheetId, start: 2, end: 2 });
    const below = workbook.addDeveloperMetadata('below', null, 'DOCUMENT', {
      type: 'ROW',
      sheetId: sheet.sheetId,
      start: 4,
      end: 4,
    });
    const rows = sheet.maxRows;
    deleteRow(workbook, sheet, 2);
    expect([1, 2, 3, 4].map((r) => sheet.value(r, 1))).toEqual(['id', 'ord_2', 'ord_3', undefined]);
    expect(sheet.maxRows).toBe(rows - 1);
    expect(sheet.frozenRows).toBe(1);
    expect(workbook.developerMetadata.map((m) => m.id)).toEqual([below.id]);
    expect(below.location).toMatchObject({ start: 3, end: 3 });
    expect(() => deleteRow(workbook, sheet, sheet.maxRows + 1)).toThrow('Those rows are out of bounds.');
  });

  it('inserts a column left of another: cells and widths move right, the grid gains a column', () => {
    const workbook = new Workbook({ timeZone: 'UTC' });
    const sheet = workbook.sheets[0]!;
    sheet.write(1, 1, { value: 'id' });
    sheet.write(1, 2, { value: 'status' });
    sheet.setColumnWidths(2, 1, 180);
    const columns = sheet.maxColumns;
    insertColumnBefore(workbook, sheet, 2);
    expect([1, 2, 3].map((c) => sheet.value(1, c))).toEqual(['id', undefined, 'status']);
    expect(sheet.columnWidth(3)).toBe(180);
    expect(sheet.maxColumns).toBe(columns + 1);
  });

  it('renames a sheet, and refuses a name another sheet has', () => {
    const workbook = new Workbook({ timeZone: 'UTC' });
    const first = workbook.sheets[0]!;
    workbook.insertSheet('Orders');
    renameSheet(workbook, first, '  My report ');
    expect(workbook.sheetByName('My report')).toBe(first);
    expect(() => renameSheet(workbook, first, 'Orders')).toThrow('A sheet with the name "Orders" already exists.');
  });
});

describe('orderIdFor', () => {
  const orders = [
    { id: 'ord_a', order_number: '#1001' },
    { id: 'ord_b', order_number: '#2742' },
  ];
  it('takes the id, or the order number as the sheet shows it, with or without #', () => {
    expect(orderIdFor('ord_b', orders)).toBe('ord_b');
    expect(orderIdFor(' #2742 ', orders)).toBe('ord_b');
    expect(orderIdFor('2742', orders)).toBe('ord_b');
    expect(orderIdFor('#1001', orders)).toBe('ord_a');
  });
  it('finds nothing for an unknown or empty order', () => {
    expect(orderIdFor('#9999', orders)).toBeNull();
    expect(orderIdFor('#', orders)).toBeNull();
    expect(orderIdFor('', orders)).toBeNull();
  });
});
