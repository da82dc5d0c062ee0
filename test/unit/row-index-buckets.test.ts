/**
 * The row index's cells: a bucket the index wrote reads back as written at its own row (an empty
 * bucket an empty cell, which the stamp lists), and anything else in a bucket or stamp cell (a
 * user's text, another bucket's cell moved there by a sort or a deleted row, a stamp of the
 * format before bucket numbers or without its empty buckets) is refused, so the run reads the key
 * columns whole instead of trusting it. Google's limit of 50,000 characters a cell bounds a bucket.
 */
import { describe, expect, it } from 'vitest';
import {
  BUCKET_MAX_CHARS,
  BUCKETS,
  bucketOf,
  formatBucket,
  formatStamp,
  parseBucket,
  parseStamp,
  type OrderRows,
} from '../../src/server/sheets/row-index-buckets';
import { formatEmpty, parseEmpty } from '../../src/server/sheets/bucket-tags';

describe('row index buckets', () => {
  it('a bucket reads back as written, ids with separators included', () => {
    const entries = new Map<string, OrderRows>([
      ['ord_a1', { order: 2, lines: [5, 6] }],
      ['ord_x=y;z:1,2', { order: 17, lines: [] }],
      ['ord_only_lines', { order: 0, lines: [40] }],
    ]);
    expect(parseBucket(formatBucket(17, entries), 17)).toEqual(entries);
    expect(formatBucket(0, new Map())).toBe('');
    expect(parseBucket('', 0)).toEqual(new Map());
  });

  it("a bucket's cell found at another bucket's row is refused", () => {
    const entries = new Map<string, OrderRows>([['ord_a1', { order: 2, lines: [5] }]]);
    expect(parseBucket(formatBucket(17, entries), 18)).toBeNull();
    expect(parseBucket(formatBucket(1, entries), 17)).toBeNull();
    expect(parseBucket('17|', 17)).toBeNull();
    // The formats before bucket numbers and before checksums: an index written again, not read.
    expect(parseBucket('ord_a1=2:5', 17)).toBeNull();
    expect(parseBucket('17|ord_a1=2:5', 17)).toBeNull();
  });

  it('a cell edited by hand and left well formed (an entry cut out, rows changed, one typed in) is refused', () => {
    const cell = formatBucket(
      17,
      new Map<string, OrderRows>([
        ['ord_a1', { order: 2, lines: [5] }],
        ['ord_b2', { order: 3, lines: [6, 7] }],
      ]),
    );
    expect(cell).toMatch(/^17\|[0-9a-f]{8}\|ord_a1=2:5;ord_b2=3:6,7$/);
    for (const edited of [
      cell.replace(';ord_b2=3:6,7', ''),
      cell.replace('ord_a1=2:5;', ''),
      cell.replace('=3:', '=4:'),
      `${cell};ord_c3=9`,
      cell.replace(/\|[0-9a-f]{8}\|/, '|00000000|'),
    ])
      expect(parseBucket(edited, 17), edited).toBeNull();
  });

  it('a cell the index did not write is refused', () => {
    for (const cell of ['my note', 'ord_a1=2:', 'ord_a1=x', 42, true, 'ord_a1=2;;ord_b=3'])
      expect(parseBucket(cell, 3), String(cell)).toBeNull();
    for (const cell of ['3|' + 'ord_a1=x', '3|ord_a1=2;;ord_b=3']) expect(parseBucket(cell, 3), cell).toBeNull();
    const counts = '"buckets":1024,"ordersGridRows":10,"linesGridRows":10,"orders":1,"lines":1,"lastOrderRow":2';
    const before = `{"v":1,${counts}}`;
    const unlisted = `{"v":3,${counts}}`;
    const short = `{"v":3,${counts},"empty":"00"}`;
    const unchecked = `{"v":2,${counts},"empty":"${'0'.repeat(256)}"}`;
    for (const cell of ['', 'x', '{"v":3}', '{"v":3,"buckets":1024}', before, unlisted, short, unchecked, 7])
      expect(parseStamp(cell), String(cell)).toBeNull();
    const stamp = {
      v: 3 as const,
      buckets: BUCKETS,
      ordersGridRows: 1000,
      linesGridRows: 2000,
      orders: 900,
      lines: 1800,
      lastOrderRow: 901,
      empty: formatEmpty(new Set([0, 5, 1023]), BUCKETS),
    };
    expect(parseStamp(formatStamp(stamp))).toEqual(stamp);
  });

  it('the stamp lists the empty buckets exactly, 4 a hex digit', () => {
    const empty = new Set([0, 3, 4, 511, 1023]);
    const hex = formatEmpty(empty, BUCKETS);
    expect(hex).toHaveLength(BUCKETS / 4);
    expect(parseEmpty(hex, BUCKETS)).toEqual(empty);
    expect(parseEmpty(formatEmpty(new Set(), BUCKETS), BUCKETS)).toEqual(new Set());
    for (const wrong of [hex.slice(1), 'g' + hex.slice(1), 'A' + hex.slice(1), 12, null])
      expect(parseEmpty(wrong, BUCKETS)).toBeNull();
  });

  it('ids spread over every bucket, and the largest store a spreadsheet holds fits a bucket cell', () => {
    const counts = new Array<number>(BUCKETS).fill(0);
    const orders = 185_000;
    for (let i = 0; i < orders; i++) counts[bucketOf(`ord_${i.toString(36).padStart(12, '0')}`, BUCKETS)]++;
    const fullest = Math.max(...counts);
    expect(Math.min(...counts)).toBeGreaterThan(0);
    // The fullest bucket, each order with a 20-character id, a 6-digit row and three line rows.
    const entries = new Map<string, OrderRows>();
    for (let i = 0; i < fullest; i++)
      entries.set(`ord_${String(i).padStart(16, '0')}`, { order: 100_000 + i, lines: [500_000, 500_001, 500_002] });
    expect(formatBucket(BUCKETS - 1, entries).length).toBeLessThan(BUCKET_MAX_CHARS);
  });
});
