/**
 * The incomplete-cost counts a formula reads are kept per day at sync time, so no formula scans
 * Orders. Whatever period is asked, the kept days give exactly what counting the Orders rows gives (costGapsOf:
 * same day filter, currency rule and whole cents), and what Google's property limits cannot hold
 * is said unknown (why it is not counted), never counted short.
 */
import { describe, expect, it } from 'vitest';
import { costGapsOf, type CostGapRow } from '../../src/server/finance/cost-gaps';
import { readCostGapDays, saveCostGapDays } from '../../src/server/finance/cost-gap-days-store';
import { PROPERTY_VALUE_MAX_BYTES, utf8Bytes } from '../../src/server/platform/property-size';

/** Document properties as Google keeps them, refusing a value over 9 KB. */
function fakeProperties(): GoogleAppsScript.Properties.Properties & { map: Map<string, string> } {
  const map = new Map<string, string>();
  const set = (key: string, value: string): void => {
    if (utf8Bytes(value) > PROPERTY_VALUE_MAX_BYTES) throw new Error(`Exceeded maximum property size: ${key}`);
    map.set(key, value);
  };
  return {
    map,
    getProperty: (key: string) => map.get(key) ?? null,
    getProperties: () => Object.fromEntries(map),
    setProperty(key: string, value: string) {
      set(key, value);
      return this;
    },
    setProperties(values: Record<string, string>) {
      for (const [k, v] of Object.entries(values)) set(k, v);
      return this;
    },
    deleteProperty(key: string) {
      map.delete(key);
      return this;
    },
  } as unknown as GoogleAppsScript.Properties.Properties & { map: Map<string, string> };
}

/** A deterministic mix: every status, cost state, currency spelling and amount the sheet can hold. */
function orderRows(count: number): CostGapRow[] {
  const currencies: unknown[] = ['USD', '', ' eur ', 'EUR', null, 'GBP', 42];
  const amounts: unknown[] = [12.34, 0.1, 0.2, 'n/a', 1999.99, NaN, 7];
  const days = [
    '2025-12-31',
    '2026-01-01',
    '2026-01-15',
    '2026-01-31',
    '2026-02-01',
    '2026-02-28',
    '2026-03-01',
    '2026-11-25',
    null,
    'not a day',
  ];
  return Array.from({ length: count }, (_, i) => ({
    status: ['active', 'active', 'cancelled', 'gone', 'active'][i % 5],
    placedDay: days[(i * 7) % days.length],
    netRevenue: amounts[(i * 3) % amounts.length],
    currency: currencies[(i * 5) % currencies.length],
    source: ['unknown', 'catalog', 'catalog', ''][i % 4],
    coverage: [0, 100, 60, null][(i * 11) % 4],
  }));
}

const PERIODS: Array<[string, string]> = [
  ['2025-12-01', '2026-12-31'],
  ['2026-01-01', '2026-01-31'],
  ['2026-01-15', '2026-02-28'],
  ['2026-02-01', '2026-02-01'],
  ['2026-03-02', '2026-11-24'],
  ['2024-01-01', '2025-12-30'],
];

