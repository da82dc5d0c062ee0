/**
 * The figure re-check is the safety net for changes no change marker revealed, so the scheduled
 * runs make it at least once a week: a currency the store changed silently is still wrong six
 * days after the last pass and right once the week is over.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { scheduleTrigger, sheetTable, syncUntilCaughtUp } from './sync-support';

const DAY_MS = 86_400_000;
let stack: Stack;
let uid: string;

beforeAll(async () => {
  stack = await startStack({ orders: 40, seed: 314, modelledTimeOnly: true });
  await stack.connect();
  uid = await scheduleTrigger(stack);
  await syncUntilCaughtUp(stack);
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

function currencyInSheet(id: string): unknown {
  const [header, ...rows] = sheetTable(stack, 'Orders');
  const row = rows.find((r) => r[header.indexOf('id')] === id);
  return row?.[header.indexOf('currency')];
}

async function scheduledRunsFor(ms: number): Promise<void> {
  for (let at = 0; at < ms; at += 6 * 3_600_000) {
    await stack.advanceClocks(6 * 3_600_000);
    const run = await stack.runtime.fireTrigger(uid);
    expect(run.ok, run.error?.message).toBe(true);
  }
}

describe('the scheduled runs re-check every figure at least weekly', () => {
  it('a silent currency change stays until the week since the last pass is over, then is put right', async () => {
    const orders = ((await stack.truth('orders')) as { data: Array<{ id: string; currency: string }> }).data;
    const order = orders[0];
    const other = order.currency === 'EUR' ? 'USD' : 'EUR';
    await stack.control(`orders/${order.id}/silent-patch`, { currency: other });
    expect(currencyInSheet(order.id)).toBe(order.currency);

    await scheduledRunsFor(6 * DAY_MS);
    expect(currencyInSheet(order.id), 'six days on, no pass has run').toBe(order.currency);

    await scheduledRunsFor(2 * DAY_MS);
    expect(currencyInSheet(order.id), 'the weekly pass rewrote the order').toBe(other);
  }, 300_000);
});
