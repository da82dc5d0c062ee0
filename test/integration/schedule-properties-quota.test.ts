/**
 * Google's daily Properties quota (guides/services/quotas: 50,000 reads and writes a day per
 * consumer user) spent. A trigger Google fires without its document looks its spreadsheet up in
 * its owner's properties: that refusal is not "no spreadsheet recorded", so the trigger must stay
 * and sync the next day. The sidebar, Sync now and a formula cell say what happened and that it
 * frees over the next 24 hours, not Google's raw "Service invoked too many times…".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { compareWithTruth, scheduleTrigger, syncUntilCaughtUp } from './sync-support';

const USER = 'user@example.com';
const DAY = 86_400_000;
const REGISTRY = 'ma.scheduleTriggers';
const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
const GOOGLE_RAW = 'Service invoked too many times for one day: properties.';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ orders: 10, seed: 5 });
  expect((await stack.connect()).outcome).toBe('connected');
  await scheduleTrigger(stack);
  await syncUntilCaughtUp(stack);
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

/** A new 24-hour window, then the user's property calls used up until `left` remain. */
async function spendPropertiesQuota(left: number): Promise<void> {
  await stack.advanceClocks(DAY + 60_000);
  const ledger = stack.runtime.quotas;
  const used = (await stack.runtime.run('getSidebarStamp')).counts.quota?.propertyCallsLast24h ?? 0;
  for (let i = used; i < ledger.propertyCallAllowance() - left; i++) ledger.takePropertyCall(USER);
}

describe('the day’s Properties quota spent', () => {
  it('a trigger fired without its document keeps itself and its registry entry, says why, and syncs once the quota frees', async () => {
    const uid = await scheduleTrigger(stack);
    const registry = stack.runtime.properties.user.get(REGISTRY);
    await spendPropertiesQuota(0);
    const refused = await stack.runtime.fireTrigger(uid, { document: false });
    expect(refused.ok, refused.error?.message).toBe(true);
    const message = (refused.value as { message: string }).message;
    expect(message).toMatch(/^The scheduled sync did not run: Google’s daily limit on saved settings/);
    expect(message).toContain('The schedule stays on and runs again at its next hour.');
    expect(stack.runtime.triggers.some((t) => t.uid === uid)).toBe(true);
    expect(stack.runtime.properties.user.get(REGISTRY)).toBe(registry);

    // Whatever call the quota stops at later in the run, the trigger stays.
    for (let left = 1; left <= 14; left++) {
      await spendPropertiesQuota(left);
      await stack.runtime.fireTrigger(uid, { document: false });
      expect(
        stack.runtime.triggers.some((t) => t.uid === uid),
        `with ${left} call(s) left`,
      ).toBe(true);
    }

    await stack.control('orders', { count: 3 });
    await stack.advanceClocks(DAY + 60_000);
    const next = await stack.runtime.fireTrigger(uid, { document: false });
    expect(next.ok, next.error?.message).toBe(true);
    expect((next.value as { outcome: string }).outcome).not.toBe('error');
    expect(await compareWithTruth(stack)).toEqual(EXACT);
  }, 300_000);

  it('the sidebar, Sync now and a formula cell say Google’s daily limit was reached and that it frees over the next 24 hours', async () => {
    await spendPropertiesQuota(0);
    for (const [fn, args, opts] of [
      ['getSidebarState', [], {}],
      ['startSync', [], {}],
      ['PROFIT_SUMMARY', ['2026-01-01', '2026-01-31', 'net_profit'], { authMode: 'CUSTOM_FUNCTION' }],
    ] as const) {
      const r = await stack.runtime.run(fn, [...args], opts as object);
      expect(r.ok, fn).toBe(false);
      const said = r.error?.message ?? '';
      expect(said, fn).not.toContain(GOOGLE_RAW);
      expect(said, fn).toContain('Google’s daily limit on saved settings for your Google account was reached');
      expect(said, fn).toContain('over the next 24 hours');
    }
  }, 300_000);

  it('a run with its document refused part-way says so in the add-on’s words, not Google’s raw text; the trigger stays', async () => {
    const refused: string[] = [];
    for (const left of [0, 12, 24, 36]) {
      const uid = await scheduleTrigger(stack);
      await spendPropertiesQuota(left);
      const r = await stack.runtime.fireTrigger(uid);
      const said = (r.value as { message?: string } | undefined)?.message ?? r.error?.message ?? '';
      expect(said, `with ${left} call(s) left`).not.toContain(GOOGLE_RAW);
      if (!r.ok) refused.push(said);
      expect(
        stack.runtime.triggers.some((t) => t.uid === uid),
        `with ${left} call(s) left`,
      ).toBe(true);
    }
    expect(refused.length).toBeGreaterThan(0);
    for (const said of refused) {
      expect(said).toMatch(
        /^The scheduled sync stopped part-way and runs again at its next hour: Google’s daily limit/,
      );
      expect(said).toContain('over the next 24 hours');
    }
  }, 300_000);
});
