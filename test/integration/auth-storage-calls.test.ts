/**
 * The auth side's storage calls, each billed (Properties get 40 ms, set 70 ms; Cache get 25 ms,
 * put 100 ms: apps-script-cost-model.md) and the Properties ones counted against Google's 50,000 a
 * day per user: the token is read from its property (the OAuth2 library keeps no cache, so a save
 * is no Cache.put), a kept renewal is looked up only behind a renewal mark, the discovery document
 * only for a renewal, and a formula cell that finds its answer in the document cache reads neither
 * the deployment's script properties nor the formula environment's cache entry. Counted by the
 * runtime on the built bundle, against the emulator over HTTP; needs dist/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionResult } from '../../dev/gas-runtime/index';
import { startStack, type Stack } from '../../dev/harness/index';
import { tokenRequestStats } from '../../dev/harness/inspect';
import { syncUntilCaughtUp } from './sync-support';

const HOUR_MS = 3_600_000;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ orders: 10, seed: 7 });
  expect((await stack.connect()).outcome).toBe('connected');
  await syncUntilCaughtUp(stack);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

const calls = (r: ExecutionResult, prefix: string): number =>
  Object.entries(r.counts.byMethod).reduce((n, [method, count]) => n + (method.startsWith(prefix) ? count : 0), 0);

const refreshes = async (): Promise<number> =>
  (await tokenRequestStats(stack.control)).byGrantType['refresh_token'] ?? 0;

describe('the token is read from its property, once per lock holding; the library keeps no cache', () => {
  it('a check with a fresh token makes no Cache call at all', async () => {
    const before = await refreshes();
    const check = await stack.runtime.run('checkApiConnection', ['trigger'], { authMode: 'FULL' });
    expect(check.value).toMatchObject({ ok: true });
    expect(await refreshes()).toBe(before);
    expect(
      check.counts.byMethod,
      'no library cache, no kept-renewal look without a mark, no discovery',
    ).not.toHaveProperty('Cache.get');
    expect(calls(check, 'Cache.')).toBe(0);
    // The deployment's settings, the document state whole (connection, shared token, copy guard,
    // the older versions' token key), the connect handoff and the stored token: one call each.
    expect(check.counts.propertyCalls).toBe(4);
  });

  it('a renewal saves the token with no Cache.put', async () => {
    await stack.advanceClocks(HOUR_MS + 60_000);
    const before = await refreshes();
    const check = await stack.runtime.run('checkApiConnection', ['trigger'], { authMode: 'FULL' });
    expect(check.value).toMatchObject({ ok: true });
    expect(await refreshes()).toBe(before + 1);
    expect(check.counts.byMethod['Cache.put'] ?? 0).toBe(0);
    // The discovery document's cached copy: read for the token request only.
    expect(check.counts.byMethod['Cache.get'] ?? 0).toBe(1);
    // The four above, the token read again under the lock (once: the renewal reads what that read
    // found), the renewal's mark and its answer saved, and the new access token published for
    // formulas without a read to compare (nobody else has it yet).
    expect(check.counts.propertyCalls).toBe(8);
  });
});

describe('a formula cell answered from the document cache', () => {
  it('reads the document state whole and nothing else of Properties, and no environment entry', async () => {
    const args = ['2026-01-01', '2026-01-31', 'net_profit'];
    const first = await stack.runtime.run('PROFIT_SUMMARY', args, { authMode: 'CUSTOM_FUNCTION' });
    expect(first.ok, first.error?.message).toBe(true);
    expect(first.counts.requests.length).toBe(1);
    const again = await stack.runtime.run('PROFIT_SUMMARY', args, { authMode: 'CUSTOM_FUNCTION' });
    expect(again.ok, again.error?.message).toBe(true);
    expect(again.value).toEqual(first.value);
    expect(again.counts.requests.length).toBe(0);
    expect(again.counts.propertyCalls).toBe(1);
    expect(again.counts.byMethod['Cache.get'] ?? 0).toBe(1);
  });
});
