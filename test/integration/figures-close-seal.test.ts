/**
 * Each month-end close against what it saved: the `Close YYYY-MM` sheet is protected, yet its
 * owner can still edit it, and the Restatements compare the month against whatever it holds. An
 * edit of one day's net_profit there turns the close ✗ in Checks (the Sync log, Checks → Run and
 * the sidebar's Checks card say so), and putting the cell back turns it ✓ again. The closed figures are the emulator's truth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { startStack, type Stack } from '../../dev/harness/index';
import { tieoutText, type TieoutView } from '../../src/contract/tieout-text';
import { checksScope, sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
let stack: Stack;
let month = '';

beforeAll(async () => {
  stack = await startStack({ orders: 300, seed: 29 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
  const today = String(((await stack.truth('store')) as Json).today);
  const [y, m] = today.slice(0, 7).split('-').map(Number) as [number, number];
  month = m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

/** The Checks line of the close of `month` (kind close), by header. */
function closeLine(): { result: unknown; note: unknown } | undefined {
  const [headers = [], ...rows] = sheetTable(stack, 'Checks');
  const row = rows.find((r) => r[headers.indexOf('period')] === month && r[headers.indexOf('kind')] === 'close');
  return row ? { result: row[headers.indexOf('result')], note: row[headers.indexOf('note')] } : undefined;
}

async function checkNow(): Promise<string> {
  const r = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
  expect(r.ok, r.error?.message).toBe(true);
  return String((r.value as { message: string }).message);
}

/** The sidebar's Checks card line, from the view the server sends it. */
async function sidebarChecks(): Promise<string> {
  const state = await stack.runtime.run('getSidebarState', [], { authMode: 'FULL' });
  expect(state.ok, state.error?.message).toBe(true);
  return tieoutText((state.value as { tieout: TieoutView }).tieout);
}

describe('each month-end close against what it saved', () => {
  it("a close sheet's day edited after the close is ✗ in Checks; put back, ✓", async () => {
    const closed = await stack.runtime.run('closeMonth', [{ month }], { authMode: 'FULL' });
    expect(closed.ok && (closed.value as Json).status, closed.error?.message).toBe('closed');
    await checkNow();
    expect(closeLine()?.result, String(closeLine()?.note)).toBe('✓');
    expect(checksScope(stack)).toMatch(/Each month-end close sheet \(1\) against what its close saved/);

    // The close holds the truth's net_profit of its first day; the owner edits it by +500.
    const name = `Close ${month}`;
    const table = sheetTable(stack, name);
    const header = table[7].map(String);
    const column = header.indexOf('net_profit') + 1;
    const firstDay = table[9];
    const [truth] = (
      (await stack.control(
        `truth/daily?start_date=${String(firstDay[0]).slice(0, 10)}&end_date=${String(firstDay[0]).slice(0, 10)}`,
      )) as { data: Json[] }
    ).data;
    const original = firstDay[column - 1] as number;
    expect(Math.round(original * 100)).toBe(Math.round(Number(truth.net_profit) * 100));
    const sheet = (stack.runtime.workbook as unknown as Workbook).sheetByName(name) as SheetModel;
    sheet.write(10, column, { value: Math.round(original * 100 + 50_000) / 100 });

    const said = await checkNow();
    expect(closeLine()?.result, String(closeLine()?.note)).toBe('✗');
    expect(String(closeLine()?.note)).toMatch(/no longer holds what the close saved/);
    expect(said).toContain(`✗ ${name}`);
    expect(await sidebarChecks()).toContain(`✗ ${name} no longer holds what the close saved`);

    sheet.write(10, column, { value: original });
    await checkNow();
    expect(closeLine()?.result, String(closeLine()?.note)).toBe('✓');
    expect(await sidebarChecks()).not.toContain(name);
  });
});
