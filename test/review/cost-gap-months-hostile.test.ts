/**
 * Review probes, unit level: cost-gap months written only when changed (cost-gap-days-store.ts),
 * against an in-memory document store that keeps Google's 9 KB / 500 KB limits' shape (a value
 * map; a deleteProperty that can be stopped, as an execution ended between two calls).
 */
import { describe, expect, it } from 'vitest';
import type { CostGapMonth } from '../../src/server/finance/cost-gap-days';
import { readCostGapDays, saveCostGapMonths } from '../../src/server/finance/cost-gap-days-store';

class Store {
  values = new Map<string, string>();
  stopDeletes = false;
  getProperties(): Record<string, string> {
    return Object.fromEntries(this.values);
  }
  getProperty(key: string): string | null {
    return this.values.get(key) ?? null;
  }
  setProperties(values: Record<string, string>): this {
    for (const [k, v] of Object.entries(values)) this.values.set(k, v);
    return this;
  }
  deleteProperty(key: string): this {
    if (this.stopDeletes) throw new Error('Exceeded maximum execution time');
    this.values.delete(key);
    return this;
  }
}

const month = (day: string, orders: number): CostGapMonth =>
  ({ [day]: [orders + 1, ['USD', orders, orders * 1234]] }) as unknown as CostGapMonth;

/** October and November counted and saved. */
function twoMonthsSaved(): { store: Store; props: GoogleAppsScript.Properties.Properties } {
  const store = new Store();
  const props = store as unknown as GoogleAppsScript.Properties.Properties;
  saveCostGapMonths(
    props,
    new Map([
      ['2026-10', month('03', 2)],
      ['2026-11', month('05', 1)],
    ]),
    10,
  );
  return { store, props };
}

describe('cost-gap months', () => {
  it('a month no longer counted and left behind by a save cut short before its delete is deleted by a later save', () => {
    const { store, props } = twoMonthsSaved();
    expect(store.getProperty('ma.costGapDays.2026-10')).not.toBeNull();
    // October's orders all gone (a window set, rows deleted): its month is stale; the run ends before the delete.
    store.stopDeletes = true;
    expect(() => saveCostGapMonths(props, new Map([['2026-11', month('05', 1)]]), 5)).toThrow();
    store.stopDeletes = false;
    saveCostGapMonths(props, new Map([['2026-11', month('05', 2)]]), 6);
    expect([...store.values.keys()].sort()).toEqual(['ma.costGapDays', 'ma.costGapDays.2026-11']);
  });

  it('what a formula reads after each save is what was counted: a month changed, a month gone, the index', () => {
    const { store, props } = twoMonthsSaved();
    saveCostGapMonths(props, new Map([['2026-11', month('05', 3)]]), 10);
    const read = readCostGapDays(props, '2026-10-01', '2026-11-30', 'USD');
    expect(JSON.stringify(read)).toContain('3');
    expect(readCostGapDays(props, '2026-10-03', '2026-10-03', 'USD')).not.toHaveProperty('notCounted');
    expect(store.getProperty('ma.costGapDays.2026-10')).toBeNull();
  });
});
