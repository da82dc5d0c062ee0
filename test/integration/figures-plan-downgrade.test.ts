/**
 * The plan drops from Plus to Starter. The service no longer returns
 * the days before the new window (spec 8.3), so the Daily P&L rows synced under Plus stay as they
 * were; a refund on an order of those days never reaches them. Nothing may present them as
 * current or proven: the Daily P&L header note does not say they are absent, Monthly P&L does not
 * call their months complete (or merely partial), and the Checks scope line does not claim the
 * Orders before the window as proven.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { startStack, type Stack } from '../../dev/harness/index';
import { advanceToStoreHour, checksScope, sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
let stack: Stack;
let timeZone = '';

const localDay = (iso: string): string => new Date(iso).toLocaleDateString('en-CA', { timeZone });

function monthRow(month: string): Record<string, unknown> | undefined {
  const [headers = [], ...rows] = sheetTable(stack, 'Monthly P&L');
  const row = rows.find((r) => r[headers.indexOf('month')] === month);
  return row ? Object.fromEntries(headers.map((h, i) => [String(h), row[i]])) : undefined;
}

beforeAll(async () => {
  stack = await startStack({ orders: 200, seed: 97, plan: 'plus', days: 150 });
  await stack.connect();
  // The plan window's first day moves at the store's midnight: the hour advanced below stays in one day.
  await advanceToStoreHour(stack, 8);
  const store = (await stack.truth('store')) as Json;
  timeZone = String((store.store as Json).timezone);
  await syncUntilCaughtUp(stack);
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

describe('after a plan downgrade, the days before the new window', () => {
  it('are not presented as current or proven: header note, Monthly P&L status, Checks scope', async () => {
    await stack.control('plan', { plan: 'starter' });
    const from = String(((await stack.truth('store')) as Json).history_available_from);
    const order = ((await stack.truth('orders')) as { data: Json[] }).data.find(
      (o) =>
        !o.canceled_at &&
        o.financial_status !== 'refunded' &&
        (o.line_items as Json[]).length > 0 &&
        localDay(String(o.created_at)) < `${from.slice(0, 7)}-01`,
    )!;
    const day = localDay(String(order.created_at));
    await stack.control(`orders/${String(order.id)}/change`, { kind: 'refund' });
    await stack.advanceClocks(60 * 60_000);
    await syncUntilCaughtUp(stack);
    const r = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
    expect(r.ok, r.error?.message).toBe(true);

    const before = sheetTable(stack, 'Daily P&L')
      .slice(1)
      .filter((row) => String(row[0]) < from);
    expect(before.length, `Daily P&L rows before ${from} (kept from Plus)`).toBeGreaterThan(0);
    const note =
      ((stack.runtime.workbook as unknown as Workbook).sheetByName('Daily P&L') as SheetModel).note(1, 1) ?? '';
    expect(note, 'the Daily P&L header note while rows before the window are in the sheet').not.toMatch(
      /are not in this sheet/,
    );
    expect(note).toContain('as last synced');

    const month = monthRow(day.slice(0, 7));
    expect(String(month?.status), `Monthly P&L ${day.slice(0, 7)} status (wholly before ${from})`).toMatch(
      /^before plan history/,
    );
    const straddling = monthRow(from.slice(0, 7));
    if (from.slice(8) !== '01')
      expect(String(straddling?.status), `Monthly P&L ${from.slice(0, 7)} status`).toContain(`days before ${from}`);

    const scope = checksScope(stack);
    const ordersFrom = /Orders from (\d{4}-\d{2}-\d{2})/.exec(scope)?.[1] ?? '';
    expect(
      ordersFrom >= from,
      `the Checks scope line claims Orders from ${ordersFrom}; the plan window starts ${from}`,
    ).toBe(true);
  });
});
