/**
 * The order number index's cells: a number is kept exactly as the store shows it (spec 2.1: a
 * display string; case counts); a bucket reads back as written at its own row, numbers and ids
 * with separators included, a number shown on two orders with both; a cell or stamp the index did
 * not write (a user's text, the row index's own stamp, a cleared cell, another bucket's cell moved
 * there, the format before bucket numbers) is refused.
 */
import { describe, expect, it } from 'vitest';
import {
  formatNumbers,
  formatNumberStamp,
  isListable,
  isNumberStamp,
  numberBucket,
  numberKey,
  parseNumbers,
} from '../../src/server/sheets/order-number-buckets';
import { BUCKETS, formatStamp } from '../../src/server/sheets/row-index-buckets';

describe('order number buckets', () => {
  it('a number is kept as the store shows it, case and # included, in one of the buckets', () => {
    expect(['#1001', ' #1001 ', 'SO-1001', '#EU 1001', '#1001.2', 1001].map(numberKey)).toEqual([
      '#1001',
      ' #1001 ',
      'SO-1001',
      '#EU 1001',
      '#1001.2',
      '1001',
    ]);
    expect(numberKey('#AB100')).not.toBe(numberKey('#ab100'));
    expect(numberKey(null)).toBe('');
    expect(numberKey('  ')).toBe('');
    const { bucket, row } = numberBucket('#1001');
    expect(bucket).toBeGreaterThanOrEqual(0);
    expect(bucket).toBeLessThan(BUCKETS);
    expect(row).toBe(bucket + 2);
  });

  it('a bucket reads back as written at its own row, separators and a number on two orders included', () => {
    const entries = new Map([
      ['#1001', ['ord_a1']],
      ['a=b;c|d', ['ord_x=y;z']],
      ['#1002', ['ord_b', 'ord_c']],
    ]);
    expect(parseNumbers(formatNumbers(5, entries), 5)).toEqual(entries);
    expect(parseNumbers(formatNumbers(5, new Map()), 5)).toEqual(new Map());
  });

  it('a cell edited by hand and left well formed (an entry cut out, one crafted) is refused', () => {
    const cell = formatNumbers(
      5,
      new Map([
        ['#1001', ['ord_a1']],
        ['#1002', ['ord_b2']],
      ]),
    );
    expect(parseNumbers(cell, 5)?.size).toBe(2);
    for (const edited of [
      cell.replace(';%231002=ord_b2', ''),
      cell.replace('ord_b2', 'ord_crafted0000'),
      `${cell};%231003=ord_c3`,
    ])
      expect(parseNumbers(edited, 5), edited).toBeNull();
  });

  it('a number too long for its bucket, or one no entry can hold, is not listed; a store number is', () => {
    for (const listed of ['#1001', '#EU 1001', 'Ä'.repeat(33)]) expect(isListable(listed), listed).toBe(true);
    for (const unlisted of ['', `#EU ${'Ä'.repeat(8_000)}`, 'Ä'.repeat(34), '#\ud800'])
      expect(isListable(unlisted), unlisted.slice(0, 20)).toBe(false);
  });

  it('a cell or stamp the index did not write, or written for another bucket, is refused', () => {
    const cell = formatNumbers(5, new Map([['#1001', ['ord_a1']]]));
    expect(parseNumbers(cell, 6)).toBeNull();
    expect(parseNumbers(formatNumbers(6, new Map()), 5)).toBeNull();
    for (const other of [
      '',
      'my note',
      '1001',
      '#1001=ord_a1',
      '5|1001=',
      '5|=ord_a',
      42,
      true,
      '5|1001=ord_a;;1002=ord_b',
    ])
      expect(parseNumbers(other, 5), String(other)).toBeNull();
    expect(parseNumbers('5|%E0%A4%A=ord_a', 5)).toBeNull();
    // The format before checksums: a column built again, not read.
    expect(parseNumbers('5|%231001=ord_a1', 5)).toBeNull();
    expect(isNumberStamp(formatNumberStamp())).toBe(true);
    const rowStamp = formatStamp({
      v: 3,
      buckets: BUCKETS,
      ordersGridRows: 10,
      linesGridRows: 10,
      orders: 1,
      lines: 1,
      lastOrderRow: 2,
      empty: '0'.repeat(BUCKETS / 4),
    });
    const before = JSON.stringify({ v: 1, index: 'order_numbers', buckets: BUCKETS });
    const unchecked = JSON.stringify({ v: 2, index: 'order_numbers', buckets: BUCKETS });
    for (const stamp of [
      '',
      'my note',
      rowStamp,
      before,
      unchecked,
      7,
      JSON.stringify({ v: 3, index: 'order_numbers', buckets: 12 }),
    ])
      expect(isNumberStamp(stamp), String(stamp)).toBe(false);
  });
});
