/**
 * A large store's spreadsheet that an earlier version synced (points in the Orders percent
 * columns, no fraction tag): its upgrade to fractions passes Google's recommended 2 MB for one
 * request ("we recommend a 2 MB maximum payload", developers.google.com/workspace/sheets/api/limits;
 * the strict runtime refuses a body past 2,000,000 bytes), so it goes in several batchUpdates
 * (sheets/percent-upgrade.ts). The next sync completes; a run killed between two of those requests
 * leaves a half-upgraded sheet that the next syncs finish, each cell divided once: every percent
 * cell then equals the emulator's truth, under 0.00%, with one tag and no marker left.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import {
  asEarlierVersion,
  headerOf,
  ORDER_PERCENTS,
  PERCENT_TAG,
  sheetMetadata,
  sheetOf,
  timesHundred,
  truthOrderPoints,
} from './percent-support';
import { scheduledRun, syncUntilCaughtUp } from './sync-support';

/** The markers of rows an upgrade cut short already converted (sheets/percent-upgrade.ts). */
const DONE_MARKER = 'merchant_analytics_percent_done';
let stack: Stack;

/** Three hourly runs, each as it ended ("ok", else its error: a failed run says "the next run continues"). */
async function hourlyRuns(): Promise<string[]> {
  const outcomes: string[] = [];
  for (let n = 0; n < 3; n++) {
    await stack.advanceClocks(3_600_000);
    const r = await scheduledRun(stack);
    const value = r.value as { outcome?: string; message?: string } | undefined;
    if (!r.ok) outcomes.push(`failed: ${String(r.error?.message).slice(0, 240)}`);
    else outcomes.push(value?.outcome === 'error' ? `error: ${String(value.message).slice(0, 240)}` : 'ok');
  }
  return outcomes;
}

/** Orders' percent cells: how many are under the fraction format, and every one that differs from the truth. */
async function ordersAgainstTruth(): Promise<{ cells: number; fractionFormat: number; wrong: string[] }> {
  const truth = await truthOrderPoints(stack);
  const s = sheetOf(stack, 'Orders');
  const header = headerOf(s);
  const id = header.indexOf('id') + 1;
  let cells = 0;
  let fractionFormat = 0;
  const wrong: string[] = [];
  for (let r = 2; r <= s.lastRow(); r++)
    for (const h of ORDER_PERCENTS) {
      const c = header.indexOf(h) + 1;
      const value = s.value(r, c);
      const points = truth.get(String(s.value(r, id)))?.[h];
      cells++;
      if (s.format(r, c) === '0.00%') fractionFormat++;
      else wrong.push(`row ${r} ${h}: format ${String(s.format(r, c))}`);
      if (points === undefined || points === null ? (value ?? '') !== '' : timesHundred(value) !== points)
        wrong.push(`row ${r} ${h}: ${String(value)} (truth ${String(points)} points)`);
    }
  return { cells, fractionFormat, wrong };
}

async function expectUpgradedToTruth(): Promise<void> {
  const orders = await ordersAgainstTruth();
  expect(orders.cells).toBeGreaterThanOrEqual(3 * 20_000);
  expect(orders.wrong.slice(0, 5)).toEqual([]);
  expect(sheetMetadata(stack, 'Orders', PERCENT_TAG)).toHaveLength(1);
  expect(sheetMetadata(stack, 'Orders', DONE_MARKER)).toEqual([]);
}

beforeAll(async () => {
  stack = await startStack({ orders: 20_000, seed: 5 });
  await stack.connect();
  await syncUntilCaughtUp(stack, 30);
}, 900_000);

afterAll(async () => {
  await stack?.close();
});

describe('a large spreadsheet an earlier version synced, upgraded to fractions', () => {
  it('the next sync completes (every Sheets API body within 2 MB), each cell its truth as a fraction', async () => {
    asEarlierVersion(stack, 'Orders', ORDER_PERCENTS);
    expect(await hourlyRuns()).toEqual(['ok', 'ok', 'ok']);
    await expectUpgradedToTruth();
  }, 900_000);

  it('a run killed between two of its requests leaves the rest to the next syncs: nothing divided twice, nothing left in points', async () => {
    asEarlierVersion(stack, 'Orders', ORDER_PERCENTS);
    // The time limit at each Spreadsheets.batchUpdate of the run in turn, until a run ends with the sheet half upgraded.
    let half: Awaited<ReturnType<typeof ordersAgainstTruth>> | undefined;
    for (let nth = 1; nth <= 10 && half === undefined; nth++) {
      const killAtMethodCall = { method: 'Sheets.Spreadsheets.batchUpdate', nth };
      const r = await stack.runtime.run('onScheduledSync', [], { killAtMethodCall });
      expect(r.timedOut, `killed at batchUpdate ${nth}`).toBe(true);
      expect(sheetMetadata(stack, 'Orders', PERCENT_TAG), `killed at batchUpdate ${nth}`).toEqual([]);
      const orders = await ordersAgainstTruth();
      if (orders.fractionFormat > 0) half = orders;
    }
    expect(half, 'a run killed with the sheet half upgraded').toBeDefined();
    expect(half!.fractionFormat).toBeLessThan(half!.cells);
    expect(sheetMetadata(stack, 'Orders', DONE_MARKER).length).toBeGreaterThan(0);

    expect(await hourlyRuns()).toEqual(['ok', 'ok', 'ok']);
    await expectUpgradedToTruth();
  }, 900_000);
});
