/**
 * A column no longer synced never contradicts its row. Sheets synced with All,
 * then Essentials chosen, then orders refunded and the next sync: every cell of a retired Orders or
 * Line items column is empty or equal to the emulator's truth (an old net_margin_pct beside a new
 * net_profit is neither), and each retired column's header note says since when it is not synced
 * and that its values were cleared.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import { compareWithTruth, sheetTable, syncUntilCaughtUp } from './sync-support';
import { ESSENTIAL_LINES, ESSENTIAL_ORDERS } from './column-presets';

type Json = Record<string, unknown>;

const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };

let stack: Stack;

function sheet(name: string): SheetModel {
  return stack.runtime.workbook.sheets.find((s) => s.name === name)! as unknown as SheetModel;
}

async function spreadsheetDay(): Promise<string> {
  const { now } = (await stack.control('clock')) as { now: string };
  return new Date(now).toLocaleDateString('en-CA', { timeZone: stack.runtime.workbook.timeZone });
}

beforeAll(async () => {
  stack = await startStack({ orders: 500, seed: 37 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
});

afterAll(async () => {
  await stack?.close();
});

describe('columns retired by choosing Essentials, then refunds', () => {
  it('hold no figure that disagrees with the truth, and say since when they are not synced', async () => {
    const allOrders = sheetTable(stack, 'Orders')[0].map(String);
    const allLines = sheetTable(stack, 'Line items')[0].map(String);
    const retiredOrders = allOrders.filter((h) => ESSENTIAL_ORDERS.indexOf(h) < 0);
    const retiredLines = allLines.filter((h) => ESSENTIAL_LINES.indexOf(h) < 0);
    expect(retiredOrders).toEqual(expect.arrayContaining(['net_margin_pct', 'refunded_at']));
    expect(retiredLines).toEqual(expect.arrayContaining(['refund_amount', 'refunded_quantity']));

    const run = await stack.runtime.run('setColumns', [
      { Orders: { preset: 'essentials' }, 'Line items': { preset: 'essentials' } },
    ]);
    expect(run.ok, run.error?.message).toBe(true);
    const orders = ((await stack.truth('orders')) as { data: Json[] }).data;
    const refundable = orders.filter(
      (o) => !o.canceled_at && o.financial_status !== 'refunded' && Number((o.economics as Json).net_revenue) > 0,
    );
    const refunded = [refundable[3], refundable[40], refundable[90]].map((o) => String(o.id));
    await stack.control(`orders/${refunded[0]}/change`, { kind: 'refund' });
    await stack.control(`orders/${refunded[1]}/change`, { kind: 'partial_refund' });
    await stack.control(`orders/${refunded[2]}/change`, { kind: 'refund' });
    await stack.advanceClocks(60_000);
    const dayBefore = await spreadsheetDay();
    await syncUntilCaughtUp(stack);
    const dayAfter = await spreadsheetDay();

    // The columns stay in place (nothing of the user's moves), the synced ones equal the truth.
    expect(sheetTable(stack, 'Orders')[0].map(String)).toEqual(allOrders);
    expect(await compareWithTruth(stack, { retiredColumns: [...retiredOrders, ...retiredLines] })).toEqual(EXACT);

    for (const [name, header, retired] of [
      ['Orders', allOrders, retiredOrders],
      ['Line items', allLines, retiredLines],
    ] as const) {
      for (const column of retired) {
        const note = sheet(name).note(1, header.indexOf(column) + 1) ?? '';
        const since = /^No longer synced since (\d{4}-\d{2}-\d{2}); values cleared/.exec(note);
        expect([name, column, since !== null]).toEqual([name, column, true]);
        expect([dayBefore, dayAfter]).toContain(since![1]);
      }
    }
  });
});
