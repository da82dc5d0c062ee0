/**
 * The merchant changes the tax setting (spec 2.3 rule 6, 2.8 basis): net_profit changes on every
 * order and day while no updated_at moves. The next sync must notice the basis change, refresh
 * every order and every Daily P&L day, and say so; the sheets then equal the truth on the new basis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { compareWithTruth, sheetTable, syncUntilCaughtUp } from './sync-support';

const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ orders: 600, seed: 47 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

function logMessages(): string[] {
  const [headers, ...rows] = sheetTable(stack, 'Sync log');
  return rows.map((r) => String(r[headers.indexOf('message')]));
}

describe('a tax setting change changes the basis [spec 2.3 rule 6, 2.8]', () => {
  it('the next sync refreshes every order and every day, says so, and never leaves the old net profit', async () => {
    expect(await compareWithTruth(stack)).toEqual(EXACT);
    await stack.control('settings', { tax_treated_as_cost: true });
    await stack.advanceClocks(5 * 60_000); // past the summary's Cache-Control max-age
    const stale = await compareWithTruth(stack);
    expect(stale.mismatches.filter((m) => m.header === 'net_profit').length).toBeGreaterThan(100);

    await syncUntilCaughtUp(stack);
    expect(await compareWithTruth(stack)).toEqual(EXACT);
    const messages = logMessages().slice(-3).join(' ');
    expect(messages).toMatch(/basis changed \(tax not treated as a cost, .* → tax treated as a cost/);
    expect(messages).toMatch(/every order and every Daily P&L day in the window is fetched again/);
    expect(messages).toMatch(/Every order and day now holds figures on one basis \(tax treated as a cost/);
  }, 180_000);
});
