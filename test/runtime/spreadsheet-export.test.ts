import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { exportWorkbookJson, exportWorkbookXlsx } from '../../dev/gas-runtime/spreadsheet/export';
import { openSession } from '../../dev/gas-runtime/spreadsheet/session';
import { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';

const dir = mkdtempSync(join(tmpdir(), 'spreadsheet-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A small Orders sheet in New York time: header, two rows, a formula, formats, a note, a frozen row. */
function sampleBook(): Workbook {
  const wb = new Workbook({ timeZone: 'America/New_York', id: 'book-1' });
  const ss = openSession(wb).SpreadsheetApp.getActive();
  const orders = ss.insertSheet('Orders');
  orders.getRange('A1:E1').setValues([['id', 'created_at', 'created_date', 'net_profit', 'check']]);
  orders.getRange('A2:E3').setValues([
    ['ord_1', new Date('2024-01-15T15:30:00Z'), 45306, 12.5, '=D2*2'],
    ['\'=HYPERLINK("x")', new Date('2024-07-01T04:00:00Z'), 45474, null, ''],
  ]);
  orders.getRange('C2:C3').setNumberFormat('yyyy-mm-dd');
  orders.getRange('D2:D3').setNumberFormat('#,##0.00');
  orders.getRange('A1').setNote('managed by Merchant Analytics');
  orders.setFrozenRows(1);
  ss.getSheetByName('Sheet1')!.hideSheet();
  return wb;
}

describe('exportWorkbookJson', () => {
  it('lists values up to the last row/column, dates as ISO 8601, formulas with 1-based positions', () => {
    const json = exportWorkbookJson(sampleBook(), { executions: 2 });
    expect(json.sheets.Sheet1).toEqual([]);
    expect(json.sheets.Orders).toEqual([
      ['id', 'created_at', 'created_date', 'net_profit', 'check'],
      ['ord_1', '2024-01-15T15:30:00.000Z', '2024-01-15', 12.5, ''],
      ['=HYPERLINK("x")', '2024-07-01T04:00:00.000Z', '2024-07-01', '', ''],
    ]);
    expect(json.formulas).toEqual({ Orders: [[2, 5, '=D2*2']] });
    expect(json.stats).toEqual({ executions: 2 });
  });
});

describe('exportWorkbookXlsx round trip', () => {
  it('writes values, real dates, number formats, formulas, notes, frozen panes and hidden sheets', async () => {
    const path = join(dir, 'book.xlsx');
    await exportWorkbookXlsx(sampleBook(), path);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(path);
    expect(book.getWorksheet('Sheet1')!.state).toBe('hidden');
    const orders = book.getWorksheet('Orders')!;
    expect(orders.state).toBe('visible');
    expect(orders.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(orders.getCell('A2').value).toBe('ord_1');
    expect(orders.getCell('A3').value).toBe('=HYPERLINK("x")');
    // Excel dates carry wall-clock time: 10:30 in New York.
    expect((orders.getCell('B2').value as Date).toISOString()).toBe('2024-01-15T10:30:00.000Z');
    expect(orders.getCell('B2').numFmt).toBe('M/d/yyyy H:mm:ss');
    expect((orders.getCell('C3').value as Date).toISOString()).toBe('2024-07-01T00:00:00.000Z');
    expect(orders.getCell('C3').numFmt).toBe('yyyy-mm-dd');
    expect(orders.getCell('D2').value).toBe(12.5);
    expect(orders.getCell('D2').numFmt).toBe('#,##0.00');
    expect(orders.getCell('E2').value).toMatchObject({ formula: 'D2*2' });
    expect(orders.getCell('A1').note).toBe('managed by Merchant Analytics');
  });
});

describe('Workbook state survives toJSON / fromJSON', () => {
  it('keeps cells, formats, notes, grid properties and metadata', () => {
    const wb = sampleBook();
    openSession(wb).SpreadsheetApp.getActive().addDeveloperMetadata('ma.store', 'st_1');
    const copy = Workbook.fromJSON(JSON.parse(JSON.stringify(wb.toJSON())));
    expect(exportWorkbookJson(copy)).toEqual(exportWorkbookJson(wb));
    const orders = openSession(copy).SpreadsheetApp.getActive().getSheetByName('Orders')!;
    expect(orders.getFrozenRows()).toBe(1);
    expect(orders.getRange('A1').getNote()).toBe('managed by Merchant Analytics');
    expect(orders.getRange('D2').getNumberFormat()).toBe('#,##0.00');
    expect(copy.developerMetadata.map((m) => m.key)).toEqual(['ma.store']);
    expect(() => Workbook.fromJSON({} as never)).toThrow('Invalid workbook state');
  });
});

describe('column widths and bold headers: recorded in the model, written to the .xlsx', () => {
  function formattedBook(): Workbook {
    const wb = new Workbook({ timeZone: 'UTC', id: 'book-2' });
    const session = openSession(wb);
    const sheet = session.SpreadsheetApp.getActive().getSheetByName('Sheet1')!;
    sheet
      .getRange('A1:D1')
      .setValues([['id', 'created_at', 'amount', 'note']])
      .setFontWeight('bold');
    sheet.getRange('A2:A3').setValues([['ord_1'], ['a longer identifier here']]);
    session.Sheets.Spreadsheets.batchUpdate(
      {
        requests: [
          {
            updateDimensionProperties: {
              range: { sheetId: sheet.getSheetId(), dimension: 'COLUMNS', startIndex: 1, endIndex: 2 },
              properties: { pixelSize: 150 },
              fields: 'pixelSize',
            },
          },
        ],
      },
      'book-2',
    );
    sheet.setColumnWidths(3, 1, 120);
    sheet.autoResizeColumns(1, 1);
    return wb;
  }

  it("the Sheets API, setColumnWidths and autoResizeColumns set widths in pixels; other columns keep Sheets' 100 px", () => {
    const sheet = openSession(formattedBook()).SpreadsheetApp.getActive().getSheetByName('Sheet1')!;
    expect(sheet.getColumnWidth(2)).toBe(150);
    expect(sheet.getColumnWidth(3)).toBe(120);
    expect(sheet.getColumnWidth(4)).toBe(100);
    // Fitted to the widest shown value ("a longer identifier here", 24 characters).
    expect(sheet.getColumnWidth(1)).toBeGreaterThan(24 * 6);
    expect(sheet.getColumnWidth(1)).toBeLessThan(24 * 9);
    expect(() => sheet.setColumnWidths(26, 2, 100)).toThrow('Those columns are out of bounds.');
  });

  it('widths move with inserted columns and survive toJSON / fromJSON', () => {
    const wb = formattedBook();
    const sheet = openSession(wb).SpreadsheetApp.getActive().getSheetByName('Sheet1')!;
    sheet.insertColumnsAfter(1, 2);
    expect([sheet.getColumnWidth(2), sheet.getColumnWidth(4), sheet.getColumnWidth(5)]).toEqual([100, 150, 120]);
    const copy = openSession(Workbook.fromJSON(JSON.parse(JSON.stringify(wb.toJSON()))))
      .SpreadsheetApp.getActive()
      .getSheetByName('Sheet1')!;
    expect(copy.getColumnWidth(4)).toBe(150);
  });

  it('row heights and unknown fields are refused, not dropped, and nothing changes', () => {
    const wb = formattedBook();
    const { Sheets } = openSession(wb);
    const sheetId = wb.sheets[0].sheetId;
    const rows = {
      updateDimensionProperties: {
        range: { sheetId, dimension: 'ROWS', startIndex: 0, endIndex: 1 },
        properties: { pixelSize: 40 },
        fields: 'pixelSize',
      },
    };
    const widthFirst = {
      updateDimensionProperties: {
        range: { sheetId, dimension: 'COLUMNS', startIndex: 3, endIndex: 4 },
        properties: { pixelSize: 300 },
        fields: 'pixelSize',
      },
    };
    expect(() => Sheets.Spreadsheets.batchUpdate({ requests: [widthFirst, rows] }, 'book-2')).toThrow(
      /column widths only/,
    );
    expect(wb.sheets[0].columnWidth(4)).toBe(100);
    const past = {
      updateDimensionProperties: {
        range: { sheetId, dimension: 'COLUMNS', startIndex: 20, endIndex: 30 },
        properties: { pixelSize: 50 },
        fields: 'pixelSize',
      },
    };
    expect(() => Sheets.Spreadsheets.batchUpdate({ requests: [past] }, 'book-2')).toThrow(
      /past the sheet's 26 columns/,
    );
  });

  it("the .xlsx has bold header cells and every column's width in Excel characters (7 px each + 5 px padding)", async () => {
    const path = join(dir, 'widths.xlsx');
    await exportWorkbookXlsx(formattedBook(), path);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(path);
    const ws = book.getWorksheet('Sheet1')!;
    expect(['A1', 'B1', 'C1', 'D1'].map((a) => ws.getCell(a).font?.bold)).toEqual([true, true, true, true]);
    expect(ws.getCell('A2').font?.bold).toBeFalsy();
    expect(ws.getColumn(2).width).toBeCloseTo(145 / 7, 2);
    expect(ws.getColumn(3).width).toBeCloseTo(115 / 7, 2);
    // Excel's own default (8.43) is narrower than Sheets' 100 px: an unsized column still gets 100 px.
    expect(ws.getColumn(4).width).toBeCloseTo(95 / 7, 2);
    expect(ws.getColumn(26).width).toBeCloseTo(95 / 7, 2);
  });
});
