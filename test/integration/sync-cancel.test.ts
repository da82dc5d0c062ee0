/**
 * Cancel in the sidebar stops a Sync now step before its next page: cancelSync runs as its own
 * execution while runSyncStep runs (as google.script.run calls do), the step sees the request
 * when it would start another page, and ends partial with rows written so far kept, at a page
 * boundary, saying it was cancelled. The next Sync now is not stopped by the old request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { sheetTable } from './sync-support';

const PAGE = 250;
let stack: Stack;
let total: number;

beforeAll(async () => {
  stack = await startStack({ orders: 5000, seed: 12, modelledTimeOnly: true });
  await stack.connect();
  total = ((await stack.truth('orders')) as { data: unknown[] }).data.length;
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

const orderRows = (): number => Math.max(0, (stack.runtime.exportJson().sheets['Orders']?.length ?? 1) - 1);

/** Orders list pages the emulator has answered (its own request counter, GET /_emulator/stats). */
async function ordersPagesServed(): Promise<number> {
  const stats = (await stack.control('stats')) as { by_endpoint: Record<string, { total: number }> };
  return stats.by_endpoint['GET /api/v1/orders']?.total ?? 0;
}

/**
 * Resolves once the step has listed its first orders page. Not the sheet's first rows: the feed
 * lists pages ahead of their write (orders-job.ts, LISTED_AHEAD_BYTES), so a store this size is
 * written only after its last page is listed; a Cancel must still stop the listing midway.
 */
async function firstPageListed(step: Promise<unknown>): Promise<boolean> {
  const before = await ordersPagesServed();
  let ended = false;
  void step.then(() => (ended = true));
  while (!ended) {
    if ((await ordersPagesServed()) > before) return true;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return false;
}

describe('Cancel from the sidebar', () => {
  it('stops the running step before its next page; what was written is kept, at a page boundary', async () => {
    expect((await stack.runtime.run('startSync', [], { authMode: 'FULL' })).ok).toBe(true);
    const step = stack.runtime.run('runSyncStep', [], { authMode: 'FULL' });
    const midway = await firstPageListed(step);
    expect(midway, 'the step ended before a page was listed: the store is too small to cancel midway').toBe(true);
    const cancel = await stack.runtime.run('cancelSync', [], { authMode: 'FULL' });
    expect(cancel.ok, cancel.error?.message).toBe(true);
    const result = await step;
    expect(result.ok, result.error?.message).toBe(true);
    const progress = result.value as { done: boolean; problem: unknown; counts: { ordersAdded: number } };
    expect(progress.done).toBe(false);
    expect(progress.problem).toBeNull();
    const written = orderRows();
    expect(written).toBeLessThan(total);
    expect(written % PAGE).toBe(0);
    expect(progress.counts.ordersAdded).toBe(written);
    const log = sheetTable(stack, 'Sync log');
    const last = log[log.length - 1];
    expect(last[log[0].indexOf('outcome')]).toBe('partial');
    expect(String(last[log[0].indexOf('message')])).toMatch(/^Cancelled in the sidebar before the next page/);
  }, 180_000);

  it('the next Sync now is not stopped by that request and brings every order', async () => {
    expect((await stack.runtime.run('startSync', [], { authMode: 'FULL' })).ok).toBe(true);
    let done = false;
    for (let i = 0; i < 10 && !done; i++) {
      const r = await stack.runtime.run('runSyncStep', [], { authMode: 'FULL' });
      expect(r.ok, r.error?.message).toBe(true);
      done = (r.value as { done: boolean }).done;
    }
    expect(done).toBe(true);
    expect(orderRows()).toBe(total);
  }, 180_000);

  it("Sync now's first step is not stopped by an earlier request, deletes it under the run's lock, and makes no cancel call when none is stored", async () => {
    const orders = ((await stack.truth('orders')) as { data: Array<{ id: string }> }).data;
    await stack.control(`orders/${orders[0].id}/change`, { kind: 'cost_correction' });
    expect((await stack.runtime.run('cancelSync', [], { authMode: 'FULL' })).ok).toBe(true);
    await stack.advanceClocks(1_000);
    const first = await stack.runtime.run('runSyncStep', [{ start: true }], { authMode: 'FULL' });
    expect(first.ok, first.error?.message).toBe(true);
    expect((first.value as { done: boolean }).done).toBe(true);
    expect(stack.runtime.properties.document.get('ma.sync.cancelAt')).toBeNull();
    const log = sheetTable(stack, 'Sync log');
    expect(String(log[log.length - 1][log[0].indexOf('message')])).not.toMatch(/Cancelled/);
    await stack.advanceClocks(1_000);
    const next = await stack.runtime.run('runSyncStep', [{ start: true }], { authMode: 'FULL' });
    expect(next.ok, next.error?.message).toBe(true);
    expect(next.counts.byMethod['Properties.deleteProperty'] ?? 0, JSON.stringify(next.counts.byMethod)).toBe(0);
  }, 180_000);
});
