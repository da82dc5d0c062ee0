/**
 * The sync under the quotas that end real syncs (strict runtime, dev/gas-runtime/quotas.ts):
 * a scheduled run spends about a minute of the user's 90-minute daily trigger allowance and says
 * so when that cuts it short (the sidebar's Sync now, or a full-budget run, finishes the backfill); scheduled runs stop at their
 * daily share; a Sheets API 429 (another execution used the minute's writes) is a pause that
 * resumes, never an error the user sees. Every sheet ends equal to the emulator's truth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { compareWithTruth, sheetTable } from './sync-support';

const USER = 'user@example.com';
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ orders: 10_000, seed: 31 });
  await stack.connect();
  const view = await stack.runtime.run('setSchedule', [{ mode: 'hourly' }]);
  expect(view.ok, view.error?.message).toBe(true);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

const trigger = () => {
  const found = stack.runtime.triggers.find((t) => t.handlerFunction === 'onScheduledSync');
  if (!found) throw new Error('no schedule trigger');
  return found;
};

function lastLogMessage(): string {
  const [header, ...rows] = sheetTable(stack, 'Sync log');
  return String(rows[rows.length - 1][header.indexOf('message')]);
}

describe('the daily trigger allowance', () => {
  it('a backfill too large for a scheduled run stops after about a minute and says where to finish it', async () => {
    const fired = await stack.runtime.fireTrigger(trigger().uid);
    expect(fired.ok, fired.error?.message).toBe(true);
    expect(fired.value).toMatchObject({ done: false, outcome: 'partial' });
    expect(fired.elapsedMs).toBeLessThanOrEqual(70_000);
    expect(lastLogMessage()).toMatch(/Scheduled runs stop after about a minute .* use Sync now/);
    expect(fired.counts.quota?.triggerMsLast24h).toBe(fired.elapsedMs);
  }, 120_000);

  it("a run with the whole execution budget finishes it (the sidebar's Sync now runs the same job in steps): Sheets writes stay under 60 a minute, every sheet equals the truth", async () => {
    const r = await stack.runtime.run('onScheduledSync', []);
    expect(r.ok, r.error?.message).toBe(true);
    expect(r.value).toMatchObject({ done: true, outcome: 'ok' });
    expect(stack.runtime.totals.quotaRefusals).toBe(0);
    expect(stack.runtime.quotas.peakPerMinute(USER).write).toBeLessThanOrEqual(60);
    expect(await compareWithTruth(stack)).toEqual({ mismatches: [], missing: [], unexpected: [], duplicates: [] });
  }, 180_000);

  it('scheduled runs stop at their daily share, note it once in the Sync log, and run again when it frees', async () => {
    // Runs of other spreadsheets of the same user took 4 min 55 s of the share in the last hours.
    const now = stack.runtime.clock.now();
    stack.runtime.properties.user.set('scheduledRuntime', JSON.stringify({ runs: [[now - 3_600_000, 295_000]], skipNotedAt: null }));
    const logRows = sheetTable(stack, 'Sync log').length;
    const skipped = await stack.runtime.fireTrigger(trigger().uid);
    expect(skipped.value).toMatchObject({ done: false, outcome: 'partial' });
    expect(lastLogMessage()).toMatch(/^Scheduled sync skipped: .*daily trigger time.*Sync now/);
    expect(sheetTable(stack, 'Sync log').length).toBe(logRows + 1);
    await stack.advanceClocks(3_600_000);
    await stack.runtime.fireTrigger(trigger().uid);
    expect(sheetTable(stack, 'Sync log').length).toBe(logRows + 1);
    // A day after those runs the share is free again.
    await stack.advanceClocks(23 * 3_600_000);
    const again = await stack.runtime.fireTrigger(trigger().uid);
    expect(again.value).toMatchObject({ done: true, outcome: 'ok' });
  }, 120_000);
});

describe('a Sheets API 429 is a pause that resumes', () => {
  it('another execution used the minute\'s 60 writes: the sync waits, writes, and reports no error', async () => {
    await stack.control('orders', { count: 300 });
    await stack.advanceClocks(3_600_000);
    for (let i = 0; i < 60; i++) expect(stack.runtime.quotas.takeSheetsRequest(USER, 'write')).toBeNull();
    const refusalsBefore = stack.runtime.totals.quotaRefusals;
    const r = await stack.runtime.run('onScheduledSync', []);
    expect(r.ok, r.error?.message).toBe(true);
    expect(r.value).toMatchObject({ done: true, outcome: 'ok' });
    // Google did refuse (the runtime counted it), and the add-on absorbed it.
    expect(stack.runtime.totals.quotaRefusals).toBeGreaterThan(refusalsBefore);
    expect(lastLogMessage()).not.toMatch(/Quota exceeded|429/);
    expect(await compareWithTruth(stack)).toEqual({ mismatches: [], missing: [], unexpected: [], duplicates: [] });
  }, 120_000);
});
