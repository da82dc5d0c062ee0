/**
 * The storage calls a scheduled run's start and end make, by the runtime's counters: each is billed
 * (Properties 40-70 ms, Cache 25-100 ms: apps-script-cost-model.md) and Properties calls count
 * against Google's 50,000 a day. With no sidebar polling, the run's end removes no sidebar stamp
 * (Cache.remove, 100 ms); one that polled sees the run's end at its next look. The settings the run
 * merges into, its close and its owner's copy share one whole read of the document store; the run looks at the owner-copy
 * note only when its copy holds written keys, and for its answers in the document cache only when
 * the execution before may have shared them; the trigger-minute ledger rides with the owner copy's
 * write, and still holds at least the run's runtime.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionResult } from '../../dev/gas-runtime/index';
import { startStack, type Stack } from '../../dev/harness/index';
import { ensureHourlySchedule } from '../../bench/drivers';
import { syncUntilCaughtUp } from './sync-support';

const HOUR_MS = 3_600_000;
let stack: Stack;
let trigger: string;

const calls = (r: ExecutionResult, method: string): number => r.counts.byMethod[method] ?? 0;

/** An hour later (`beforeFiring`: what happens just before the trigger fires), two orders changed. */
async function changeOrdersAndFire(
  beforeFiring: () => Promise<void> = async () => undefined,
): Promise<ExecutionResult> {
  await stack.advanceClocks(HOUR_MS);
  const orders = ((await stack.truth('orders')) as { data: Array<{ id: string }> }).data;
  for (const order of orders.slice(0, 2)) await stack.control(`orders/${order.id}/change`, { kind: 'cost_correction' });
  await beforeFiring();
  const run = await stack.runtime.fireTrigger(trigger);
  expect(run.ok, run.error?.message).toBe(true);
  expect((run.value as { outcome?: string }).outcome).toBe('ok');
  return run;
}

function ledger(): Array<[number, number]> {
  const text = stack.runtime.properties.user.get('scheduledRuntime');
  return (JSON.parse(text ?? '{"runs":[]}') as { runs: Array<[number, number]> }).runs;
}

beforeAll(async () => {
  stack = await startStack({ orders: 40, seed: 5 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
  trigger = await ensureHourlySchedule(stack);
  await stack.advanceClocks(HOUR_MS);
  const first = await stack.runtime.fireTrigger(trigger);
  expect(first.ok, first.error?.message).toBe(true);
}, 180_000);
afterAll(async () => stack?.close());

describe('a scheduled run with its document', () => {
  let run: ExecutionResult;
  let runsBefore: number;

  beforeAll(async () => {
    runsBefore = ledger().length;
    run = await changeOrdersAndFire();
  }, 120_000);

  it('removes no sidebar stamp when no sidebar polled', () => {
    expect(calls(run, 'Cache.remove'), 'Cache.remove').toBe(0);
  });

  it('reads the settings the run merges into, its busy notes and its owner copy with one read of the store', () => {
    // Was 19: the orders and daily parts one by one, the close's busy notes and the owner copy's reads apart.
    const reads = calls(run, 'Properties.getProperty') + calls(run, 'Properties.getProperties');
    expect(reads, JSON.stringify(run.counts.byMethod)).toBeLessThanOrEqual(15);
  });

  it("reads the document store whole three times: for the connection's keys, under the lock, and once for the settings, the close and the owner's copy", () => {
    // With the script's settings and the user's store for the owner's copy. The connection's three
    // document keys are read in one whole read before the lock (2 spans at 1k: 80 ms against 120 ms apart).
    expect(calls(run, 'Properties.getProperties'), 'Properties.getProperties').toBeLessThanOrEqual(5);
  });

  it('looks at no owner-copy note without written keys, nor for answers no execution shared', () => {
    // The token's: the authorization server's metadata, the renewal mark, the library's cache (four
    // looks); and the stamp. Not the owner-copy note, not /account and the summary in the document
    // cache (the last run caught up), no remove. A renewal's puts are the token's own.
    const looks = calls(run, 'Cache.get') + calls(run, 'Cache.remove');
    expect(looks, JSON.stringify(run.counts.byMethod)).toBeLessThanOrEqual(7);
  });

  it("records the run in the trigger-minute ledger with the owner copy's write, at least as long as it ran", () => {
    const runs = ledger();
    expect(runs).toHaveLength(runsBefore + 1);
    expect(runs[runs.length - 1]![1]).toBeGreaterThanOrEqual(run.elapsedMs);
    // The ledger read once (the allowance at the start) and written by no call of its own.
    expect(calls(run, 'Properties.setProperty'), 'Properties.setProperty').toBeLessThanOrEqual(4);
  });
});

describe('a scheduled run while a sidebar polls', () => {
  it('drops the stamp the sidebar cached, so its next look shows the run', async () => {
    let before: ExecutionResult | undefined;
    const run = await changeOrdersAndFire(async () => {
      before = await stack.runtime.run('getSidebarStamp');
      expect(before.ok, before.error?.message).toBe(true);
      const cached = await stack.runtime.run('getSidebarStamp');
      expect(calls(cached, 'Properties.getProperties') + calls(cached, 'Properties.getProperty')).toBe(0);
    });
    expect(calls(run, 'Cache.remove'), 'Cache.remove').toBe(1);
    const after = await stack.runtime.run('getSidebarStamp');
    expect(after.value).not.toEqual(before!.value);
  }, 120_000);
});
