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
