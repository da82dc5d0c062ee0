/**
 * Values.batchGetByDataFilter as Google documents it
 * (developers.google.com/sheets/api/reference/rest/v4/spreadsheets.values/batchGetByDataFilter): a
 * POST whose body holds the A1 data filters and the read options; each filter's values come back as
 * a MatchedValueRange ({ valueRange, dataFilters }). The strict runtime refuses a body past the 2 MB
 * payload Google recommends (developers.google.com/sheets/api/limits), and counts the cells of the
 * matched ranges as read, as it does for batchGet.
 */
import { describe, expect, it } from 'vitest';
import { costOf } from '../../dev/gas-runtime/cost-model';
import { renderedLineItemsBook } from './sheets-api-fixture';

const ID = 'book-data-filter';

const filled = () => renderedLineItemsBook(ID);

describe('Values.batchGetByDataFilter', () => {
  it('answers each A1 filter, in order, as { valueRange, dataFilters }, with the read options of the body', () => {
    const { Sheets } = filled();
    const got = Sheets.Spreadsheets.Values.batchGetByDataFilter(
      {
        dataFilters: [
          { a1Range: "'Line items'!A2:D2" },
          { a1Range: "'Line items'!A2:B1000" },
          { a1Range: "'Line items'!F1:F9" },
        ],
        valueRenderOption: 'UNFORMATTED_VALUE',
      },
      ID,
    );
    expect(got).toEqual({
      spreadsheetId: ID,
      valueRanges: [
        {
          valueRange: {
            range: "'Line items'!A2:D2",
            majorDimension: 'ROWS',
            values: [['li_1', 45306.5, 1234.5, true]],
          },
          dataFilters: [{ a1Range: "'Line items'!A2:D2" }],
        },
        {
          valueRange: {
            range: "'Line items'!A2:B1000",
            majorDimension: 'ROWS',
            values: [['li_1', 45306.5], [], [], ['note']],
          },
          dataFilters: [{ a1Range: "'Line items'!A2:B1000" }],
        },
        {
          valueRange: { range: "'Line items'!F1:F9", majorDimension: 'ROWS' },
          dataFilters: [{ a1Range: "'Line items'!F1:F9" }],
        },
      ],
    });
    const text = Sheets.Spreadsheets.Values.batchGetByDataFilter(
      {
        dataFilters: [{ a1Range: "'Line items'!B2:C2" }],
        valueRenderOption: 'UNFORMATTED_VALUE',
        dateTimeRenderOption: 'FORMATTED_STRING',
      },
      ID,
    );
    expect(text.valueRanges).toEqual([
      {
        valueRange: { range: "'Line items'!B2:C2", majorDimension: 'ROWS', values: [['2024-01-15 12:00', 1234.5]] },
        dataFilters: [{ a1Range: "'Line items'!B2:C2" }],
      },
    ]);
    // FORMATTED_VALUE, the default: the text shown.
    const shown = Sheets.Spreadsheets.Values.batchGetByDataFilter(
      { dataFilters: [{ a1Range: "'Line items'!A2:D2" }] },
      ID,
    );
    expect(shown.valueRanges[0]).toMatchObject({
      valueRange: { values: [['li_1', '2024-01-15 12:00', '1,234.50', 'TRUE']] },
    });
  });

  it('refuses unknown options, a request without filters and a filter that is not exactly one kind', () => {
    const { Sheets } = filled();
    const read = (resource: unknown) => () => Sheets.Spreadsheets.Values.batchGetByDataFilter(resource as never, ID);
    const one = [{ a1Range: "'Line items'!A1" }];
    expect(read({ dataFilters: one, valueRenderOption: 'RAW' })).toThrow(
      "Invalid value at 'value_render_option' (RAW)",
    );
    expect(read({ dataFilters: one, dateTimeRenderOption: 'ISO' })).toThrow(
      "Invalid value at 'date_time_render_option' (ISO)",
    );
    expect(read({ dataFilters: one, majorDimension: 'CELLS' })).toThrow("Invalid value at 'major_dimension' (CELLS)");
    expect(read({ dataFilters: [] })).toThrow('at least one data filter is required');
    expect(read({})).toThrow('at least one data filter is required');
    expect(read({ dataFilters: [{ a1Range: "'Line items'!A1", gridRange: { sheetId: 0 } }] })).toThrow(
      "Invalid value at 'data_filters[0]'",
    );
    expect(read({ dataFilters: [{ a1Range: "'Nowhere'!A1" }] })).toThrow(/batchGetByDataFilter failed/);
  });

  it('refuses a body past 2,000,000 bytes (413) and answers one just under it', () => {
    const { Sheets } = filled();
    const filter = { a1Range: "'Line items'!A1" };
    const filters = (n: number) => new Array<typeof filter>(n).fill(filter);
    const bytes = (n: number) => Buffer.byteLength(JSON.stringify({ dataFilters: filters(n) }));
    // Every filter the same length: the body grows by one filter and its comma each.
    const fits = Math.floor((2_000_000 - bytes(1)) / (JSON.stringify(filter).length + 1)) + 1;
    expect(bytes(fits)).toBeLessThanOrEqual(2_000_000);
    expect(bytes(fits + 1)).toBeGreaterThan(2_000_000);
    expect(
      Sheets.Spreadsheets.Values.batchGetByDataFilter({ dataFilters: filters(fits) }, ID).valueRanges,
    ).toHaveLength(fits);
    expect(() => Sheets.Spreadsheets.Values.batchGetByDataFilter({ dataFilters: filters(fits + 1) }, ID)).toThrow(
      `API call to sheets.spreadsheets.values.batchGetByDataFilter failed with error: Request payload size exceeds the limit: the body has ${bytes(fits + 1)} bytes`,
    );
  });

  it("counts the matched ranges' cells as read, as for batchGet", () => {
    const { Sheets } = filled();
    const resource = { dataFilters: [{ a1Range: "'Line items'!A1:D2" }, { a1Range: "'Line items'!A5" }] };
    const result = Sheets.Spreadsheets.Values.batchGetByDataFilter(resource, ID);
    const cost = costOf('Sheets', 'Sheets.Spreadsheets.Values.batchGetByDataFilter', [resource, ID], result);
    expect(cost.cellsRead).toBe(9);
    const same = costOf(
      'Sheets',
      'Sheets.Spreadsheets.Values.batchGet',
      [ID],
      Sheets.Spreadsheets.Values.batchGet(ID, { ranges: ["'Line items'!A1:D2", "'Line items'!A5"] }),
    );
    expect(cost).toEqual(same);
  });
});
