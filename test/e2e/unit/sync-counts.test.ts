/**
 * What a sync wrote, per sheet, from the jobs' tally (which counts their main records as
 * inserted/updated and every row written as rows), and the words for a paused run.
 */
import { describe, expect, it } from 'vitest';
import { countsText } from '../../../src/contract/counts-text';
import { pauseMessage, resumeTimeText } from '../../../src/server/sync/failures';
import { emptyCounts } from '../../../src/contract/counts-text';
import { addJobCounts } from '../../../src/server/sync/progress';

const zero = { inserted: 0, updated: 0, gone: 0, rows: 0 };

describe('sync counts name orders, line items, products, variants and days, never pages', () => {
  it('an orders page of 200 new and 50 changed orders with 600 line items', () => {
    const counts = addJobCounts(emptyCounts(), 'orders', zero, { inserted: 200, updated: 50, gone: 0, rows: 850 });
    expect(counts).toEqual({ ordersAdded: 200, ordersUpdated: 50, lineItems: 600, products: 0, variants: 0, days: 0 });
  });

  it('products with their variants, days of the Daily P&L, and orders marked gone by reconciliation', () => {
    let counts = addJobCounts(emptyCounts(), 'products', zero, { inserted: 10, updated: 2, gone: 0, rows: 40 });
    counts = addJobCounts(counts, 'daily', { inserted: 10, updated: 2, gone: 0, rows: 40 }, { inserted: 100, updated: 2, gone: 0, rows: 130 });
    counts = addJobCounts(counts, 'reconcile', zero, { inserted: 0, updated: 250, gone: 3, rows: 253 + 700 });
    expect(counts).toEqual({ ordersAdded: 0, ordersUpdated: 253, lineItems: 700, products: 12, variants: 28, days: 90 });
    expect(countsText(counts)).toBe('0 orders added, 253 updated · 700 line items · 12 products · 28 variants · 90 days of P&L');
  });

  it('a run that wrote nothing says so', () => {
    expect(countsText(emptyCounts())).toBe('Nothing new to write');
    expect(countsText({ ...emptyCounts(), ordersAdded: 1, lineItems: 1 })).toBe('1 order added, 0 updated · 1 line item');
  });
});

describe('a run paused for the hourly reserve says when it resumes, in the spreadsheet\'s time zone', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');
  it('today: the time only', () => {
    expect(resumeTimeText(Date.parse('2026-11-21T13:05:00Z'), 'Europe/Berlin', now)).toBe('14:05 (Europe/Berlin time)');
    expect(pauseMessage(Date.parse('2026-11-21T13:05:00Z'), 'Europe/Berlin', now)).toMatch(/resumes after 14:05 \(Europe\/Berlin time\)\.$/);
  });
  it('another day there: with the date', () => {
    expect(resumeTimeText(Date.parse('2026-11-21T15:30:00Z'), 'Asia/Tokyo', now)).toBe('00:30 on 2026-11-22 (Asia/Tokyo time)');
  });
});
