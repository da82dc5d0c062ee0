/**
 * A write past the request size whose weight is the row index's buckets (a large store's closing
 * write): the buckets go ahead in requests of their own, the stamp cleared in the first, and the
 * rows with the new stamp last; every request's body within the 2,000,000 bytes the strict runtime
 * takes (Google's recommended 2 MB). A write within the size stays one request, without the clear.
 */
import { describe, expect, it } from 'vitest';
import { aheadParts, requestsOf } from '../../src/server/sheets/ahead-writes';
import { mergeRowWrites, type RangeWrite } from '../../src/server/sheets/row-writes';
import { rowWritesBytes } from '../../src/server/sheets/write-size';
import { SHEETS_PAYLOAD_LIMIT, sheetsPayloadBytes } from '../../dev/gas-runtime/spreadsheet/sheets-payload-limit';

const clear: RangeWrite = { range: "'_index'!A1", values: [['']], ahead: 'clear' };
const stamp: RangeWrite = { range: "'_index'!A1", values: [['{"v":1}']] };
const rows: RangeWrite = { range: "'Sync log'!A2:C2", values: [['run', 1, 'ok']] };
const bucket = (n: number): string =>
  `ord_${String(n).padStart(12, '0')}=${n + 2}:${n * 2 + 2},${n * 2 + 3};`.repeat(100);

describe('requestsOf', () => {
  it('sends 3.5 MB of buckets (one range of 1,024 adjacent rows) ahead in requests within 2 MB, the clear first, the rows and the stamp last', () => {
    const cells = Array.from({ length: 1024 }, (_, b) => bucket(b));
    const parts = aheadParts(
      '_index',
      cells.map((text, i) => ({ row: 3 + i, column: 1, cells: [text] })),
    );
    const requests = requestsOf([clear, ...parts, rows, stamp]);
    expect(requests.length).toBeGreaterThanOrEqual(3);
    expect(requests[0][0]).toEqual({ range: clear.range, values: clear.values });
    expect(requests[requests.length - 1]).toEqual([
      { range: rows.range, values: rows.values },
      { range: stamp.range, values: stamp.values },
    ]);
    for (const data of requests)
      expect(sheetsPayloadBytes({ valueInputOption: 'RAW', data })).toBeLessThanOrEqual(SHEETS_PAYLOAD_LIMIT);
    // Every bucket once, in order, and no field Google does not know.
    const sent = requests.slice(0, -1).flat().slice(1);
    expect(sent.flatMap((r) => r.values.map((v) => v[0]))).toEqual(cells);
    for (const r of requests.flat()) expect(Object.keys(r).sort()).toEqual(['range', 'values']);
  });

  it('keeps a write within the size in one request, without the clear', () => {
    const parts = aheadParts('_index', [
      { row: 3, column: 1, cells: ['a=1'] },
      { row: 4, column: 1, cells: ['b=2'] },
    ]);
    expect(requestsOf([clear, ...parts, rows, stamp])).toEqual([
      [
        { range: "'_index'!A3:A4", values: [['a=1'], ['b=2']] },
        { range: rows.range, values: rows.values },
        { range: stamp.range, values: stamp.values },
      ],
    ]);
  });
});

describe('rowWritesBytes', () => {
  it('counts at least the bytes the rows take once merged into ranges, and not a tenth more', () => {
    const writes = Array.from({ length: 500 }, (_, i) => ({
      row: i + 2,
      column: 1,
      cells: [`ord_${i}`, 'Café "Zoë"', 12.5 * i, i % 2 === 0, ''],
    }));
    const sent = sheetsPayloadBytes(mergeRowWrites('Orders', writes));
    expect(rowWritesBytes(writes)).toBeGreaterThanOrEqual(sent);
    expect(rowWritesBytes(writes)).toBeLessThan(sent * 1.1);
  });
});
