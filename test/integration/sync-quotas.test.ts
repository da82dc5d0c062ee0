/**
 * The sync under the quotas that end real syncs (strict runtime, dev/gas-runtime/quotas.ts):
 * a scheduled run spends about a minute of the user's 90-minute daily trigger allowance and says
 * so when that cuts it short; scheduled runs stop at their daily share and note it once; a Sheets
 * API 429 (another execution used the minute's writes) is a pause that resumes, never an error the
 * user sees, and the sheets end equal to the emulator's truth. (bench/sync-costs.bench.ts runs the
 * 100k-order backfill through the sidebar, compared with the truth, and the hourly run.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { DAILY_SHARE_MS } from './scheduled-budget';
import { compareWithTruth, sheetTable } from './sync-support';

const USER = 'user@example.com';
let stack: Stack;

beforeAll(async () => {
  // Modelled time only, the emulator's clock in step: the run's minute and the API's per-minute limit
  // are Apps Script's and the API's time, not how long the loaded host took to run the JavaScript.
  stack = await startStack({ orders: 25_000, seed: 31, modelledTimeOnly: true, emulatorClockInStep: true });
  await stack.connect();
  const view = await stack.runtime.run('setSchedule', [{ mode: 'hourly' }]);
  expect(view.ok, view.error?.message).toBe(true);
}, 300_000);

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
  it('a backfill too large for a scheduled run stops within about a minute and says where to finish it', async () => {
    const fired = await stack.runtime.fireTrigger(trigger().uid);
    expect(fired.ok, fired.error?.message).toBe(true);
    expect(fired.value).toMatchObject({ done: false });
    expect(fired.elapsedMs).toBeLessThanOrEqual(70_000);
    // 25,000 orders are 100 pages: the API's 60 requests a minute (spec) pause the run before its own
    // minute is up, or the minute ends it first; either way the log says why and where to finish.
    expect(lastLogMessage()).toMatch(
      /^(Scheduled runs stop after about a minute .*|Paused: Merchant Analytics asked for fewer requests a minute\. .*)use Sync now/,
    );
    expect(fired.counts.quota?.triggerMsLast24h).toBe(fired.elapsedMs);
    expect(stack.runtime.totals.quotaRefusals).toBe(0);
    // A modelled minute of work takes as long as the host needs: the limit only catches a hang.
  }, 900_000);

  it('scheduled runs stop at their daily share, note it once in the Sync log, and run again when it frees', async () => {
    // Runs of other spreadsheets of the same user took all of the share but 5 s in the last hours.
    const now = stack.runtime.clock.now();
    stack.runtime.properties.user.set(
      'scheduledRuntime',
      JSON.stringify({ runs: [[now - 3_600_000, DAILY_SHARE_MS - 5_000]], skipNotedAt: null }),
    );
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
    expect(again.ok, again.error?.message).toBe(true);
    expect(sheetTable(stack, 'Sync log').length).toBe(logRows + 2);
    expect(lastLogMessage()).not.toMatch(/skipped/);
  }, 900_000);
});

describe('a Sheets API 429 is a pause that resumes', () => {
  let small: Stack;

  beforeAll(async () => {
    small = await startStack({ orders: 300, seed: 32 });
    await small.connect();
    const first = await small.runtime.run('onScheduledSync', []);
    expect(first.value).toMatchObject({ done: true, outcome: 'ok' });
  }, 300_000);

  afterAll(async () => {
    await small?.close();
  });

  it("another execution used the minute's 60 writes: the sync waits, writes, and reports no error", async () => {
    await small.control('orders', { count: 100 });
    await small.advanceClocks(3_600_000);
    for (let i = 0; i < 60; i++) expect(small.runtime.quotas.takeSheetsRequest(USER, 'write')).toBeNull();
    const r = await small.runtime.run('onScheduledSync', []);
    expect(r.ok, r.error?.message).toBe(true);
    expect(r.value).toMatchObject({ done: true, outcome: 'ok' });
    // Google did refuse (the runtime counted it), and the add-on waited and sent again.
    expect(r.counts.quotaRefusals).toBeGreaterThan(0);
    const [header, ...rows] = sheetTable(small, 'Sync log');
    expect(String(rows[rows.length - 1][header.indexOf('message')])).not.toMatch(/Quota exceeded|429/);
    expect(await compareWithTruth(small)).toEqual({ mismatches: [], missing: [], unexpected: [], duplicates: [] });
  }, 300_000);
});
