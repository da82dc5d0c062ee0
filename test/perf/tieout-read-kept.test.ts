/**
 * Once, the hourly run after a 100k backfill read the Orders sheet whole (2.1 M cells) because
 * the backfill's last Sync now step read it whole for its tie-out and then had no budget left for
 * the P&L books' second page: the tie-out stopped ("Tie-out not run this time") and the day sums
 * that read paid for were never saved, so the next run read the sheet whole again. The same
 * stretch at 500 orders: a scheduled run whose day sums are unsaved (as a run cut short after
 * writing Orders leaves them) reads Orders whole for its tie-out; its budget (the user's trigger
 * allowance left, scheduled-budget.ts) is walked down in steps smaller than the stretch between
 * the tie-out's start and its P&L books' second page, and after every run that read Orders whole
 * the next run reads no more cells than an idle run (the key columns and the small sheets).
 * Counts are the runtime's (cells read per execution), never time.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBenchBundle } from '../../bench/bundle';
import { ensureHourlySchedule, sidebarSync } from '../../bench/drivers';
import { startBenchStack, type BenchStack } from '../../bench/stack';
import { runValue, scheduledRunWithin } from '../integration/scheduled-budget';
import { sheetTable } from '../integration/sync-support';

const ORDERS = 500;
/** Smaller than the stretch from the tie-out's start to its P&L books' second page (the Orders read and the first page). */
const BUDGET_STEP_MS = 200;
const MAX_TRIALS = 40;

let bench: BenchStack;
let trigger: string;

/** As a run cut short after writing Orders leaves the day sums (order-sums-store.ts markUnsaved): not to be trusted. */
function unsaveDaySums(): void {
  const props = bench.stack.runtime.properties.document;
  const stamp = JSON.parse(props.get('ma.orderSums') ?? 'null') as Record<string, unknown> | null;
  expect(stamp, 'the day sums the backfill saved').not.toBeNull();
  props.set('ma.orderSums', JSON.stringify({ ...stamp, valid: false }));
}

beforeAll(async () => {
  const dir = writeBenchBundle(path.resolve('dist'), mkdtempSync(path.join(os.tmpdir(), 'kept-dist-')));
  bench = await startBenchStack(ORDERS, dir);
  const backfill = await sidebarSync(bench.stack);
  expect(backfill.done, backfill.note).toBe(true);
  // Two days on, the tie-out's range (first order to today) passes 400 days: two P&L pages, as at
  // 100k (whose first order is a day older), so the second page's budget check comes after the read.
  await bench.stack.advanceClocks(2 * 86_400_000);
  trigger = await ensureHourlySchedule(bench.stack);
}, 300_000);

afterAll(async () => {
  await bench?.close();
});

describe('a run that read the Orders sheet whole for its tie-out', () => {
  it('leaves the next run reading no more than an idle run, wherever its budget ended', async () => {
    const ordersRows = sheetTable(bench.stack, 'Orders').length - 1;
    unsaveDaySums();
    const calibration = await scheduledRunWithin(bench.stack, trigger, 60_000);
    expect(runValue(calibration).message).toMatch(/Tie-out: Orders agree/);
    const idle = (await scheduledRunWithin(bench.stack, trigger, 60_000)).counts.cellsRead;
    // A read of the whole sheet is at least one cell per Orders row beyond what an idle run reads.
    expect(calibration.counts.cellsRead - idle, 'the calibration run read Orders whole').toBeGreaterThanOrEqual(
      ordersRows,
    );
    // The tie-out's start check comes before the run's end: at a quarter kept in reserve (platform/budget.ts), this budget still ties out.
    let budgetMs = Math.ceil(calibration.elapsedMs / 0.75 / BUDGET_STEP_MS) * BUDGET_STEP_MS;
    const after: Array<{ budgetMs: number; said: string; nextRead: number }> = [];
    for (let trial = 0; trial < MAX_TRIALS; trial++, budgetMs -= BUDGET_STEP_MS) {
      unsaveDaySums();
      const run = await scheduledRunWithin(bench.stack, trigger, budgetMs);
      // Past the walk's end the tie-out no longer starts (it is owed and nothing was read whole).
      if (run.counts.cellsRead - idle < ordersRows) break;
      const next = await scheduledRunWithin(bench.stack, trigger, 60_000);
      after.push({ budgetMs, said: runValue(run).message ?? '', nextRead: next.counts.cellsRead });
    }
    expect(after.length, `runs that read Orders whole before the walk ended (${MAX_TRIALS} trials)`).toBeGreaterThan(1);
    expect(after.length).toBeLessThan(MAX_TRIALS);
    for (const a of after)
      expect(
        a.nextRead,
        `cells the next run read after a run of ${a.budgetMs} ms budget that read Orders whole and said "${a.said}" (idle: ${idle}, Orders rows: ${ordersRows})`,
      ).toBeLessThanOrEqual(idle);
  }, 600_000);
});
