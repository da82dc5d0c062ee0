/**
 * An execution ended by the time limit at any point (many seeded kill points) loses and
 * duplicates nothing once the next run finishes. Kill points are service-call numbers drawn from
 * a seeded generator across the whole run (lock, account read, sheet set-up, page writes,
 * checkpoints, log rows); several kills in a row, then a run to the end, then the truth comparison.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
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
      await syncUntilCaughtUp(stack, 20, 'onScheduledSync', mode);
      expectExact(await compareWithTruth(stack));
    });
  });

  describe('kill points during incremental runs', () => {
    it.each([1, 2, 3])(
      'round %i: changes, three killed executions, then a full run: equal to the truth',
      async (round) => {
        await changeSomething(round);
        for (let k = 0; k < 3; k++) await killedRun(1 + Math.floor(random() * 120));
        await syncUntilCaughtUp(stack, 20, 'onScheduledSync', mode);
        expectExact(await compareWithTruth(stack));
      },
    );

    it('no Sync log row is left "running"; interrupted runs are marked', () => {
      const [headers, ...rows] = sheetTable(stack, 'Sync log');
      const outcomes = rows.map((r) => r[headers.indexOf('outcome')]);
      expect(outcomes).not.toContain('running');
      expect(outcomes).toContain('interrupted');
    });
  });
});
