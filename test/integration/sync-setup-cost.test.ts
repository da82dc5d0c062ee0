/**
 * What a scheduled run costs before it has anything to write: one Spreadsheets.get for every
 * sheet's title, grid and tags, one Values.batchGet for every managed sheet's header row and key
 * columns, and the Sync log's last row, instead of a handful of SpreadsheetApp calls per sheet.
 * A change that brings per-sheet reads back fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { advanceToStoreHour, compareWithTruth, syncUntilCaughtUp } from './sync-support';

/** Every Sheets call of an incremental run with nothing to do, Sync log writes included. */
const MAX_SHEETS_CALLS = 12;
/**
 * The set-up reads alone (all but Values.batchUpdate): active spreadsheet, its zone and id, get, batchGet, the Sync log's last row;
 * and the status and updated_at of the orders the feed's 5-minute overlap returns again (the set-up reads only Orders' ids).
 */
const MAX_SETUP_CALLS = 8;

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ orders: 300, seed: 5 });
  // Mid-morning in the store: the runs below, an hour apart, never cross the store's midnight (a new day adds calls).
  await advanceToStoreHour(stack, 8);
  await stack.connect();
  await syncUntilCaughtUp(stack);
});

afterAll(async () => {
  await stack?.close();
});

describe('the set-up cost of a scheduled run', () => {
  it('an incremental run with nothing to do makes at most a dozen Sheets calls and no per-sheet reads', async () => {
    await stack.advanceClocks(3_600_000);
    const run = await stack.runtime.run('onScheduledSync', []);
    expect(run.ok, run.error?.message).toBe(true);
    expect(run.value).toMatchObject({ done: true });
    const calls = run.counts.byMethod;
    const writes = calls['Sheets.Spreadsheets.Values.batchUpdate'] ?? 0;
    // The set-up reads the zone; with no schedule recorded there is no next run to name in its zone.
    expect(calls['Spreadsheet.getSpreadsheetTimeZone'] ?? 0, 'time zone reads').toBeLessThanOrEqual(1);
    expect(run.counts.sheetsCalls).toBeLessThanOrEqual(MAX_SHEETS_CALLS);
    expect(run.counts.sheetsCalls - writes).toBeLessThanOrEqual(MAX_SETUP_CALLS);
    expect(calls['Sheets.Spreadsheets.get']).toBe(1);
    // The set-up's one batchGet (every sheet's header and key columns) and one read (a
    // batchGetByDataFilter: sheets/values-batches.ts) of the few rows the feed's 5-minute overlap
    // returns again: their status and updated_at, never a whole column.
    expect(calls['Sheets.Spreadsheets.Values.batchGet']).toBe(1);
    expect(calls['Sheets.Spreadsheets.Values.batchGetByDataFilter']).toBe(1);
    for (const perSheet of [
      'Sheet.getDeveloperMetadata',
      'DeveloperMetadata.getKey',
      'Range.getValues',
      'Sheet.getMaxRows',
      'Sheet.getMaxColumns',
    ]) {
      expect(calls[perSheet] ?? 0, perSheet).toBe(0);
    }
    expect(await compareWithTruth(stack)).toEqual({ mismatches: [], missing: [], unexpected: [], duplicates: [] });
  });

  it('a run after new orders reads the set-up the same way and still lands every order', async () => {
    await stack.control('orders', { count: 5 });
    await stack.advanceClocks(3_600_000);
    const run = await stack.runtime.run('onScheduledSync', []);
    expect(run.ok, run.error?.message).toBe(true);
    // The set-up's one Spreadsheets.get and no other: data having changed, the report sheets'
    // formulas are re-entered, but the only sheet of the user's (Sheet1) holds nothing (getLastRow
    // 0: sync/formula-sheets.ts), so there is nothing to read; the set-up's one batchGet and the
    // tie-out's one read (batchGetByDataFilter) of the Orders columns it sums (finance/tieout-sheet.ts),
    // never the whole sheet.
    expect(run.counts.byMethod['Sheets.Spreadsheets.get']).toBe(1);
    expect(run.counts.byMethod['Sheets.Spreadsheets.Values.batchGet']).toBe(1);
    expect(run.counts.byMethod['Sheets.Spreadsheets.Values.batchGetByDataFilter']).toBe(1);
    expect(run.counts.byMethod['Sheets.Spreadsheets.Values.get'] ?? 0).toBe(0);
    expect(await compareWithTruth(stack)).toEqual({ mismatches: [], missing: [], unexpected: [], duplicates: [] });
  });
});
