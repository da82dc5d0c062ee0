import { describe, expect, it } from 'vitest';
import { lineItemsBook } from './sheets-api-fixture';

const ID = 'book-1';

function setup() {
  return lineItemsBook(ID);
}

describe('Values.batchUpdate: RAW keeps text, USER_ENTERED parses like typing', () => {
  it('RAW stores formula-looking and number-looking strings as text', () => {
    const { Sheets, items } = setup();
    Sheets.Spreadsheets.Values.batchUpdate(
      {
        valueInputOption: 'RAW',
        data: [{ range: "'Line items'!A1:D1", values: [['=IMPORTXML("http://x")', '00123', "'quoted", 12.5]] }],
      },
      ID,
    );
    expect(items.getRange('A1:D1').getValues()).toEqual([['=IMPORTXML("http://x")', '00123', "'quoted", 12.5]]);
    expect(items.getRange('A1:D1').getFormulas()).toEqual([['', '', '', '']]);
  });

  it('USER_ENTERED makes formulas and numbers, and an apostrophe keeps text', () => {
    const { Sheets, items } = setup();
    Sheets.Spreadsheets.Values.batchUpdate(
      {
        valueInputOption: 'USER_ENTERED',
        data: [{ range: "'Line items'!A1:C1", values: [['=1+1', '00123', "'=text"]] }],
      },
      ID,
    );
    expect(items.getRange('A1:C1').getFormulas()).toEqual([['=1+1', '', '']]);
    expect(items.getRange('B1:C1').getValues()).toEqual([[123, '=text']]);
  });
});

describe('Values.batchUpdate writes many ranges atomically', () => {
  it('returns counts per range and in total; null leaves a cell as it is, "" empties it', () => {
    const { Sheets, items } = setup();
    items.getRange('A5:C5').setValues([['keep', 'old', 'old']]);
    const res = Sheets.Spreadsheets.Values.batchUpdate(
      {
        valueInputOption: 'RAW',
        data: [
          { range: "'Line items'!A5:C5", values: [[null, 'new', '']] },
          {
            range: "'Line items'!A9",
            values: [
              [1, 2],
              [3, 4],
            ],
          },
        ],
      },
      ID,
    );
    expect(items.getRange('A5:C5').getValues()).toEqual([['keep', 'new', '']]);
    expect(items.getRange('A9:B10').getValues()).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(res.totalUpdatedCells).toBe(6);
    expect(res.responses.map((r) => r.updatedRange)).toEqual(["'Line items'!A5:C5", "'Line items'!A9:B10"]);
  });

  it('refuses to write past the last row or column, writing nothing, as the API reports "exceeds grid limits"', () => {
    const { Sheets, items } = setup();
    expect(() =>
      Sheets.Spreadsheets.Values.batchUpdate(
        {
          valueInputOption: 'RAW',
          data: [
            { range: "'Line items'!A1", values: [['first']] },
            { range: "'Line items'!Z1200", values: [['a', 'b']] },
          ],
        },
        ID,
      ),
    ).toThrow(/exceeds grid limits\. Max rows: 1000, max columns: 26/);
    expect(items.getLastRow()).toBe(0);
    expect(items.getMaxRows()).toBe(1000);
  });

  it('append grows the grid for rows written past the end', () => {
    const { Sheets, items } = setup();
    items.getRange('A1000').setValue('last');
    Sheets.Spreadsheets.Values.append({ values: [['next']] }, ID, "'Line items'!A:A", { valueInputOption: 'RAW' });
    expect(items.getMaxRows()).toBe(1001);
    expect(items.getRange('A1001').getValue()).toBe('next');
  });

  it('a bad range anywhere in the batch writes nothing', () => {
    const { Sheets, items } = setup();
    expect(() =>
      Sheets.Spreadsheets.Values.batchUpdate(
        {
          valueInputOption: 'RAW',
          data: [
            { range: "'Line items'!A1", values: [['first']] },
            { range: "'No such sheet'!A1", values: [['second']] },
          ],
        },
        ID,
      ),
    ).toThrow(
      "API call to sheets.spreadsheets.values.batchUpdate failed with error: Unable to parse range: 'No such sheet'!A1",
    );
    expect(items.getLastRow()).toBe(0);
  });

  it('refuses more data than a bounded range holds', () => {
    const { Sheets } = setup();
    expect(() =>
      Sheets.Spreadsheets.Values.update({ values: [[1], [2], [3]] }, ID, "'Line items'!A1:A2", {
        valueInputOption: 'RAW',
      }),
    ).toThrow("Requested writing within range ['Line items'!A1:A2], but tried writing to row [3]");
  });

  it('requires a valueInputOption and the right spreadsheet id', () => {
    const { Sheets } = setup();
    expect(() => Sheets.Spreadsheets.Values.update({ values: [[1]] }, ID, 'A1')).toThrow(
      "'valueInputOption' is required but not specified",
    );
    expect(() => Sheets.Spreadsheets.Values.get('other-id', 'A1')).toThrow('Requested entity was not found.');
  });
});

