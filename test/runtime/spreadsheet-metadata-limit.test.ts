/**
 * Google's developer-metadata guide (developers.google.com/workspace/sheets/api/guides/metadata,
 * "About developer metadata") caps the metadata a spreadsheet holds at 30,000 characters, and the
 * metadata of each sheet at 30,000 characters: a create past either is refused, and with it the
 * whole batchUpdate. Google does not say which characters count; the runtime counts the key and the
 * value (the stricter reading).
 */
import { describe, expect, it } from 'vitest';
import { lineItemsBook } from './sheets-api-fixture';

const ID = 'book-metadata-limit';
const LIMIT = 30_000;

const create = (key: string, value: string, sheetId: number) => ({
  createDeveloperMetadata: {
    developerMetadata: { metadataKey: key, metadataValue: value, location: { sheetId }, visibility: 'DOCUMENT' },
  },
});

describe('developer metadata past 30,000 characters', () => {
  it('Spreadsheets.batchUpdate refuses one entry whose value alone passes 30,000 characters on a sheet', () => {
    const { Sheets, items, wb } = lineItemsBook(ID);
    const batch = () =>
      Sheets.Spreadsheets.batchUpdate({ requests: [create('k', 'x'.repeat(LIMIT + 1), items.getSheetId())] }, ID);
    expect(batch).toThrow(/30000/);
    expect(wb.developerMetadata).toEqual([]);
  });

  it('counts the key with the value: 30,000 characters in all are taken, one more is refused', () => {
    const { Sheets, items, wb } = lineItemsBook(ID);
    const sheetId = items.getSheetId();
    Sheets.Spreadsheets.batchUpdate({ requests: [create('key', 'v'.repeat(LIMIT - 3), sheetId)] }, ID);
    expect(wb.developerMetadata).toHaveLength(1);
    expect(() => Sheets.Spreadsheets.batchUpdate({ requests: [create('k', '', sheetId)] }, ID)).toThrow(/30001/);
    expect(wb.developerMetadata).toHaveLength(1);
  });

  it("refuses, whole, a batch of markers that together pass a sheet's 30,000 characters", () => {
    const { Sheets, items, wb } = lineItemsBook(ID);
    const sheetId = items.getSheetId();
    // 600 markers of a 31-character key and a 24-character value: 33,000 characters on one sheet.
    const requests = Array.from({ length: 600 }, (_, i) =>
      create('merchant_analytics_percent_done', `net_margin_pct:${String(2 + i * 100).padStart(9, '0')}`, sheetId),
    );
    expect(() => Sheets.Spreadsheets.batchUpdate({ requests }, ID)).toThrow();
    expect(wb.developerMetadata).toEqual([]);
    Sheets.Spreadsheets.batchUpdate({ requests: requests.slice(0, 545) }, ID);
    expect(wb.developerMetadata).toHaveLength(545);
  });

  it("refuses metadata spread over two sheets past the spreadsheet's 30,000 characters", () => {
    const { Sheets, ss, items, wb } = lineItemsBook(ID);
    const other = ss.insertSheet('Other');
    const half = 'y'.repeat(LIMIT / 2);
    Sheets.Spreadsheets.batchUpdate({ requests: [create('a', half, items.getSheetId())] }, ID);
    expect(() => Sheets.Spreadsheets.batchUpdate({ requests: [create('b', half, other.getSheetId())] }, ID)).toThrow();
    expect(wb.developerMetadata).toHaveLength(1);
  });

  it('Sheet.addDeveloperMetadata and Spreadsheet.addDeveloperMetadata refuse past 30,000 characters', () => {
    const { ss, items, wb } = lineItemsBook(ID);
    expect(() => items.addDeveloperMetadata('k', 'z'.repeat(LIMIT + 1))).toThrow(/limit of 30000/);
    expect(() => ss.addDeveloperMetadata('k', 'z'.repeat(LIMIT))).toThrow(/limit of 30000/);
    items.addDeveloperMetadata('k', 'z'.repeat(LIMIT - 1));
    expect(wb.developerMetadata).toHaveLength(1);
  });
});

describe('number formats through the Sheets API', () => {
  it('updateCells writes userEnteredFormat.numberFormat with the value; spreadsheets.get reads it back by field mask', () => {
    const { Sheets, items } = lineItemsBook(ID);
    items.getRange('B2:B4').setValues([[55.08], [12.5], ['n/a']]);
    items.getRange('B2:B4').setNumberFormat('0.00"%"');
    const fraction = { numberFormat: { type: 'NUMBER', pattern: '0.00%' } };
    Sheets.Spreadsheets.batchUpdate(
      {
        requests: [
          {
            updateCells: {
              start: { sheetId: items.getSheetId(), rowIndex: 1, columnIndex: 1 },
              rows: [{ values: [{ userEnteredValue: { numberValue: 0.5508 }, userEnteredFormat: fraction }] }],
              fields: 'userEnteredValue,userEnteredFormat.numberFormat',
            },
          },
        ],
      },
      ID,
    );
    expect(items.getRange('B2:B3').getNumberFormats()).toEqual([['0.00%'], ['0.00"%"']]);
    const got = Sheets.Spreadsheets.get(ID, {
      ranges: ["'Line items'!B2:B10"],
      fields: 'sheets.data.rowData.values.userEnteredFormat.numberFormat.pattern',
    });
    const pattern = (p: string) => ({ values: [{ userEnteredFormat: { numberFormat: { pattern: p } } }] });
    expect(got).toEqual({
      sheets: [{ data: [{ rowData: [pattern('0.00%'), pattern('0.00"%"'), pattern('0.00"%"')] }] }],
    });
  });

  it('a cell an updateCells naming the format leaves without one loses its format, as a field mask clears', () => {
    const { Sheets, items } = lineItemsBook(ID);
    items.getRange('A1').setValue(1).setNumberFormat('0.00%');
    Sheets.Spreadsheets.batchUpdate(
      {
        requests: [
          {
            updateCells: {
              start: { sheetId: items.getSheetId(), rowIndex: 0, columnIndex: 0 },
              rows: [{ values: [{ userEnteredValue: { numberValue: 2 } }] }],
              fields: 'userEnteredValue,userEnteredFormat.numberFormat',
            },
          },
        ],
      },
      ID,
    );
    expect(items.getRange('A1').getNumberFormat()).not.toBe('0.00%');
  });
});
