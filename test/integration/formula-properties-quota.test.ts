/**
 * A formula cell refused by Google's daily Properties quota (developers.google.com/apps-script/guides/services/quotas:
 * "Properties read/write: 50,000 / day"). Sheets recalculates a custom function only when its
 * formula or a cell it references changes (developers.google.com/apps-script/guides/sheets/functions),
 * so the cell keeps its error after the quota frees: its text says how to get the figure back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { syncUntilCaughtUp } from './sync-support';

const USER = 'user@example.com';
const DAY_MS = 86_400_000;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ orders: 10, seed: 5 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('a formula cell and the daily Properties quota', () => {
  it('says the limit was reached, and to use Refresh formulas once it frees (not "nothing to fix")', async () => {
    // A day later the set-up's calls have left the rolling 24 hours: only this test's calls count.
    await stack.advanceClocks(DAY_MS + 60_000);
    const ledger = stack.runtime.quotas;
    while (ledger.takePropertyCall(USER));
    const r = await stack.runtime.run('PROFIT_SUMMARY', ['2026-01-01', '2026-01-31', 'net_profit'], {
      authMode: 'CUSTOM_FUNCTION',
    });
    expect(r.ok).toBe(false);
    expect(r.error?.message).toMatch(/^PROFIT_SUMMARY: Google’s daily limit on saved settings/);
    expect(r.error?.message).toMatch(
      /once the limit frees, choose Extensions → Merchant Analytics → Refresh formulas\.$/,
    );
    expect(r.error?.message).not.toMatch(/nothing to fix/);
  });
});
