/**
 * A day's Properties reads and writes, against Google's daily quota. Google allows 50,000 a day per consumer user
 * (developers.google.com/apps-script/guides/services/quotas), counted by the runtime on every
 * Properties call; past it sync, sidebar and formulas all fail until the day's quota frees.
 *
 * Measured on the built add-on: an open, idle sidebar looking for changes for an hour at its own
 * cadence (src/sidebar/watch-cadence.ts), scheduled runs fired by their trigger while the store takes
 * orders, and a 200-cell report of PROFIT_SUMMARY cells recalculated after each of those runs (a sync
 * that changed data re-enters the add-on's formulas, and Sheets runs every re-entered cell again). The
 * budget a user meets on a working day — the sidebar open 8 hours, 24 hourly runs and 24
 * recalculations of the report — must stay under half the day's quota, so a second sidebar or a
 * reconnect still fits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { ExecutionResult } from '../../dev/gas-runtime/index';
import { scheduleTrigger, syncUntilCaughtUp } from './sync-support';
import { addDays } from './truth-orders';
import { nextLookInMs } from '../../src/sidebar/watch-cadence';

const USER = 'user@example.com';
const HOUR_MS = 3_600_000;
/** The report a user keeps is 200 cells; 50 of them, scaled, give its calls (each cell's are alike). */
const REPORT_CELLS = 200;
const MEASURED_CELLS = 50;

let stack: Stack;
let today: string;

const calls = (results: ExecutionResult[]): number => results.reduce((sum, r) => sum + r.counts.propertyCalls, 0);

beforeAll(async () => {
  stack = await startStack({ orders: 120, seed: 22, modelledTimeOnly: true });
  await stack.connect();
  await scheduleTrigger(stack);
  await syncUntilCaughtUp(stack);
  today = ((await stack.control('clock')) as { now: string }).now.slice(0, 10);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('a working day of Properties calls fits in half the daily quota', () => {
  const figures = { sidebarHour: 0, pollsReadingProperties: 0, scheduledRun: 0, reportCell: 0, report: 0 };

  it('an idle open sidebar reads properties at most once a minute, not at every look', async () => {
    const opened = await stack.runtime.run('getSidebarState', []);
    expect(opened.ok).toBe(true);
    const polls: ExecutionResult[] = [];
    const startedAt = stack.runtime.clock.now();
    while (stack.runtime.clock.now() - startedAt < HOUR_MS) {
      await stack.advanceClocks(nextLookInMs(stack.runtime.clock.now() - startedAt));
      const poll = await stack.runtime.run('getSidebarStamp', []);
      expect(poll.error).toBeUndefined();
      // Idle: nothing changed, so every answer is the stamp the opened state carries.
      expect(poll.value).toBe((opened.value as { stamp: string }).stamp);
      polls.push(poll);
    }
    figures.pollsReadingProperties = polls.filter((p) => p.counts.propertyCalls > 0).length;
    figures.sidebarHour = calls(polls);
    // The first poll works the stamp out, then it is worked out again (with the connection check) once a minute at most.
    const minutes = Math.ceil((stack.runtime.clock.now() - startedAt) / 60_000);
    expect(figures.pollsReadingProperties).toBeLessThanOrEqual(1 + minutes);

    // Cached, but never stale: a scheduled run that ends shows at the very next poll (the run's
    // Sync log entry drops the cached stamp), not a minute later.
    const stampBefore = polls[polls.length - 1].value;
    const run = await stack.runtime.fireTrigger(await scheduleTrigger(stack));
    expect(run.error).toBeUndefined();
    const afterRun = await stack.runtime.run('getSidebarStamp', []);
    expect(afterRun.value).not.toBe(stampBefore);
    expect(afterRun.value).toBe(((await stack.runtime.run('getSidebarState', [])).value as { stamp: string }).stamp);
  }, 180_000);

  it('24 hourly runs of a store taking orders, each followed by a recalculated 200-cell report, stay within their share', async () => {
    const uid = await scheduleTrigger(stack);
    const generation = () => stack.runtime.properties.document.get('ma.formulaGeneration');
    const runs: ExecutionResult[] = [];
    for (let hour = 0; hour < 3; hour++) {
      await stack.control('orders', { count: 2 });
      await stack.advanceClocks(HOUR_MS);
      const before = generation();
      const run = await stack.runtime.fireTrigger(uid);
      expect(run.error).toBeUndefined();
      // New orders changed the P&L: the run re-entered the report's formulas, so Sheets runs them all again.
      expect(generation()).not.toBe(before);
      runs.push(run);
    }
    figures.scheduledRun = Math.max(...runs.map((r) => r.counts.propertyCalls));

    const sets = Array.from({ length: 10 }, (_, i) => [addDays(today, -30 * (i + 1)), addDays(today, -30 * i - 1)]);
    const metrics = ['net_profit', 'net_revenue', 'cm3', 'cm1'];
    const cells = Array.from({ length: MEASURED_CELLS }, (_, i) => [
      ...sets[i % sets.length],
      metrics[i % metrics.length],
    ]);
    const results: ExecutionResult[] = new Array(cells.length);
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < cells.length) {
        const i = next++;
        results[i] = await stack.runtime.run('PROFIT_SUMMARY', cells[i], { authMode: 'CUSTOM_FUNCTION' });
      }
    };
    await Promise.all(Array.from({ length: 4 }, lane));
    for (const r of results) expect(r.error).toBeUndefined();
    figures.report = calls(results) * (REPORT_CELLS / MEASURED_CELLS);
    figures.reportCell = Math.max(...results.map((r) => r.counts.propertyCalls));

    const day = 8 * figures.sidebarHour + 24 * figures.scheduledRun + 24 * figures.report;
    const allowance = stack.runtime.quotas.use(USER).propertyCallAllowance;
    console.log(
      `Properties calls: idle sidebar ${Math.round(figures.sidebarHour)}/hour (${figures.pollsReadingProperties} of its looks read any), ` +
        `scheduled run ≤ ${figures.scheduledRun}, formula cell ≤ ${figures.reportCell} (report of ${REPORT_CELLS}: ${figures.report}); ` +
        `8 h sidebar + 24 runs + 24 reports = ${Math.round(day)} = ${((100 * day) / allowance).toFixed(1)} % of ${allowance}`,
    );
    // A cell reads the document state whole in one call (and the script settings in another).
    expect(figures.reportCell).toBeLessThanOrEqual(2);
    expect(stack.runtime.totals.quotaRefusals).toBe(0);
    expect(day).toBeLessThan(allowance / 2);
  }, 300_000);
});
