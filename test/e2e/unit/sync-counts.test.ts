/**
 * What a sync wrote, per sheet, in one line that reads the same as the run's Sync log row, and the
 * words for a paused run.
 */
import { describe, expect, it } from 'vitest';
import {
  countsText,
  emptyCounts,
  packCounts,
  rowsWritten,
  sumCounts,
  unpackCounts,
} from '../../../src/contract/counts-text';
import { pauseMessage, resumeTimeText } from '../../../src/server/sync/failures';

describe('sync counts name orders, line items, products, variants and days, never pages', () => {
  it('every figure is said, zeros included, with cancelled and gone orders when there are some', () => {
    const counts = {
      ...emptyCounts(),
      ordersAdded: 1200,
      ordersUpdated: 40,
      ordersCancelled: 2,
      ordersGone: 3,
      lineItems: 3410,
      products: 12,
      variants: 30,
      days: 90,
    };
    expect(countsText(counts)).toBe(
      'Orders: 1,200 new, 40 updated (2 cancelled), 3 gone · 3,410 line items · 12 products · 30 variants · 90 days of P&L',
    );
  });

  it('a run that wrote nothing says 0 updated, not "Nothing new to write"', () => {
    expect(countsText(emptyCounts())).toBe(
      'Orders: 0 new, 0 updated · 0 line items · 0 products · 0 variants · 0 days of P&L',
    );
    const one = { ...emptyCounts(), ordersAdded: 1, lineItems: 1, products: 1, variants: 1, days: 1 };
    expect(countsText(one)).toBe('Orders: 1 new, 0 updated · 1 line item · 1 product · 1 variant · 1 day of P&L');
    expect(rowsWritten(emptyCounts())).toBe(0);
  });

  it("steps add up, and a run's counts survive being kept compactly with its record", () => {
    const a = { ...emptyCounts(), ordersAdded: 250, lineItems: 700 };
    const b = { ...emptyCounts(), ordersUpdated: 5, ordersCancelled: 1, lineItems: 9, days: 2 };
    const sum = sumCounts(a, b);
    expect(sum).toEqual({
      ordersAdded: 250,
      ordersUpdated: 5,
      ordersCancelled: 1,
      ordersRestored: 0,
      ordersGone: 0,
      lineItems: 709,
      products: 0,
      variants: 0,
      days: 2,
    });
    expect(unpackCounts(packCounts(sum))).toEqual(sum);
    expect(unpackCounts(undefined)).toBeNull();
    expect(unpackCounts([1, 2])).toBeNull();
  });

  it('a restored row is said apart from new orders, and a record of an older version (8 numbers) has none restored', () => {
    const restored = { ...emptyCounts(), ordersUpdated: 3, ordersRestored: 1 };
    expect(countsText(restored)).toBe(
      'Orders: 0 new, 3 updated (1 restored: a deleted row put back) · 0 line items · 0 products · 0 variants · 0 days of P&L',
    );
    expect(unpackCounts(packCounts(restored))).toEqual(restored);
    expect(unpackCounts([5, 2, 0, 0, 7, 0, 0, 1])).toEqual({
      ...emptyCounts(),
      ordersAdded: 5,
      ordersUpdated: 2,
      lineItems: 7,
      days: 1,
    });
  });
});

describe("a run paused for the hourly reserve says when it resumes, in the spreadsheet's time zone", () => {
  const now = Date.parse('2026-11-21T12:00:00Z');
  it('today: the time only', () => {
    expect(resumeTimeText(Date.parse('2026-11-21T13:05:00Z'), 'Europe/Berlin', now)).toBe('14:05 (Europe/Berlin time)');
    expect(pauseMessage(Date.parse('2026-11-21T13:05:00Z'), 'Europe/Berlin', now)).toMatch(
      /resumes after 14:05 \(Europe\/Berlin time\)\.$/,
    );
  });
  it('another day there: with the date', () => {
    expect(resumeTimeText(Date.parse('2026-11-21T15:30:00Z'), 'Asia/Tokyo', now)).toBe(
      '00:30 on 2026-11-22 (Asia/Tokyo time)',
    );
  });
});
