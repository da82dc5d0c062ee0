/**
 * Spreadsheets.batchUpdate's deleteDeveloperMetadata: a developerMetadataLookup deletes every entry
 * it matches (a sheet's location matched INTERSECTING unless EXACT_LOCATION is asked) and answers
 * them; a lookup matching nothing is refused and the whole batch changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { lineItemsBook } from './sheets-api-fixture';

const ID = 'book-1';
type Request = Record<string, Record<string, unknown>>;

const create = (key: string, value: string, location: Record<string, unknown>): Request => ({
  createDeveloperMetadata: {
    developerMetadata: { metadataKey: key, metadataValue: value, location, visibility: 'DOCUMENT' },
  },
});

function book() {
  const s = lineItemsBook(ID);
  const sheetId = s.items.getSheetId();
  s.Sheets.Spreadsheets.batchUpdate(
    {
      requests: [
        create('done', 'a:2-9', { sheetId }),
        create('done', 'a:10-19', { sheetId }),
        create('done', 'on a column', {
          dimensionRange: { sheetId, dimension: 'COLUMNS', startIndex: 0, endIndex: 1 },
        }),
        create('kept', 'x', { sheetId }),
      ],
    },
    ID,
  );
  const left = (): string[] => s.wb.developerMetadata.map((m) => `${m.key}=${m.value ?? ''}`);
  return { ...s, sheetId, left };
}

describe('deleteDeveloperMetadata', () => {
  it("deletes the key's entries at the sheet, answered with them; EXACT_LOCATION leaves the column's", () => {
    const { Sheets, sheetId, left } = book();
    const exact = Sheets.Spreadsheets.batchUpdate(
      {
        requests: [
          {
            deleteDeveloperMetadata: {
              dataFilter: {
                developerMetadataLookup: {
                  metadataKey: 'done',
                  metadataLocation: { sheetId },
                  locationMatchingStrategy: 'EXACT_LOCATION',
                },
              },
            },
          },
        ],
      },
      ID,
    );
    const deleted = (
      exact.replies[0].deleteDeveloperMetadata as { deletedDeveloperMetadata: Array<{ metadataValue: string }> }
    ).deletedDeveloperMetadata;
    expect(deleted.map((m) => m.metadataValue)).toEqual(['a:2-9', 'a:10-19']);
    expect(left()).toEqual(['done=on a column', 'kept=x']);
    Sheets.Spreadsheets.batchUpdate(
      {
        requests: [
          {
            deleteDeveloperMetadata: {
              dataFilter: { developerMetadataLookup: { metadataKey: 'done', metadataLocation: { sheetId } } },
            },
          },
        ],
      },
      ID,
    );
    expect(left()).toEqual(['kept=x']);
  });

  it('refuses a lookup matching nothing, and an unmodelled filter, changing nothing', () => {
    const { Sheets, sheetId, left } = book();
    const before = left();
    const batch = (filter: Record<string, unknown>) => () =>
      Sheets.Spreadsheets.batchUpdate(
        {
          requests: [
            { deleteDeveloperMetadata: { dataFilter: { developerMetadataLookup: { metadataKey: 'kept' } } } },
            { deleteDeveloperMetadata: { dataFilter: filter } },
          ],
        },
        ID,
      );
    expect(batch({ developerMetadataLookup: { metadataKey: 'none', metadataLocation: { sheetId } } })).toThrow(
      /no developer metadata matches/,
    );
    expect(batch({ a1Range: 'A1' })).toThrow(/developerMetadataLookup only/);
    expect(left()).toEqual(before);
  });
});
