/**
 * An execution ended by the time limit at any point (many seeded kill points) loses and
 * duplicates nothing once the next run finishes. Kill points are service-call numbers drawn from
 * a seeded generator across the whole run (lock, account read, sheet set-up, page writes,
 * checkpoints, log rows); several kills in a row, then a run to the end, then the truth comparison.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { sidebarConnection } from '../../dev/harness/inspect';
import {
  compareWithTruth,
  scheduledRun,
  SCHEDULED_RUNS,
  sheetTable,
  syncUntilCaughtUp,
  type ScheduledRuns,
} from './sync-support';

type Json = Record<string, unknown>;
let stack: Stack;
let mode: ScheduledRuns = 'direct';

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
let random = seeded(20261121);

async function killedRun(atServiceCall: number): Promise<void> {
  const r = await scheduledRun(stack, mode, atServiceCall);
  // A kill point past the run's last call lets the run finish: both are fine.
  expect(r.timedOut || r.ok).toBe(true);
}

async function changeSomething(round: number): Promise<void> {
  const orders = ((await stack.truth('orders')) as { data: Json[] }).data;
  const kinds = [
    'cost_correction',
    'late_fulfillment',
    'ad_spend',
    'attribution',
    'refund',
    'partial_refund',
    'cancel',
  ];
  for (let i = 0; i < kinds.length; i++) {
    const order = orders[Math.floor(random() * orders.length)];
    try {
      await stack.control(`orders/${String(order.id)}/change`, { kind: kinds[(i + round) % kinds.length] });
    } catch (e) {
      if (!/409|conflict/i.test(String(e))) throw e;
    }
  }
  await stack.control('orders', { count: 260 });
  await stack.advanceClocks(3_600_000);
}

/** Every sheet but the Sync log, as it stands: a run that changed it wrote rows. */
function dataSheets(): string {
  return JSON.stringify(Object.entries(stack.runtime.exportJson().sheets).filter(([name]) => name !== 'Sync log'));
}

/**
 * Runs to the end. A kill point that fell between the token endpoint's answer and its save lost the
 * connection (spec 3.2: the exchange revoked the refresh token kept): the run says so, and the
 * merchant reconnects, as the message asks; the sync then resumes from its checkpoint.
 */
async function runToTheEnd(): Promise<void> {
  try {
    await syncUntilCaughtUp(stack, 20, 'onScheduledSync', mode);
  } catch (e) {
    if (!String(e).includes('was lost while its access was being renewed')) throw e;
    expect((await stack.connect()).outcome).toBe('connected');
    // The sidebar reloads its state once the connect dialog closes: it adopts the connection.
    expect((await sidebarConnection(stack.runtime)).state).toBe('connected');
    await syncUntilCaughtUp(stack, 20, 'onScheduledSync', mode);
  }
}

function expectExact(result: Awaited<ReturnType<typeof compareWithTruth>>): void {
  expect(result.mismatches.slice(0, 3)).toEqual([]);
  expect(result).toEqual({ mismatches: [], missing: [], unexpected: [], duplicates: [] });
}

// Scheduled runs called with the document, and fired by their trigger without it (Google may run either way).
describe.each(SCHEDULED_RUNS)('scheduled runs: %s', (runs) => {
  beforeAll(async () => {
    random = seeded(20261121);
    mode = runs;
    stack = await startStack({ orders: 300, seed: 5 });
    await stack.connect();
  });

  afterAll(async () => {
    await stack?.close();
  });

  describe('kill points during the first backfill', () => {
    it('five executions killed at seeded points, then one run to the end: equal to the truth', async () => {
      for (let k = 0; k < 5; k++) await killedRun(1 + Math.floor(random() * 140));
      await runToTheEnd();
      expectExact(await compareWithTruth(stack));
    });
  });

  describe('kill points during incremental runs', () => {
    it.each([1, 2, 3])(
      'round %i: changes, three killed executions, then a full run: equal to the truth',
      async (round) => {
        await changeSomething(round);
        for (let k = 0; k < 3; k++) await killedRun(1 + Math.floor(random() * 120));
        await runToTheEnd();
        expectExact(await compareWithTruth(stack));
      },
    );

    // The seeded kill points may all land before a run's first write (a run that wrote nothing opens
    // no Sync log row: nothing to mark) or after its closing row: this run is ended after it wrote rows.
    it('a run ended after it wrote rows is marked "interrupted" by the next run; no row is left "running"', async () => {
      // A run to the end first: its access token outlives the executions below, so none of them is ended
      // mid-refresh (executions swept from call 1 through a refresh were seen to lose the connection).
      await stack.advanceClocks(3_600_000);
      await syncUntilCaughtUp(stack, 20, 'onScheduledSync', mode);
      await stack.control('orders', { count: 260 });
      await stack.advanceClocks(60_000);
      const before = dataSheets();
      let wrote = false;
      for (let k = 1; k < 400 && !wrote; k++) {
        const r = await scheduledRun(stack, mode, k);
        if (!r.timedOut) break;
        wrote = dataSheets() !== before;
      }
      expect(wrote, 'an execution ended by the time limit after it wrote rows').toBe(true);
      // Its row went out with its first rows (earlier executions may have closed rows of their own).
      const killed = sheetTable(stack, 'Sync log');
      const outcome = killed[0].indexOf('outcome');
      const killedRow = killed.length - 1;
      expect(killed[killedRow][outcome]).toBe('running');
      await syncUntilCaughtUp(stack, 20, 'onScheduledSync', mode);
      const [, ...rows] = sheetTable(stack, 'Sync log');
      expect(rows.map((r) => r[outcome])).not.toContain('running');
      expect(rows[killedRow - 1][outcome], "the killed run's Sync log row").toBe('interrupted');
      expectExact(await compareWithTruth(stack));
    });
  });
});
