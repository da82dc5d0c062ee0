/**
 * A large store's spreadsheet that an earlier version synced (points in the Orders percent
 * columns, no fraction tag): its upgrade to fractions passes Google's recommended 2 MB for one
 * request ("we recommend a 2 MB maximum payload", developers.google.com/workspace/sheets/api/limits;
 * the strict runtime refuses a body past 2,000,000 bytes), so it goes in several batchUpdates
 * (sheets/percent-upgrade.ts). The next sync completes; a run killed between two of those requests
 * leaves a half-upgraded sheet that the next syncs finish, each cell divided once, even when the
 * merchant sorts Orders, deletes rows or moves a percent column before the next run (a cell's format
 * moves with it; a row number would not): every percent cell then equals the emulator's truth, under
 * 0.00%, with one tag and no marker left, and the Monthly P&L's margins are the spec's on the truth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveColumns } from '../../dev/gas-runtime/spreadsheet/column-edits';
import { startStack, type Stack } from '../../dev/harness/index';
import {
  headerOf,
  hourlyRuns,
  MONTH_MARGINS,
  ordersAgainstTruth,
  ordersAsEarlierVersion,
  PERCENT_TAG,
  sheetMetadata,
  sheetOf,
  timesHundred,
  truthMonthPoints,
  workbookOf,
} from './percent-support';
import { scheduledRun, syncUntilCaughtUp } from './sync-support';

/** The marker of an upgrade in several requests still in progress (sheets/percent-upgrade.ts). */
const IN_PROGRESS = 'merchant_analytics_percent_done';
let stack: Stack;

/** The Monthly P&L's margins that differ from the spec's rule on the truth's days (cell ×100). */
async function monthlyAgainstTruth(): Promise<string[]> {
  const truth = await truthMonthPoints(stack);
  const s = sheetOf(stack, 'Monthly P&L');
  const header = headerOf(s);
  const wrong: string[] = [];
  for (let r = 2; r <= s.lastRow(); r++) {
    const month = String(s.value(r, header.indexOf('month') + 1));
    for (const h of Object.keys(MONTH_MARGINS)) {
      const value = s.value(r, header.indexOf(h) + 1);
      if (truth.get(month)?.[h] !== timesHundred(value)) wrong.push(`${month} ${h}: ${String(value)}`);
    }
  }
  return wrong;
}

/** Every Orders percent cell its truth as a fraction under 0.00% (none divided twice, none left in points), one tag, no marker. */
async function expectUpgradedToTruth(orders = 20_000): Promise<void> {
  const tally = await ordersAgainstTruth(stack);
  expect(tally.cells).toBeGreaterThanOrEqual(3 * orders);
  expect({ twice: tally.twice, points: tally.points, first: tally.wrong.slice(0, 5) }).toEqual({
    twice: 0,
    points: 0,
    first: [],
  });
  expect(await monthlyAgainstTruth()).toEqual([]);
  expect(sheetMetadata(stack, 'Orders', PERCENT_TAG)).toHaveLength(1);
  expect(sheetMetadata(stack, 'Orders', IN_PROGRESS)).toEqual([]);
}

/** The time limit at each Spreadsheets.batchUpdate of a run in turn, until a run ends with Orders half upgraded. */
async function killHalfWay(): Promise<void> {
  for (let nth = 1; nth <= 10; nth++) {
    const r = await stack.runtime.run('onScheduledSync', [], {
      killAtMethodCall: { method: 'Sheets.Spreadsheets.batchUpdate', nth },
    });
    expect(r.timedOut, `killed at batchUpdate ${nth}`).toBe(true);
    expect(sheetMetadata(stack, 'Orders', PERCENT_TAG), `killed at batchUpdate ${nth}`).toEqual([]);
    const tally = await ordersAgainstTruth(stack);
    if (tally.fractionFormat > 0) {
      expect(tally.fractionFormat).toBeLessThan(tally.cells);
      expect(sheetMetadata(stack, 'Orders', IN_PROGRESS).length).toBeGreaterThan(0);
      return;
    }
  }
  throw new Error('no run was killed with Orders half upgraded');
}

/** A merchant's sort of Orders' data rows (Data > Sort range, Z→A): whole rows, values and formats, move. */
function sortOrdersDescending(): void {
  const s = sheetOf(stack, 'Orders');
  const last = s.lastRow();
  s.rows = [s.rows[0], ...s.rows.slice(1, last).reverse(), ...s.rows.slice(last)];
}

/** Sheet.deleteRows(2, 50) as the runtime models it: the rows go, rows below move up, row metadata with them. */
function deleteFiftyOrderRows(): void {
  const s = sheetOf(stack, 'Orders');
  s.deleteRows(2, 50);
  workbookOf(stack).dropRowMetadata(s.sheetId, 2, 51);
}

/**
 * An hourly run that ends well; its Spreadsheets.get calls: the run's snapshot, and the percent
 * columns' formats when it finds an upgrade in progress (paid only after a run cut short).
 */
async function upgradeRun(): Promise<number> {
  await stack.advanceClocks(3_600_000);
  const r = await scheduledRun(stack);
  const outcome = (r.value as { outcome?: string } | undefined)?.outcome;
  expect(r.ok && outcome !== 'error', String(r.error?.message)).toBe(true);
  return r.counts.sheetsByMethod['Sheets.Spreadsheets.get'] ?? 0;
}

/**
 * Orders as an earlier version left it, a run killed half way through its upgrade, the merchant's
 * edit, the next runs: every percent cell its truth, and the run after the kill read the formats.
 */
async function expectEditSurvived(edit: () => void, orders = 20_000): Promise<void> {
  await ordersAsEarlierVersion(stack);
  await killHalfWay();
  edit();
  const gets = await upgradeRun();
  expect(await hourlyRuns(stack)).toEqual(['ok', 'ok', 'ok']);
  await expectUpgradedToTruth(orders);
  expect(gets, 'Spreadsheets.get of the run after the kill: the snapshot and the formats').toBe(2);
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
  it('the next sync completes (every Sheets API body within 2 MB, no format read), each cell its truth as a fraction', async () => {
    await ordersAsEarlierVersion(stack);
    expect(await upgradeRun(), 'the snapshot alone').toBe(1);
    expect(await hourlyRuns(stack)).toEqual(['ok', 'ok', 'ok']);
    await expectUpgradedToTruth();
  }, 900_000);

  it('sorted after an upgrade that completed, every percent cell still its truth', async () => {
    sortOrdersDescending();
    expect(await hourlyRuns(stack)).toEqual(['ok', 'ok', 'ok']);
    await expectUpgradedToTruth();
  }, 900_000);

  it('a run killed between two of its requests leaves the rest to the next syncs: nothing divided twice, nothing left in points', async () => {
    await expectEditSurvived(() => undefined);
  }, 900_000);

  it('Orders sorted between the killed run and the next: no cell divided twice, none left in points', async () => {
    await expectEditSurvived(sortOrdersDescending);
  }, 900_000);

  it('a half-upgraded percent column moved to column B between the killed run and the next', async () => {
    await expectEditSurvived(() => {
      const s = sheetOf(stack, 'Orders');
      moveColumns(workbookOf(stack), s, headerOf(s).indexOf('contribution_margin_pct') + 1, 1, 2);
      expect(headerOf(s)[1]).toBe('contribution_margin_pct');
    });
  }, 900_000);

  it('order rows 2..51 deleted between the killed run and the next: every percent cell its truth under 0.00%', async () => {
    await expectEditSurvived(deleteFiftyOrderRows, 15_000);
  }, 900_000);
});