describe('Values.get / batchGet render options', () => {
  it('renders formatted, unformatted and formula values and trims empty edges', () => {
    const { Sheets, ss } = setup();
    const daily = ss.insertSheet('Daily P&L');
    daily.getRange('A1:C1').setValues([[new Date('2024-01-15T05:00:00Z'), 1234.5, '=B1*2']]);
    daily.getRange('B1').setNumberFormat('#,##0.00');
    const range = "'Daily P&L'!A1:E3";
    expect(Sheets.Spreadsheets.Values.get(ID, range)).toEqual({
      range,
      majorDimension: 'ROWS',
      values: [['1/15/2024 0:00:00', '1,234.50']],
    });
    expect(Sheets.Spreadsheets.Values.get(ID, range, { valueRenderOption: 'UNFORMATTED_VALUE' }).values).toEqual([
      [45306, 1234.5],
    ]);
    expect(Sheets.Spreadsheets.Values.get(ID, range, { valueRenderOption: 'FORMULA' }).values).toEqual([
      [45306, 1234.5, '=B1*2'],
    ]);
    const batch = Sheets.Spreadsheets.Values.batchGet(ID, {
      ranges: ["'Daily P&L'!B1", "'Line items'!A1:B2"],
      valueRenderOption: 'UNFORMATTED_VALUE',
    });
    expect(batch.valueRanges).toEqual([
      { range: "'Daily P&L'!B1", majorDimension: 'ROWS', values: [[1234.5]] },
      { range: "'Line items'!A1:B2", majorDimension: 'ROWS' },
    ]);
  });
});

describe('Values.append', () => {
  it('appends after the last row with data, inserting rows with INSERT_ROWS', () => {
    const { Sheets, items } = setup();
    items.getRange('A1:B2').setValues([
      ['id', 'qty'],
      ['li_1', 1],
    ]);
    items.getRange('A10').setValue('below');
    const res = Sheets.Spreadsheets.Values.append({ values: [['li_2', 2]] }, ID, "'Line items'!A1:B9", {
      valueInputOption: 'RAW',
      insertDataOption: 'INSERT_ROWS',
    });
    expect(res.updates.updatedRange).toBe("'Line items'!A3:B3");
    expect(items.getRange('A3:B3').getValues()).toEqual([['li_2', 2]]);
    expect(items.getRange('A11').getValue()).toBe('below');
    expect(items.getMaxRows()).toBe(1001);
  });
});

