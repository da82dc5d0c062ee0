/**
 * A run that brought the sheets up to date but had no budget left for its due tie-out
 * is not caught up. Otherwise Sync now stops there (a 100k backfill's last step did) with the tie-out
 * never run. The run saves the Orders day sums its writes left, so the next run ties out from them. The budget is squeezed
 * exactly: the runtime's clock is modelled time only, so a scheduled run's timeline repeats to the
 * millisecond, and the test walks the run's budget (the user's trigger allowance left, which it
 * sets) down in steps smaller than the stretch between the Daily P&L write and the tie-out until
 * a run writes every change but does not tie out.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBenchBundle } from '../../bench/bundle';
import { ensureHourlySchedule, sidebarSync } from '../../bench/drivers';
import { startBenchStack, type BenchStack } from '../../bench/stack';
import type { ExecutionResult } from '../../dev/gas-runtime/index';
import { runValue, scheduledRunWithin } from './scheduled-budget';
import { compareWithTruth } from './sync-support';

/** Smaller than the Daily P&L write and the Monthly P&L refresh between the daily job's last check and the tie-out's. */
const BUDGET_STEP_MS = 10;
const MAX_TRIALS = 750;
const HOUR_MS = 3_600_000;

let bench: BenchStack;
let trigger: string;
let orderIds: string[];
let changes = 0;

const documentProperty = (key: string): string | null => bench.stack.runtime.properties.document.get(key);
const tieoutCheckedAt = (): unknown =>
  (JSON.parse(documentProperty('ma.sync.tieout') ?? '{}') as { checkedAt?: unknown }).checkedAt;
/** The Orders day sums as order-sums-store.ts keeps them: its stamp says whether they describe the sheet. */
const daySumsStamp = (): { valid?: boolean; rows?: number } | null =>
  JSON.parse(documentProperty('ma.orderSums') ?? 'null') as { valid?: boolean; rows?: number } | null;

/**
 * One more order changes at the service (a cost correction moves its figures and its P&L day), and
 * the next run starts in a fresh API hour: a run with no minute handed over counts the hour's
 * requests it did not send as sent now (burst-pace.ts), so the earlier trials' requests would move
 * its timeline, and past a minute's worth pause it for the burst limit before its first page.
 */
async function changeAnOrder(): Promise<void> {
  await bench.stack.control(`orders/${orderIds[(changes++ * 7) % orderIds.length]}/change`, {
    kind: 'cost_correction',
  });
  await bench.stack.advanceClocks(HOUR_MS);
}

/** The scheduled run as its trigger fires it, with `budgetMs` of the user's daily trigger share left. */
const scheduledRun = (budgetMs: number): Promise<ExecutionResult> => scheduledRunWithin(bench.stack, trigger, budgetMs);
const valueOf = runValue;

beforeAll(async () => {
  const dir = writeBenchBundle(path.resolve('dist'), mkdtempSync(path.join(os.tmpdir(), 'owed-dist-')));
  bench = await startBenchStack(500, dir);
  const backfill = await sidebarSync(bench.stack);
  expect(backfill.done, backfill.note).toBe(true);
  await bench.stack.advanceClocks(3_600_000);
  trigger = await ensureHourlySchedule(bench.stack);
  orderIds = ((await bench.stack.truth('orders')) as { data: Array<{ id: string }> }).data.map((o) => o.id);
}, 300_000);

afterAll(async () => {
  await bench?.close();
});

describe('a run whose budget ends between the data and its tie-out', () => {
  it('is not caught up; the next run ties out and leaves the Orders day sums saved', async () => {
    await changeAnOrder();
    const calibration = await scheduledRun(60_000);
    expect(valueOf(calibration).message).toMatch(/Tie-out: Orders agree/);
    // The tie-out's check comes before the run's end: at a quarter kept in reserve (platform/budget.ts), this budget still ties out.
    let budgetMs = Math.ceil(calibration.elapsedMs / 0.75 / BUDGET_STEP_MS) * BUDGET_STEP_MS;
    let squeezed: ExecutionResult | null = null;
    for (let trial = 0; trial < MAX_TRIALS && !squeezed; trial++, budgetMs -= BUDGET_STEP_MS) {
      await changeAnOrder();
      const before = tieoutCheckedAt();
      const run = await scheduledRun(budgetMs);
      if (tieoutCheckedAt() !== before) continue;
      const truth = await compareWithTruth(bench.stack);
      expect(
        truth,
        `the first run without a tie-out (budget ${budgetMs} ms) left the sheets behind the service: the walk stepped over the stretch; make BUDGET_STEP_MS smaller`,
      ).toEqual({ mismatches: [], missing: [], unexpected: [], duplicates: [] });
      squeezed = run;
    }
    expect(squeezed, `no run in ${MAX_TRIALS} trials ended without its tie-out`).not.toBeNull();
    expect(valueOf(squeezed!).done, `a run that did not tie out said: ${valueOf(squeezed!).message}`).toBe(false);
    // The day sums as its writes left them are saved for the next run (kept across executions, as a backfill's steps keep them).
    expect(daySumsStamp()).toMatchObject({ valid: true, rows: orderIds.length });

    // Nothing changed since: the next run owes the tie-out and does it, from the saved sums.
    const next = await scheduledRun(60_000);
    expect(valueOf(next)).toMatchObject({ done: true, outcome: 'ok' });
    expect(valueOf(next).message).toMatch(/Tie-out: Orders agree with the Daily P&L/);
    expect(daySumsStamp()).toMatchObject({ valid: true, rows: orderIds.length });
  }, 600_000);
});
