/**
 * Google's CacheService is best effort (reference/cache/cache: a cached value may be removed before
 * it expires). With the runtime evicting half the live entries it reads (a seeded, repeatable
 * sequence), an open sidebar polling its stamp every 4 s checks the connection with the API no more
 * than once a minute (a lost check time must not mean a request on every poll), and a working day
 * (8 h) of polls stays under half the 50,000 Properties calls a consumer account has a day
 * (developers.google.com/apps-script/guides/services/quotas).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { syncUntilCaughtUp } from './sync-support';

const LOOKS = 60;
const CADENCE_MS = 4_000;
const WORKING_DAY_LOOKS = (8 * 3_600_000) / CADENCE_MS;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ orders: 10, seed: 3 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
}, 120_000);
afterAll(async () => stack?.close());

describe('the sidebar stamp with a cache that evicts half its reads', () => {
  it('connection checks stay at one a minute, and 8 hours of looks at the 4 s cadence cost under 25,000 Properties calls', async () => {
    stack.runtime.evictCaches(0.5, 7);
    let checks = 0;
    const used = async (): Promise<number> => {
      const r = await stack.runtime.run('getSidebarStamp');
      expect(r.error?.message).toBeUndefined();
      checks += r.counts.requests.filter((q) => q.url.includes('/api/v1/account')).length;
      return r.counts.quota?.propertyCallsLast24h ?? NaN;
    };
    const first = await used();
    for (let i = 1; i < LOOKS; i++) {
      await stack.advanceClocks(CADENCE_MS);
      await used();
    }
    const perLook = ((await used()) - first) / LOOKS;
    console.log(`property calls per look with eviction: ${perLook}; 8 h: ${Math.round(perLook * WORKING_DAY_LOOKS)}`);
    const minutes = ((LOOKS - 1) * CADENCE_MS) / 60_000;
    expect(checks, 'connection checks (GET /api/v1/account)').toBeLessThanOrEqual(Math.ceil(minutes) + 1);
    expect(perLook * WORKING_DAY_LOOKS).toBeLessThan(25_000);
  }, 120_000);
});
