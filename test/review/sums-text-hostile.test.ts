/**
 * Review probes, unit level: hostile day sums through order-sums-text's exported functions.
 * What is read back must be exactly what was saved (a wrong sum is a false ✓ or ✗ on Checks).
 */
import { describe, expect, it } from 'vitest';
import type { DaySums } from '../../src/server/finance/order-day-sums';
import { OrderDaySums } from '../../src/server/finance/order-day-sums';
import { decodeDaySums, encodeDaySums } from '../../src/server/finance/order-sums-text';
import { TIEOUT_COMPARED } from '../../src/server/sheets/schema';

const N = TIEOUT_COMPARED.length;
const at = (name: string): number => TIEOUT_COMPARED.findIndex((f) => f.figure === name);
const GROSS = at('gross_revenue');
const REFUNDS = at('refunds');
const NET = at('net_revenue');

function day(cents: number[] = Array.from({ length: N }, () => 0), extra: Partial<DaySums> = {}): DaySums {
  return {
    rows: 1,
    count: 1,
    other: 0,
    counted: 1,
    cents,
    unknown: cents.map(() => 0),
    inconsistent: [],
    gaps: {},
    ...extra,
  };
}
function withFigures(values: Record<number, number>): number[] {
  return Array.from({ length: N }, (_, i) => values[i] ?? 0);
}
function roundTrip(days: Map<string, DaySums>): Map<string, DaySums> {
  const back = new Map<string, DaySums>();
  for (const [group, values] of encodeDaySums(days)) decodeDaySums(group, values, back);
  return back;
}

describe('hostile amounts read back exactly', () => {
  it('refunds larger than revenue, negative gross, 0.01, past 2^31 and past 2^53 cents', () => {
    const days = new Map<string, DaySums>([
      ['2026-11-01', day(withFigures({ [GROSS]: 1000, [REFUNDS]: 250_000, [NET]: -249_000 }))],
      ['2026-11-02', day(withFigures({ [GROSS]: -1, [REFUNDS]: 0, [NET]: -1 }))],
      ['2026-11-03', day(withFigures({ [GROSS]: 1, [REFUNDS]: 0, [NET]: 1 }))],
      ['2026-11-04', day(withFigures({ [GROSS]: 2 ** 31 + 7, [REFUNDS]: 2 ** 31 - 3, [NET]: 10 }))],
      ['2026-11-05', day(withFigures({ [GROSS]: 2 ** 53 + 2, [REFUNDS]: 3, [NET]: 2 ** 53 - 1 }))],
      [
        '2026-11-06',
        day(withFigures({ [GROSS]: Number.MAX_SAFE_INTEGER, [REFUNDS]: -Number.MAX_SAFE_INTEGER, [NET]: 5 })),
      ],
      [
        '2026-11-07',
        day(withFigures({ [GROSS]: 123_456_789_012_345, [REFUNDS]: 98_765_432_109_876, [NET]: 24_691_356_902_469 })),
      ],
      ['2026-11-08', day(withFigures({ [GROSS]: 0, [REFUNDS]: 0.5, [NET]: 1e21 }))],
    ]);
    expect(roundTrip(days)).toEqual(days);
  });

  it('null is never 0: unknown figures, and a cost gap whose net revenue is unknown, read back as unknown', () => {
    const unknown = Array.from({ length: N }, (_, i) => (i % 2 === 0 ? 1 : 0));
    const days = new Map<string, DaySums>([
      ['2026-11-30', day(withFigures({}), { unknown, gaps: { '': [2, 0, 2], EUR: [1, 0, 1] } })],
      ['2026-12-01', day(withFigures({ [GROSS]: 5 }), { gaps: { USD: [3, 0, 1] } })],
    ]);
    const back = roundTrip(days);
    expect(back).toEqual(days);
    const sums = new OrderDaySums(back, 'USD');
    const nov30 = sums.orderDays().get('2026-11-30')!;
    expect(nov30.cents[TIEOUT_COMPARED[0].figure]).toBeNull();
    expect(sums.costGapMonths().get('2026-12')?.['01']).toEqual([1, ['USD', 3, null]]);
  });

  it('a day of no active order (rows but no count) and counts that disagree read back', () => {
    const days = new Map<string, DaySums>([
      ['2026-11-09', day(withFigures({}), { rows: 4, count: 0, other: 0, counted: 0 })],
      ['2026-11-10', day(withFigures({ [GROSS]: 9 }), { rows: 4, count: 1, other: 3, counted: 4 })],
    ]);
    expect(roundTrip(days)).toEqual(days);
  });

  it('many cost-gap kinds: 60 currencies, odd codes, unknown currency', () => {
    const gaps: DaySums['gaps'] = {};
    for (let i = 0; i < 60; i++) gaps[`C${String(i).padStart(2, '0')}`] = [i + 1, (i - 30) * 1_000_003, i % 3];
    gaps[''] = [1, 0, 1];
    gaps['%;:|,\n='] = [1, -5, 0];
    const days = new Map<string, DaySums>([['2026-11-11', day(withFigures({}), { gaps })]]);
    expect(roundTrip(days)).toEqual(days);
  });
});