describe('incomplete-cost counts kept per day', () => {
  it('give for every period exactly what counting the Orders rows gives', () => {
    const rows = orderRows(500);
    const props = fakeProperties();
    saveCostGapDays(props, rows);
    for (const [start, end] of PERIODS) {
      for (const currency of ['USD', 'EUR', null]) {
        expect(readCostGapDays(props, start, end, currency), `${start}…${end} ${currency}`).toEqual(
          costGapsOf(rows, currency, start, end),
        );
      }
    }
  });

  it('say whether they changed: the same rows again write nothing, a changed order does', () => {
    const rows = orderRows(200);
    const props = fakeProperties();
    expect(saveCostGapDays(props, rows)).toBe(true);
    const kept = new Map(props.map);
    expect(saveCostGapDays(props, rows)).toBe(false);
    expect(props.map).toEqual(kept);
    const corrected = rows.map((r, i) => (i === 0 ? { ...r, source: 'catalog', coverage: 100 } : r));
    expect(saveCostGapDays(props, corrected)).toBe(true);
    expect(readCostGapDays(props, '2025-01-01', '2026-12-31', 'USD')).toEqual(
      costGapsOf(corrected, 'USD', '2025-01-01', '2026-12-31'),
    );
  });

  it('write only the months that changed (each 16 KB a write moves is billed): one corrected order, its month alone', () => {
    const rows = orderRows(200);
    const props = fakeProperties();
    saveCostGapDays(props, rows);
    const written: string[][] = [];
    const setProperties = props.setProperties.bind(props);
    props.setProperties = (values: Record<string, string>) => (
      written.push(Object.keys(values)),
      setProperties(values)
    );
    const first = rows.findIndex(
      (r) => r.placedDay === '2026-01-15' && r.source === 'unknown' && r.status === 'active',
    );
    const corrected = rows.map((r, i) => (i === first ? { ...r, source: 'catalog', coverage: 100 } : r));
    expect(saveCostGapDays(props, corrected)).toBe(true);
    expect(written).toEqual([['ma.costGapDays.2026-01']]);
    expect(readCostGapDays(props, '2025-01-01', '2026-12-31', 'USD')).toEqual(
      costGapsOf(corrected, 'USD', '2025-01-01', '2026-12-31'),
    );
  });

  it('are unknown before a sync counted them, and when the Orders sheet had no rows', () => {
    const props = fakeProperties();
    expect(readCostGapDays(props, '2026-01-01', '2026-01-31', 'USD')).toEqual({ notCounted: 'not-synced' });
    saveCostGapDays(props, []);
    expect(readCostGapDays(props, '2026-01-01', '2026-01-31', 'USD')).toEqual({ notCounted: 'not-synced' });
  });

  it('replace what an earlier sync kept: a month no longer holding orders is removed and counts 0', () => {
    const props = fakeProperties();
    saveCostGapDays(props, orderRows(100));
    const february = [...props.map.keys()].filter((k) => k.endsWith('2026-02'));
    expect(february).toHaveLength(1);
    const later = orderRows(100).filter((r) => !(r.placedDay ?? '').startsWith('2026-02'));
    saveCostGapDays(props, later);
    expect(props.map.has(february[0])).toBe(false);
    expect(readCostGapDays(props, '2026-02-01', '2026-02-28', 'USD')).toEqual({
      orders: 0,
      netRevenue: 0,
      ordersCounted: 0,
      otherCurrencies: [],
    });
  });

  it('a month Google cannot hold in one property is unknown, never counted short; other months still count', () => {
    // 31 days each with more currencies than 9 KB can list.
    const rows: CostGapRow[] = [];
    for (let d = 1; d <= 31; d++) {
      for (let c = 0; c < 40; c++) {
        rows.push({
          status: 'active',
          placedDay: `2026-01-${String(d).padStart(2, '0')}`,
          netRevenue: 1,
          currency: `C${String(c).padStart(2, '0')}`,
          source: 'unknown',
          coverage: 0,
        });
      }
    }
    rows.push({
      status: 'active',
      placedDay: '2026-02-03',
      netRevenue: 5,
      currency: 'USD',
      source: 'unknown',
      coverage: 0,
    });
    const props = fakeProperties();
    saveCostGapDays(props, rows);
    expect(readCostGapDays(props, '2026-01-20', '2026-02-10', 'USD')).toEqual({
      notCounted: 'month-too-big',
      month: '2026-01',
    });
    expect(readCostGapDays(props, '2026-02-01', '2026-02-10', 'USD')).toEqual(
      costGapsOf(rows, 'USD', '2026-02-01', '2026-02-10'),
    );
  });

  it('a period reaching before the orders window is not counted (Orders holds none of its earlier orders); one within it is', () => {
    const rows = orderRows(300).filter(
      (r) => r.placedDay === null || !/^\d{4}-\d{2}-\d{2}$/.test(r.placedDay) || r.placedDay >= '2026-01-15',
    );
    const props = fakeProperties();
    saveCostGapDays(props, rows, '2026-01-15');
    expect(readCostGapDays(props, '2025-12-01', '2025-12-31', 'USD')).toEqual({
      notCounted: 'orders-window',
      since: '2026-01-15',
    });
    expect(readCostGapDays(props, '2026-01-01', '2026-01-31', 'USD')).toEqual({
      notCounted: 'orders-window',
      since: '2026-01-15',
    });
    expect(readCostGapDays(props, '2026-01-15', '2026-02-28', 'USD')).toEqual(
      costGapsOf(rows, 'USD', '2026-01-15', '2026-02-28'),
    );
  });

  it("an order whose net_revenue cell holds no number makes its day's net revenue in its currency unknown, never summed as 0", () => {
    const gap = { status: 'active', placedDay: '2026-03-04', source: 'unknown', coverage: 0 };
    const rows: CostGapRow[] = [
      { ...gap, netRevenue: 10, currency: 'USD' },
      { ...gap, netRevenue: '', currency: 'USD' },
      { ...gap, netRevenue: 7, currency: 'EUR' },
      { ...gap, netRevenue: 5, currency: 'GBP' },
      { ...gap, netRevenue: null, currency: 'GBP' },
    ];
    const props = fakeProperties();
    saveCostGapDays(props, rows);
    const read = readCostGapDays(props, '2026-03-01', '2026-03-31', 'USD');
    expect(read).toEqual({
      orders: 5,
      netRevenue: null,
      ordersCounted: 5,
      otherCurrencies: [
        { currency: 'EUR', orders: 1, netRevenue: 7 },
        { currency: 'GBP', orders: 2, netRevenue: null },
      ],
    });
    expect(read).toEqual(costGapsOf(rows, 'USD', '2026-03-01', '2026-03-31'));
  });
});