describe('Spreadsheets.batchUpdate', () => {
  it('adds sheets, freezes rows, appends rows, and rolls back on a failed request', () => {
    const { Sheets, wb } = setup();
    const reply = Sheets.Spreadsheets.batchUpdate(
      {
        requests: [
          {
            addSheet: {
              properties: { title: 'Products', gridProperties: { rowCount: 10, columnCount: 5, frozenRowCount: 1 } },
            },
          },
        ],
      },
      ID,
    );
    const props = reply.replies[0].addSheet as { properties: { sheetId: number } };
    Sheets.Spreadsheets.batchUpdate(
      { requests: [{ appendDimension: { sheetId: props.properties.sheetId, dimension: 'ROWS', length: 90 } }] },
      ID,
    );
    const products = wb.sheetByName('Products')!;
    expect([products.maxRows, products.maxColumns, products.frozenRows]).toEqual([100, 5, 1]);
    expect(() =>
      Sheets.Spreadsheets.batchUpdate(
        {
          requests: [
            {
              updateSheetProperties: {
                properties: { sheetId: props.properties.sheetId, gridProperties: { frozenRowCount: 3 } },
                fields: 'gridProperties.frozenRowCount',
              },
            },
            { appendDimension: { sheetId: 424242, dimension: 'ROWS', length: 1 } },
          ],
        },
        ID,
      ),
    ).toThrow('No grid with id: 424242');
    expect(products.frozenRows).toBe(1);
    const got = Sheets.Spreadsheets.get(ID) as { sheets: Array<{ properties: { title: string } }> };
    expect(got.sheets.map((s) => s.properties.title)).toEqual(['Sheet1', 'Line items', 'Products']);
  });
});

describe('spreadsheets.batchUpdate repeatCell (number format)', () => {
  it('sets the number format of a GridRange, 0-based and half-open, and leaves the values', () => {
    const { Sheets, items } = setup();
    items.getRange('A2:C2').setValues([[1.5, 2, 3]]);
    const sheetId = items.getSheetId();
    Sheets.Spreadsheets.batchUpdate(
      {
        requests: [
          {
            repeatCell: {
              range: { sheetId, startRowIndex: 1, endRowIndex: 2, startColumnIndex: 0, endColumnIndex: 2 },
              cell: { userEnteredFormat: { numberFormat: { type: 'NUMBER', pattern: '#,##0.00 [$EUR]' } } },
              fields: 'userEnteredFormat.numberFormat',
            },
          },
        ],
      },
      ID,
    );
    const untouched = items.getRange('D2').getNumberFormat();
    expect(items.getRange('A2:C2').getNumberFormats()).toEqual([['#,##0.00 [$EUR]', '#,##0.00 [$EUR]', untouched]]);
    expect(items.getRange('A2').getDisplayValue()).toBe('1.50 EUR');
    expect(items.getRange('A2:C2').getValues()).toEqual([[1.5, 2, 3]]);
  });

  it('refuses fields it does not model, and a range past the grid, changing nothing (atomic)', () => {
    const { Sheets, items } = setup();
    const sheetId = items.getSheetId();
    const before = items.getRange('A1').getNumberFormat();
    const format = {
      repeatCell: {
        range: { sheetId, startRowIndex: 0, endRowIndex: 1 },
        cell: { userEnteredFormat: { numberFormat: { pattern: '0.0' } } },
        fields: 'userEnteredFormat.numberFormat',
      },
    };
    expect(() =>
      Sheets.Spreadsheets.batchUpdate(
        { requests: [format, { repeatCell: { ...format.repeatCell, fields: 'userEnteredFormat' } }] },
        ID,
      ),
    ).toThrow(/models only userEnteredFormat.numberFormat/);
    expect(() =>
      Sheets.Spreadsheets.batchUpdate(
        {
          requests: [
            format,
            {
              repeatCell: {
                ...format.repeatCell,
                range: { sheetId, startRowIndex: 0, endRowIndex: items.getMaxRows() + 1 },
              },
            },
          ],
        },
        ID,
      ),
    ).toThrow(/exceeds grid limits/);
    expect(items.getRange('A1').getNumberFormat()).toBe(before);
    expect(before).not.toBe('0.0');
  });
});

