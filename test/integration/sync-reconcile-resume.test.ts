/**
 * Spec 4.4 rules 3 and 7: a cursor is valid for one pagination run only, and a store too large for
 * one execution still needs its periodic full pass. The reconciliation pass must resume across
 * executions an hour apart from what it has read (never from a stored cursor) and still mark
 * exactly the vanished orders gone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { compareWithTruth, sheetTable, syncUntilCaughtUp } from './sync-support';

const HOUR_MS = 3_600_000;
const ORDERS = 4_000;
/** Ends an execution (as the time limit would) after a few of the pass's pages, whatever the machine's speed. */
const KILL_AT_SERVICE_CALL = 80;

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ orders: ORDERS, seed: 23 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
});

afterAll(async () => {
  await stack?.close();
});

function orderRequests(urls: string[]): URLSearchParams[] {
  return urls.filter((u) => u.includes('/api/v1/orders?')).map((u) => new URL(u).searchParams);
}

describe('reconciliation across executions an hour apart', () => {
  it('resumes from what it has read, never from a stored cursor, and marks exactly the vanished orders gone', async () => {
    const orders = ((await stack.truth('orders')) as { data: Array<{ id: string }> }).data;
    const vanished = [orders[10], orders[900], orders[3_900]].map((o) => o.id);
    for (const id of vanished) await stack.control(`orders/${id}/vanish`, {});

    const runs: URLSearchParams[][] = [];
    for (let n = 0; n < 2; n++) {
      const killed = await stack.runtime.run('reconcileOrdersNow', [], { killAtServiceCall: KILL_AT_SERVICE_CALL });
      expect(killed.timedOut).toBe(true);
      runs.push(orderRequests(killed.counts.requests.map((q) => q.url)));
      // The next run comes an hour later: any cursor of this one has long expired.
      await stack.advanceClocks(HOUR_MS);
    }
    const last = await stack.runtime.run('reconcileOrdersNow', []);
    expect(last.ok, last.error?.message).toBe(true);
    expect((last.value as { done: boolean }).done).toBe(true);
    runs.push(orderRequests(last.counts.requests.map((q) => q.url)));

    expect(runs[0].length).toBeGreaterThan(1);
    for (const run of runs) expect(run[0].has('cursor'), 'an execution never starts from a stored cursor').toBe(false);
    for (const run of runs.slice(1)) {
      expect(run[0].get('updated_after'), 'a later execution resumes where the pass stopped').not.toBe(
        '1970-01-01T00:00:00Z',
      );
    }
    const pages = runs.reduce((sum, run) => sum + run.length, 0);
    expect(pages).toBeLessThan(2 * Math.ceil(ORDERS / 250));

    const [headers, ...rows] = sheetTable(stack, 'Orders');
    const gone = rows
      .filter((r) => r[headers.indexOf('status')] === 'gone')
      .map((r) => String(r[headers.indexOf('id')]));
    expect(gone.sort()).toEqual([...vanished].sort());
    const result = await compareWithTruth(stack, { expectGone: new Set(vanished) });
    expect(result).toEqual({ mismatches: [], missing: [], unexpected: [], duplicates: [] });
  });
});
