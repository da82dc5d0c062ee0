/**
 * Spec 2.3, 4.9: the tie-out compares in exact cents. The API's amounts are
 * exact cents and the spec names no tolerance, so a user's edit of +0.04 to one Orders cogs cell
 * on a day of five or more orders turns that day ✗ — at one cent per order it stayed ✓. The day,
 * its orders and the P&L figure are the emulator's truth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { startStack, type Stack } from '../../dev/harness/index';
import { sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
type Row = Array<string | number | boolean>;
let stack: Stack;
let timeZone = '';
let busyDay = '';

beforeAll(async () => {
  stack = await startStack({ orders: 120, seed: 71, plan: 'plus' });
  await stack.connect();
  const store = (await stack.truth('store')) as Json;
  timeZone = String((store.store as Json).timezone);
  // A busy day: six more orders, all placed at the emulator's now.
  const clock = (await stack.control('clock')) as { now: string };
  await stack.control('orders', { count: 6 });
  busyDay = localDay(clock.now);
  await syncUntilCaughtUp(stack);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

const localDay = (iso: string): string => new Date(iso).toLocaleDateString('en-CA', { timeZone });

/** The Checks sheet's row of a period, by header. */
function checksRow(period: string): (header: string) => unknown {
  const [headers, ...rows] = sheetTable(stack, 'Checks') as Row[];
  const row = rows.find((r) => r[headers.indexOf('period')] === period);
  expect(row, period).toBeDefined();
  return (header) => row![headers.indexOf(header)];
}

describe('the tie-out in exact cents [spec 2.3]', () => {
  it('an Orders cogs edit of +0.04 on a day of five or more orders is ✗, with the 0.04 the truth says', async () => {
    const orders = ((await stack.truth('orders')) as { data: Json[] }).data.filter(
      (o) => !o.canceled_at && localDay(String(o.created_at)) === busyDay,
    );
    expect(orders.length, 'the busy day holds five or more active orders').toBeGreaterThanOrEqual(5);
    const [truthDay] = (
      (await stack.control(`truth/daily?start_date=${busyDay}&end_date=${busyDay}`)) as { data: Json[] }
    ).data;
    expect(checksRow(busyDay)('result'), 'a clean sync ties out').toBe('✓');

    const [headers, ...rows] = sheetTable(stack, 'Orders');
    const at = rows.findIndex((r) => r[headers.indexOf('id')] === orders[0].id);
    const column = headers.indexOf('cogs') + 1;
    const original = rows[at][column - 1] as number;
    const sheet = (stack.runtime.workbook as unknown as Workbook).sheetByName('Orders') as SheetModel;
    sheet.write(at + 2, column, { value: Math.round(original * 100 + 4) / 100 });

    const now = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
    expect(now.ok, now.error?.message).toBe(true);
    const day = checksRow(busyDay);
    expect(day('result'), `${busyDay}: ${String(day('note'))}`).toBe('✗');
    expect(day('note')).toContain('Differs: cogs.');
    expect(Math.round(Number(day('cogs_pnl')) * 100)).toBe(Math.round(Number(truthDay.cogs) * 100));
    expect(Math.round(Number(day('cogs_difference')) * 100)).toBe(4);
    expect(checksRow(busyDay.slice(0, 7))('result')).toBe('✗');
    expect((now.value as { message: string }).message).toContain(busyDay);

    const formula = await stack.runtime.run('PROFIT_TIEOUT', [busyDay, busyDay], { authMode: 'CUSTOM_FUNCTION' });
    expect(formula.ok, formula.error?.message).toBe(true);
    const [fHeaders, fRow] = formula.value as Row[];
    expect(fRow[fHeaders.indexOf('result')]).toBe('✗');
  });
});
