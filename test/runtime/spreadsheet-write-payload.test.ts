/**
 * The Sheets API's write requests held to the payload Google recommends ("we recommend a 2 MB
 * maximum payload", developers.google.com/workspace/sheets/api/limits), read strictly: a
 * Values.batchUpdate or Spreadsheets.batchUpdate body of 2,000,000 bytes is applied, one byte more
 * is refused with 413 and nothing of it is applied.
 */
import { describe, expect, it } from 'vitest';
import { lineItemsBook } from './sheets-api-fixture';

const ID = 'book-write-payload';
const LIMIT = 2_000_000;
const bytes = (resource: unknown): number => Buffer.byteLength(JSON.stringify(resource), 'utf8');

/** Texts of at most 40,000 characters (Google's cell holds 50,000) that make the body exactly `target` bytes. */
function sizedTo<T>(target: number, build: (texts: string[]) => T): T {
  const texts: string[] = [];
  for (let size = bytes(build(texts)); size < target; size = bytes(build(texts))) {
    const last = texts.length - 1;
    if (last < 0 || texts[last].length === 40_000) texts.push('');
    else texts[last] += 'x'.repeat(Math.min(target - size, 40_000 - texts[last].length));
  }
  return build(texts);
}

describe('the 2 MB payload of a Sheets API write', () => {
  it('Values.batchUpdate: a body of exactly 2,000,000 bytes is written, one byte more is refused (413) and writes nothing', () => {
    const { Sheets, items } = lineItemsBook(ID);
    const body = (row: number) => (texts: string[]) => ({
      valueInputOption: 'RAW',
      data: [
        { range: `'Line items'!A${row}`, values: [['first']] },
        ...texts.map((text, i) => ({ range: `'Line items'!B${row + i}`, values: [[text]] })),
      ],
    });
    const fits = sizedTo(LIMIT, body(1));
    expect(bytes(fits)).toBe(LIMIT);
    Sheets.Spreadsheets.Values.batchUpdate(fits, ID);
    expect(items.getRange('A1').getValue()).toBe('first');
    expect(items.getRange(`B${fits.data.length - 1}`).getValue()).toBe(fits.data[fits.data.length - 1].values[0][0]);

    const over = sizedTo(LIMIT + 1, body(200));
    expect(bytes(over)).toBe(LIMIT + 1);
    let error: unknown;
    try {
      Sheets.Spreadsheets.Values.batchUpdate(over, ID);
    } catch (e) {
      error = e;
    }
    expect(error, 'the body past 2,000,000 bytes is refused').toBeDefined();
    expect((error as { code?: number }).code).toBe(413);
    expect(String(error)).toContain(
      `API call to sheets.spreadsheets.values.batchUpdate failed with error: Request payload size exceeds the limit: the body has ${LIMIT + 1} bytes`,
    );
    expect(items.getRange('A200').getValue()).toBe('');
  });

  it('Spreadsheets.batchUpdate: an addSheet with updateCells of exactly 2,000,000 bytes is applied, one byte more is refused (413) and adds no sheet', () => {
    const { Sheets, ss } = lineItemsBook(ID);
    const body = (title: string, sheetId: number) => (texts: string[]) => ({
      requests: [
        { addSheet: { properties: { sheetId, title } } },
        {
          updateCells: {
            start: { sheetId, rowIndex: 0, columnIndex: 0 },
            rows: texts.map((text) => ({ values: [{ userEnteredValue: { stringValue: text } }] })),
            fields: 'userEnteredValue',
          },
        },
      ],
    });
    const fits = sizedTo(LIMIT, body('Fits', 101));
    expect(bytes(fits)).toBe(LIMIT);
    Sheets.Spreadsheets.batchUpdate(fits, ID);
    expect(ss.getSheetByName('Fits')).not.toBeNull();

    const over = sizedTo(LIMIT + 1, body('Over', 102));
    expect(bytes(over)).toBe(LIMIT + 1);
    expect(() => Sheets.Spreadsheets.batchUpdate(over, ID)).toThrow(
      `API call to sheets.spreadsheets.batchUpdate failed with error: Request payload size exceeds the limit: the body has ${LIMIT + 1} bytes`,
    );
    expect(ss.getSheetByName('Over')).toBeNull();
  });
});
