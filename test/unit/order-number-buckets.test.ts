/**
 * The order number index's cells: "#1001", "# 1001" and "1001" are one number; a bucket reads back
 * as written, numbers and ids with separators included; a cell or stamp the index did not write
 * (a user's text, the row index's own stamp, a cleared cell) is refused.
 */
import { describe, expect, it } from 'vitest';
import {
  formatNumbers,
  formatNumberStamp,
  isNumberStamp,
  numberBucket,
  numberKey,
  parseNumbers,
} from '../../src/server/sheets/order-number-buckets';
import { BUCKETS, formatStamp } from '../../src/server/sheets/row-index-buckets';

describe('order number buckets', () => {
  it('a number is looked up the same however it is typed, in one of the buckets', () => {
    expect(['#1001', '# 1001', ' 1001 ', 1001].map(numberKey)).toEqual(['1001', '1001', '1001', '1001']);
    expect(numberKey('#SO-17a')).toBe(numberKey('#so-17A'));
    expect(numberKey(null)).toBe('');
    const { bucket, row } = numberBucket('1001');
    expect(bucket).toBeGreaterThanOrEqual(0);
    expect(bucket).toBeLessThan(BUCKETS);
    expect(row).toBe(bucket + 2);
  });

  it('a bucket reads back as written, separators included', () => {
    const entries = new Map([
      ['1001', 'ord_a1'],
      ['a=b;c', 'ord_x=y;z'],
    ]);
    expect(parseNumbers(formatNumbers(entries))).toEqual(entries);
    expect(parseNumbers('')).toEqual(new Map());
  });

  it('a cell or stamp the index did not write is refused', () => {
    for (const cell of ['my note', '1001', '1001=', '=ord_a', 42, true, '1001=ord_a;;1002=ord_b', '%E0%A4%A=ord_a'])
      expect(parseNumbers(cell), String(cell)).toBeNull();
    expect(isNumberStamp(formatNumberStamp())).toBe(true);
    const rowStamp = formatStamp({
      v: 1,
      buckets: BUCKETS,
      ordersGridRows: 10,
      linesGridRows: 10,
      orders: 1,
      lines: 1,
      lastOrderRow: 2,
    });
    for (const cell of ['', 'my note', rowStamp, 7, JSON.stringify({ v: 1, index: 'order_numbers', buckets: 12 })])
      expect(isNumberStamp(cell), String(cell)).toBe(false);
  });
});