describe('days at the edges', () => {
  it('month ends, leap days, a half month of 16 days, every day of two years', () => {
    const days = new Map<string, DaySums>();
    const start = Date.UTC(2027, 11, 1);
    for (let d = 0; d < 800; d++) {
      const iso = new Date(start + d * 86_400_000).toISOString().slice(0, 10);
      if (d % 7 === 3) continue; // gaps between days
      days.set(iso, day(withFigures({ [GROSS]: d * 101, [REFUNDS]: d, [NET]: d * 100 + (d % 5) })));
    }
    for (const iso of [
      '2028-02-29',
      '2028-02-28',
      '2028-02-16',
      '2028-03-31',
      '2028-01-31',
      '2028-01-15',
      '2028-01-16',
    ])
      days.set(iso, day(withFigures({ [GROSS]: 7 })));
    const groups = encodeDaySums(days);
    expect([...groups.keys()].every((g) => /^\d{4}-\d{2}-(01|16)$/.test(g))).toBe(true);
    expect(roundTrip(days)).toEqual(days);
  });

  it('a day that is not an ISO date sorted between two days of one half month does not move the day after it', () => {
    // dayKey gives ISO days today; a day key like '2026-11-02 ' (a stray space) is grouped apart ('x')
    // but is still "the line before" when the next ISO line decides whether it follows.
    const days = new Map<string, DaySums>([
      ['2026-11-01', day(withFigures({ [GROSS]: 1 }))],
      ['2026-11-02 ', day(withFigures({ [GROSS]: 2 }))],
      ['2026-11-03', day(withFigures({ [GROSS]: 3 }))],
    ]);
    expect([...roundTrip(days).keys()].sort()).toEqual([...days.keys()].sort());
  });
});

describe('values near the limits', () => {
  it('a half month with 10,000 inconsistent orders: every value under 9 KB, and how big the store grows', () => {
    const days = new Map<string, DaySums>();
    let n = 0;
    for (let d = 1; d <= 15; d++) {
      const inconsistent = Array.from(
        { length: 667 },
        () => `ord_${String(++n).padStart(8, '0')} (net_margin_pct, contribution_margin_pct)`,
      );
      days.set(
        `2026-11-${String(d).padStart(2, '0')}`,
        day(withFigures({ [GROSS]: d }), { inconsistent, count: 667, rows: 667, counted: 667 }),
      );
    }
    const groups = encodeDaySums(days);
    const values = [...groups.values()].flat();
    const total = values.reduce((s, v) => s + Buffer.byteLength(v), 0);
    console.log(`15 days x 667 inconsistent orders: ${values.length} values, ${total} bytes`);
    expect(values.every((v) => Buffer.byteLength(v) <= 8_500)).toBe(true);
    expect(roundTrip(days)).toEqual(days);
    // The whole store holds 500 KB; these sums alone, for one half month, take this share of it:
    expect(total, 'one half month of an all-inconsistent store past the 500 KB store limit').toBeLessThan(500 * 1024);
  });

  it('multibyte text in an inconsistent order id split across values reads back', () => {
    const inconsistent = Array.from({ length: 400 }, (_, i) => `ord_€😀${i} (net_margin_pct)`);
    const days = new Map<string, DaySums>([['2026-11-20', day(withFigures({ [GROSS]: 1 }), { inconsistent })]]);
    const values = encodeDaySums(days).get('2026-11-16')!;
    expect(values.length).toBeGreaterThan(1);
    expect(values.every((v) => Buffer.byteLength(v) <= 8_500)).toBe(true);
    expect(roundTrip(days)).toEqual(days);
  });
});

describe('a value changed by hand', () => {
  it('a digit changed in a stored value is refused, not read as other sums (no check that the text is the one saved)', () => {
    const days = new Map<string, DaySums>([
      ['2026-11-16', day(withFigures({ [GROSS]: 12_345, [REFUNDS]: 100, [NET]: 12_245 }))],
      ['2026-11-17', day(withFigures({ [GROSS]: 999 }))],
    ]);
    const [[group, [value]]] = [...encodeDaySums(days)] as [[string, string[]]];
    const changed = value!.replace(/,/, ',1');
    expect(changed).not.toBe(value);
    const back = new Map<string, DaySums>();
    expect(() => decodeDaySums(group, [changed], back), `read back as ${JSON.stringify([...back])}`).toThrow();
  });

  it('a value cut short (a line lost) is refused', () => {
    const days = new Map<string, DaySums>([
      ['2026-11-16', day(withFigures({ [GROSS]: 1 }))],
      ['2026-11-17', day(withFigures({ [GROSS]: 2 }))],
    ]);
    const [[group, [value]]] = [...encodeDaySums(days)] as [[string, string[]]];
    const cut = value!.split('\n')[0]!;
    const back = new Map<string, DaySums>();
    expect(() => decodeDaySums(group, [cut], back), `read back as ${JSON.stringify([...back.keys()])}`).toThrow();
  });
});
