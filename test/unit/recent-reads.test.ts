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
