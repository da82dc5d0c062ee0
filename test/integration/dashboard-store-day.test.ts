/**
 * The dashboard's periods are the store's, as every other period of the add-on: the API's days are
 * store-local (spec 2.9). A spreadsheet in Asia/Singapore over a store in another zone, on the
 * spreadsheet's 1st while the store is still on the last day of the month before: "This month" is
 * the store's month so far (not a day in its future), "Last month" the store's last complete month.
 * Ground truth: the emulator's store today.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import { serialToEpoch } from '../../dev/gas-runtime/spreadsheet/dates';
import { addDays } from '../../src/server/platform/calendar';
import { syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
const SHEET_ZONE = 'Asia/Singapore';
let stack: Stack;
const dayIn = (ms: number, zone: string): string => new Date(ms).toLocaleDateString('en-CA', { timeZone: zone });

beforeAll(async () => {
  stack = await startStack({ orders: 60, seed: 14, plan: 'plus' });
  await stack.connect();
  const zone = String(((await stack.truth('store')) as { store: Json }).store.timezone);
  expect(zone).not.toBe(SHEET_ZONE);
  const now = Date.parse(((await stack.control('clock')) as { now: string }).now);
  // The next whole hour when the spreadsheet's zone is on the 1st and the store's is not.
  let t = Math.ceil(now / 3_600_000) * 3_600_000;
  while (!(dayIn(t, SHEET_ZONE).endsWith('-01') && !dayIn(t, zone).endsWith('-01'))) t += 3_600_000;
  await stack.advanceClocks(t - now);
  (stack.runtime.workbook as { timeZone: string }).timeZone = SHEET_ZONE;
  await syncUntilCaughtUp(stack, 40);
}, 300_000);

afterAll(async () => {
  await stack?.close();
});

describe('dashboard periods in a spreadsheet ahead of the store', () => {
  it('"This month" ends on the store’s today and "Last month" is the store’s month before', async () => {
    const storeToday = String(((await stack.truth('store')) as Json).today);
    const inserted = await stack.runtime.run('insertDashboard', [], { authMode: 'FULL' });
    expect(inserted.ok, inserted.error?.message).toBe(true);
    const sheet = stack.runtime.workbook.sheetByName('Dashboard') as SheetModel;
    // Each period cell is a date serial: the day it shows in the spreadsheet's zone.
    const shown = (row: number, column: number): string =>
      dayIn(serialToEpoch(sheet.value(row, column) as number, SHEET_ZONE), SHEET_ZONE);
    const periods = [2, 3, 4].map((column) => [shown(5, column), shown(6, column)]);
    const monthStart = `${storeToday.slice(0, 8)}01`;
    const lastMonthEnd = addDays(monthStart, -1);
    expect(periods).toEqual([
      [monthStart, storeToday],
      [`${lastMonthEnd.slice(0, 8)}01`, lastMonthEnd],
      [`${storeToday.slice(0, 4)}-01-01`, storeToday],
    ]);

    // This month, as its KPI formula asks it, is a figure, not a future period's note.
    const r = await stack.runtime.run('PROFIT_SUMMARY', [monthStart, storeToday, 'net_profit', 'value'], {
      authMode: 'CUSTOM_FUNCTION',
    });
    expect(r.ok, r.error?.message).toBe(true);
    expect(typeof (r.value as unknown[][])[0]![0]).toBe('number');
  }, 300_000);
});
