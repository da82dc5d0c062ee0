/**
 * The progress estimate (src/server/sync/progress.ts): measured only where the sync can measure —
 * the orders watermark's way to now, the daily job's days — monotonic, and 100 % only when done.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_UNTIL_DONE,
  monotonicFraction,
  ordersShare,
  overallFraction,
  positionShare,
} from '../../src/server/sync/progress';

const NOW = Date.parse('2026-11-21T12:00:00Z');

describe('orders: the watermark walks from where the run began towards now', () => {
  it('is the share of that distance covered', () => {
    expect(ordersShare('2026-11-01T12:00:00Z', '2026-11-11T12:00:00Z', NOW)).toBeCloseTo(0.5, 10);
    expect(ordersShare('2026-11-01T12:00:00Z', '2026-11-01T12:00:00Z', NOW)).toBe(0);
  });

  it('is unknown without both marks, with an unreadable mark, or when the start is not in the past', () => {
    expect(ordersShare(null, '2026-11-11T12:00:00Z', NOW)).toBeNull();
    expect(ordersShare('2026-11-01T12:00:00Z', null, NOW)).toBeNull();
    expect(ordersShare('garbage', '2026-11-11T12:00:00Z', NOW)).toBeNull();
    expect(ordersShare('2026-11-21T12:00:00Z', '2026-11-21T12:00:00Z', NOW)).toBeNull();
  });

  it('stays within 0..1 when a late writer puts the mark past now', () => {
    expect(ordersShare('2026-11-01T12:00:00Z', '2026-11-22T00:00:00Z', NOW)).toBe(1);
  });
});

describe('daily: the days of the window are known', () => {
  it('is days done over days in the window', () => {
    expect(positionShare({ done: 100, total: 400, unit: 'days' })).toBe(0.25);
    expect(positionShare(null)).toBeNull();
    expect(positionShare({ done: 0, total: 0, unit: 'days' })).toBeNull();
  });
});

describe('the whole sync: each job has its span of the bar', () => {
  it('orders fill the first 80 %, products and the daily job follow', () => {
    expect(overallFraction('orders', 0.5)).toBeCloseTo(0.4, 10);
    expect(overallFraction('products', null)).toBe(0.8);
    expect(overallFraction('daily', 0.5)).toBeCloseTo(0.95, 10);
  });

  it('orders with an unknown share give an unknown fraction (indeterminate bar)', () => {
    expect(overallFraction('orders', null)).toBeNull();
    expect(overallFraction(null, 0.5)).toBeNull();
  });

  it('never says 100 % before done, even at the end of the last job', () => {
    expect(overallFraction('daily', 1)).toBe(MAX_UNTIL_DONE);
    expect(monotonicFraction(null, 1, false)).toBe(MAX_UNTIL_DONE);
    expect(monotonicFraction(0.3, null, true)).toBe(1);
  });
});

describe('the bar never moves back', () => {
  it('keeps the larger of what it showed and the new estimate', () => {
    expect(monotonicFraction(0.6, 0.4, false)).toBe(0.6);
    expect(monotonicFraction(0.4, 0.6, false)).toBe(0.6);
    expect(monotonicFraction(0.6, null, false)).toBe(0.6);
    expect(monotonicFraction(null, null, false)).toBeNull();
  });

  it('a sequence of steps through every job is non-decreasing and ends at 1', () => {
    const steps: Array<[Parameters<typeof overallFraction>[0], number | null, boolean]> = [
      ['orders', 0.2, false],
      ['orders', 0.1, false], // a late writer pulled the mark back
      ['orders', 0.9, false],
      ['products', null, false],
      ['daily', 0.3, false],
      ['daily', 1, false],
      ['daily', 1, true],
    ];
    let shown: number | null = null;
    const seen: number[] = [];
    for (const [job, share, done] of steps) {
      shown = monotonicFraction(shown, overallFraction(job, share), done);
      seen.push(shown ?? 0);
    }
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]);
    expect(seen.slice(0, -1).every((f) => f < 1)).toBe(true);
    expect(seen[seen.length - 1]).toBe(1);
  });
});
