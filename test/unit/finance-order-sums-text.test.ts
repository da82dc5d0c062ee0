/**
 * The Orders day sums as stored (order-sums-text.ts): what is read back is exactly what was saved,
 * whatever a day holds (days that do not follow, counts that disagree, negative and fractional
 * amounts, net revenue other than gross less refunds, unread amounts, inconsistent orders, cost
 * gaps in odd currencies, separators inside text), each half month in values under the 9 KB limit, and a
 * change to one day changes only its half month's values.
 */
import { describe, expect, it } from 'vitest';
import type { DaySums } from '../../src/server/finance/order-day-sums';
import { decodeDaySums, encodeDaySums } from '../../src/server/finance/order-sums-text';
import { TIEOUT_COMPARED } from '../../src/server/sheets/schema';

const FIGURES = TIEOUT_COMPARED.length;

function day(seed: number, extra: Partial<DaySums> = {}): DaySums {
  const cents = Array.from({ length: FIGURES }, (_, i) => ((seed * 7919 + i * 104_729) % 2_000_000) - 400_000);
  return {
    rows: 3,
    count: 3,
    other: 0,
    counted: 3,
    cents,
    unknown: cents.map(() => 0),
    inconsistent: [],
    gaps: {},
    ...extra,
  };
}

function roundTrip(days: Map<string, DaySums>): Map<string, DaySums> {
  const back = new Map<string, DaySums>();
  for (const [group, values] of encodeDaySums(days)) decodeDaySums(group, values, back);
  return back;
}

const bytes = (s: string): number => Buffer.byteLength(s);

describe('the day sums as stored', () => {
  it('read back exactly what was saved, in every case a day can hold', () => {
    const days = new Map<string, DaySums>([
      ['2026-01-01', day(1)],
      ['2026-01-02', day(2, { rows: 5, count: 3, other: 1, counted: 2 })],
      ['2026-01-05', day(3, { cents: Array.from({ length: FIGURES }, (_, i) => (i === 0 ? 12.5 : 0)) })],
      ['2026-01-06', day(4, { cents: Array.from({ length: FIGURES }, () => 0) })],
      ['2026-01-31', day(5, { unknown: Array.from({ length: FIGURES }, (_, i) => (i === 2 ? 1 : 0)) })],
      ['2026-02-01', day(6, { inconsistent: ['ord_1 (net_margin_pct|x)', 'ord_2 (a,b;c:d\nz)'] })],
      ['2026-02-03', day(7, { gaps: { USD: [2, -1500, 0], '': [1, 0, 1], 'E:U;R|': [1, 99, 0] } })],
      [
        '2026-03-10',
        day(8, { cents: Array.from({ length: FIGURES }, (_, i) => (i === 1 ? Number.MAX_SAFE_INTEGER : -1)) }),
      ],
    ]);
    expect(roundTrip(days)).toEqual(days);
  });

  it('keep each month in values under the property size limit, and a day changed changes only its half month', () => {
    const days = new Map<string, DaySums>();
    for (let m = 1; m <= 3; m++)
      for (let d = 1; d <= 28; d++)
        days.set(
          `2026-0${m}-${String(d).padStart(2, '0')}`,
          day(m * 100 + d, { inconsistent: d === 9 ? ['x'.repeat(20_000)] : [] }),
        );
    const before = encodeDaySums(days);
    expect([...before.keys()]).toEqual([
      '2026-01-01',
      '2026-01-16',
      '2026-02-01',
      '2026-02-16',
      '2026-03-01',
      '2026-03-16',
    ]);
    for (const values of before.values()) for (const value of values) expect(bytes(value)).toBeLessThanOrEqual(8_500);
    expect(before.get('2026-02-01')!.length).toBeGreaterThan(2);
    expect(roundTrip(days)).toEqual(days);
    days.set('2026-03-04', day(1));
    const after = encodeDaySums(days);
    expect(after.get('2026-01-01')).toEqual(before.get('2026-01-01'));
    expect(after.get('2026-03-16')).toEqual(before.get('2026-03-16'));
    expect(after.get('2026-03-01')).not.toEqual(before.get('2026-03-01'));
  });

  it('are refused when damaged, never read as other sums', () => {
    const values = encodeDaySums(new Map([['2026-01-01', day(1)]])).get('2026-01-01')!;
    expect(() => decodeDaySums('2026-01-01', [values[0]!.replace(',', ',*')], new Map())).toThrow();
  });
});