describe('spreadsheets.batchUpdate: a sheet added, tagged and given its header row in one request', () => {
  const addProducts = (sheetId: number) => ({
    addSheet: {
      properties: { sheetId, title: 'Products', gridProperties: { rowCount: 10, columnCount: 3, frozenRowCount: 1 } },
    },
  });

  it('addSheet takes the sheetId given, so later requests of the same batch address the new sheet', () => {
    const { Sheets, ss, wb } = setup();
    const reply = Sheets.Spreadsheets.batchUpdate(
      {
        requests: [
          addProducts(4242),
          {
            createDeveloperMetadata: {
              developerMetadata: {
                metadataKey: 'table',
                metadataValue: 'Products',
                location: { sheetId: 4242 },
                visibility: 'DOCUMENT',
              },
            },
          },
          {
            updateCells: {
              start: { sheetId: 4242, rowIndex: 0, columnIndex: 0 },
              rows: [
                {
                  values: [
                    {
                      userEnteredValue: { stringValue: 'id' },
                      note: 'The API id',
                      userEnteredFormat: { textFormat: { bold: true } },
                    },
                    { userEnteredValue: { stringValue: '=1+1' }, userEnteredFormat: { textFormat: { bold: true } } },
                    { userEnteredValue: { numberValue: 7 } },
                  ],
                },
              ],
              fields: 'userEnteredValue,note,userEnteredFormat.textFormat.bold',
            },
          },
        ],
      },
      ID,
    );
    expect((reply.replies[0].addSheet as { properties: { sheetId: number } }).properties.sheetId).toBe(4242);
    const created = reply.replies[1].createDeveloperMetadata as { developerMetadata: { location: unknown } };
    expect(created.developerMetadata.location).toEqual({ locationType: 'SHEET', sheetId: 4242 });
    // Seen through SpreadsheetApp: the sheet, its tag, and the header cells (text stays text: no formula).
    const products = ss.getSheetByName('Products')!;
    expect(products.getSheetId()).toBe(4242);
    expect(products.getFrozenRows()).toBe(1);
    const tags = products.getDeveloperMetadata().map((m) => [m.getKey(), m.getValue(), m.getVisibility()]);
    expect(tags).toEqual([['table', 'Products', 'DOCUMENT']]);
    expect(products.getRange('A1:C1').getValues()).toEqual([['id', '=1+1', 7]]);
    expect(products.getRange('A1:C1').getFormulas()).toEqual([['', '', '']]);
    expect(products.getRange('A1:C1').getNotes()).toEqual([['The API id', '', '']]);
    const model = wb.sheetByName('Products')!;
    expect([1, 2, 3].map((c) => model.style(1, c)?.fontWeight ?? 'normal')).toEqual(['bold', 'bold', 'normal']);
  });

  it('refuses a sheetId in use, an unmodelled field or location, and cells past the grid, changing nothing', () => {
    const { Sheets, items, wb } = setup();
    const sheets = (): number => wb.sheets.length;
    const before = sheets();
    const header = (fields: string, columns = 1) => ({
      updateCells: {
        start: { sheetId: 77, rowIndex: 0, columnIndex: 0 },
        rows: [{ values: Array.from({ length: columns }, () => ({ userEnteredValue: { stringValue: 'x' } })) }],
        fields,
      },
    });
    const batch =
      (...requests: Array<Record<string, Record<string, unknown>>>) =>
      () =>
        Sheets.Spreadsheets.batchUpdate({ requests: [addProducts(77), ...requests] }, ID);
    expect(() => Sheets.Spreadsheets.batchUpdate({ requests: [addProducts(items.getSheetId())] }, ID)).toThrow(
      /already exists/,
    );
    expect(batch(header('userEnteredValue,userEnteredFormat.backgroundColor'))).toThrow(/models only/);
    expect(batch(header('userEnteredValue', 4))).toThrow(/exceeds grid limits/);
    expect(
      batch({
        createDeveloperMetadata: {
          developerMetadata: { metadataKey: 'k', location: { spreadsheet: true }, visibility: 'DOCUMENT' },
        },
      }),
    ).toThrow(/sheet locations/);
    expect(sheets()).toBe(before);
    expect(wb.sheetByName('Products')).toBeUndefined();
  });
});
