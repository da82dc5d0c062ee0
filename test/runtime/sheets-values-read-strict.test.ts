/**
 * The Sheets API's Values reads against the strict runtime
 * (dev/gas-runtime/spreadsheet/sheets-values.ts). Each `it` states what Google answers; a failure
 * here is the runtime being kinder than (or different from) Google (found by an outside review).
 */
import { describe, expect, it } from 'vitest';
import { renderedLineItemsBook } from './sheets-api-fixture';

const ID = 'review-data-filter';

describe('Values reads read strictly: the grid and the major dimension', () => {
  it('refuses an a1Range that lies past the grid, as values.get/batchGet do ("exceeds grid limits"), instead of answering it empty', () => {
    const { Sheets, items } = renderedLineItemsBook(ID);
    expect(items.getMaxRows()).toBe(1000);
    // Row 1001 does not exist on a 1,000-row sheet: Google answers 400 "Range ('Line items'!A1001:D1001)
    // exceeds grid limits. Max rows: 1000, max columns: 26" (public reports: pygsheets#528, values_get).
    expect(() =>
      Sheets.Spreadsheets.Values.batchGetByDataFilter(
        { dataFilters: [{ a1Range: "'Line items'!A1001:D1001" }], valueRenderOption: 'UNFORMATTED_VALUE' },
        ID,
      ),
    ).toThrow(/exceeds grid limits/);
    // The same for the GET form.
    expect(() => Sheets.Spreadsheets.Values.batchGet(ID, { ranges: ["'Line items'!A1001:D1001"] })).toThrow(
      /exceeds grid limits/,
    );
  });

  it('majorDimension COLUMNS leaves out trailing empty cells of a column and gives "" (never null) for an empty cell inside one', () => {
    const { Sheets, items } = renderedLineItemsBook(ID);
    // Line items A1:D2 = header row + one full row; A5 = 'note'. Column B of A4:B5 is empty.
    items.getRange('B6').setValue('x');
    const got = Sheets.Spreadsheets.Values.batchGetByDataFilter(
      { dataFilters: [{ a1Range: "'Line items'!A5:B6" }], majorDimension: 'COLUMNS' },
      ID,
    );
    // Rows: A5='note', B5='', A6='', B6='x'. By columns: A = ['note'] (A6 is a trailing empty cell),
    // B = ['', 'x']. "For output, empty trailing rows and columns will not be included" (ValueRange.values).
    expect(got.valueRanges[0]).toMatchObject({ valueRange: { values: [['note'], ['', 'x']] } });
  });
});
