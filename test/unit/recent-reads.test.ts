import { describe, expect, it } from 'vitest';
import { RecentReads, RECENT_READ_MS } from '../../src/server/platform/recent-reads';

describe('a setting part the run read whole under its lock moments ago', () => {
  it('is given from that read within a second (no billed read before a merge), and read from the store after', () => {
    let now = 0;
    const reads = new RecentReads(() => now);
    let storeReads = 0;
    const fromStore = (): string => (storeReads++, '{"createdAfter":"2026-01-01"}');
    reads.seed({ 'ma.sync.orders': '{"createdAfter":null}', 'oauth2.merchant-analytics': 'x' });
    now = RECENT_READ_MS - 1;
    for (const key of ['ma.sync.orders', 'ma.sync.daily', 'ma.sync.capacity', 'ma.sync.columns'])
      reads.get(key, fromStore);
    expect(reads.get('oauth2.merchant-analytics', fromStore)).toBe('x');
    expect(storeReads).toBe(0);
    now = RECENT_READ_MS + 1;
    expect(reads.get('ma.sync.orders', fromStore)).toBe('{"createdAfter":"2026-01-01"}');
    expect(storeReads).toBe(1);
  });
});

describe('the whole store read moments ago', () => {
  it("is given again within a second with this execution's writes since, read afresh after it or once a lock is taken", () => {
    let now = 0;
    const reads = new RecentReads(() => now);
    let wholeReads = 0;
    let stored: Record<string, string> = { 'ma.sync.busy.a': '{}', 'ma.sync.lastRuns': '[]' };
    const fromStore = (): Record<string, string> => (wholeReads++, { ...stored });
    expect(reads.getAll(fromStore)).toEqual(stored);
    reads.wrote({ 'ma.sync.busy.a': null, 'ma.sync.lastRuns': '[1]' });
    stored = { 'ma.sync.lastRuns': '[1]', 'ma.sync.busy.b': '{}' };
    now = RECENT_READ_MS - 1;
    expect(reads.getAll(fromStore)).toEqual({ 'ma.sync.lastRuns': '[1]' });
    expect(wholeReads).toBe(1);
    now = RECENT_READ_MS;
    expect(reads.getAll(fromStore)).toEqual(stored);
    expect(wholeReads).toBe(2);
    reads.forget(null);
    expect(reads.getAll(fromStore)).toEqual(stored);
    expect(wholeReads).toBe(3);
  });
});

describe('a setting part read again a second or more after the whole read', () => {
  const settingRead = (store: Record<string, string>): { keyReads: number; wholeReads: number } => {
    let now = 0;
    const reads = new RecentReads(() => now);
    let keyReads = 0;
    let wholeReads = 0;
    reads.seed(store);
    now = RECENT_READ_MS;
    const key = (): string | null => (keyReads++, store['ma.sync.orders'] ?? null);
    const whole = (): Record<string, string> => (wholeReads++, { ...store });
    expect(reads.get('ma.sync.orders', key, whole)).toBe(store['ma.sync.orders']);
    return { keyReads, wholeReads };
  };

  it('comes with a whole read while the store fits the 16 KB a call moves at one price', () => {
    expect(settingRead({ 'ma.sync.orders': '{}', 'ma.orderSums.2026-01-01': 'x'.repeat(15_000) })).toEqual({
      keyReads: 0,
      wholeReads: 1,
    });
  });

  it('is read alone once the store is billed per 16 KB (the day sums of a large shop): one 40 ms read, not one per span', () => {
    expect(settingRead({ 'ma.sync.orders': '{}', 'ma.orderSums.2026-01-01': 'x'.repeat(17_000) })).toEqual({
      keyReads: 1,
      wholeReads: 0,
    });
  });
});
