/**
 * A finance analyst renames headings of the Daily and Monthly P&L ("Net revenue", "Net profit"),
 * Products and Variants.
 * The sync finds those columns by their column tag (the API key, column-tags.ts), keeps the names
 * the user gave, writes the figures the API gives (the truth's daily rows, the summary endpoint),
 * and the tie-out still runs. A deleted P&L column is that sheet's problem only: Orders and Line
 * items are written, and the Sync log and the sidebar say the tie-out did not run, never ok.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { deleteColumns } from '../../dev/gas-runtime/spreadsheet/column-edits';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import type { RunStepView, SidebarState } from '../../src/contract/sidebar';
import { tieoutText } from '../../src/contract/tieout-text';
import { compareWithTruth, sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
const RENAMED = {
  'Net revenue': 'net_revenue',
  'Net profit': 'net_profit',
  'Product name': 'name',
  'Variant price': 'price',
};
let stack: Stack;

const workbook = (): Workbook => stack.runtime.workbook as unknown as Workbook;
const sheet = (name: string): SheetModel => workbook().sheetByName(name) as SheetModel;
const headers = (name: string): unknown[] => sheetTable(stack, name)[0];

function rename(name: string, from: string, to: string): void {
  const column = headers(name).indexOf(from) + 1;
  expect(column, `${name} has "${from}"`).toBeGreaterThan(0);
  sheet(name).write(1, column, { value: to });
}

function logRows(): Array<Record<string, unknown>> {
  const [header, ...rows] = sheetTable(stack, 'Sync log');
  return rows.map((row) => Object.fromEntries(header.map((h, i) => [String(h), row[i]])));
}

/** New orders and changes at the emulator, an hour later. */
async function storeChanges(offset: number): Promise<void> {
  const truth = ((await stack.truth('orders')) as { data: Json[] }).data;
  for (const [i, kind] of ['cost_correction', 'refund'].entries()) {
    try {
      await stack.control(`orders/${String(truth[(offset + i * 17) % truth.length].id)}/change`, { kind });
    } catch (e) {
      if (!/409|conflict/i.test(String(e))) throw e;
    }
  }
  await stack.control('orders', { count: 3 });
  await stack.advanceClocks(3_600_000);
}

async function summary(start: string, end: string): Promise<Json> {
  const token = String(((await stack.control('tokens', { scope: 'profitability:read' })) as Json).access_token);
  const res = await fetch(`${stack.apiUrl}/api/v1/profitability/summary?start_date=${start}&end_date=${end}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Json }).data;
}

function lastDay(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
}

async function tieOutNow(): Promise<string> {
  const check = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
  expect(check.ok, check.error?.message).toBe(true);
  return (check.value as RunStepView).message;
}

/** The sidebar's Checks line, as the sidebar words it from getSidebarState's view (tieoutText). */
async function sidebarChecks(): Promise<string> {
  const state = await stack.runtime.run('getSidebarState', [], { authMode: 'FULL' });
  expect(state.ok, state.error?.message).toBe(true);
  const view = (state.value as SidebarState).tieout;
  expect(view).toBeTruthy();
  return tieoutText(view!);
}

beforeAll(async () => {
  stack = await startStack({ orders: 120, seed: 41, plan: 'plus' });
  await stack.connect();
  await syncUntilCaughtUp(stack);
});

afterAll(async () => {
  await stack?.close();
});

describe('renamed Daily P&L, Monthly P&L, Products and Variants headings', () => {
  it('keep their names; the figures equal the truth and the summary endpoint; the tie-out runs', async () => {
    rename('Daily P&L', 'net_revenue', 'Net revenue');
    rename('Monthly P&L', 'net_profit', 'Net profit');
    rename('Products', 'name', 'Product name');
    rename('Variants', 'price', 'Variant price');
    await storeChanges(3);
    await syncUntilCaughtUp(stack);

    expect(headers('Daily P&L')).toContain('Net revenue');
    expect(headers('Daily P&L')).not.toContain('net_revenue');
    expect(headers('Monthly P&L')).toContain('Net profit');
    expect(headers('Monthly P&L')).not.toContain('net_profit');
    expect(headers('Products')).toContain('Product name');
    expect(headers('Variants')).toContain('Variant price');
    // Orders (the 3 new ones among them) and every Daily P&L day, against the truth by key.
    expect(await compareWithTruth(stack, { renamedHeaders: RENAMED })).toEqual(EXACT);

    const today = String(((await stack.truth('store')) as Json).today);
    const [header, ...rows] = sheetTable(stack, 'Monthly P&L');
    const col = (name: string): number => header.indexOf(name);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const month = String(row[col('month')]);
      const end = lastDay(month) < today ? lastDay(month) : today;
      const totals = (await summary(String(row[col('first_day')]), end)).totals as Record<string, number>;
      expect(Math.round(Number(row[col('Net profit')]) * 100), month).toBe(Math.round(totals.net_profit * 100));
      expect(Math.round(Number(row[col('net_revenue')]) * 100), month).toBe(Math.round(totals.net_revenue * 100));
    }

    const checked = await tieOutNow();
    expect(checked).toMatch(/^Tie-out: /);
    expect(checked).not.toMatch(/not run/);
    expect(logRows().at(-1)!.message).toBe(checked);
    const [ch = [], ...checks] = sheetTable(stack, 'Checks');
    const results = checks.map((r) => r[ch.indexOf('result')]).filter((v) => v !== '' && v !== undefined);
    expect(results).toContain('✓');
    expect(results).not.toContain('✗');
  });
});

describe('a deleted Daily P&L column', () => {
  it('does not stop Orders; the Sync log and the sidebar say the tie-out did not run and why', async () => {
    deleteColumns(workbook(), sheet('Daily P&L'), headers('Daily P&L').indexOf('cogs') + 1, 1);
    const dailyBefore = JSON.stringify(sheetTable(stack, 'Daily P&L'));
    await storeChanges(9);
    const run = await stack.runtime.run('onScheduledSync', []);
    expect(run.ok, run.error?.message).toBe(true);
    // Orders and Line items are written: the 3 new orders are there, every figure the truth's.
    const compared = await compareWithTruth(stack, { renamedHeaders: RENAMED });
    expect(compared.missing.filter((m) => !m.startsWith('Daily P&L'))).toEqual([]);
    expect(compared.mismatches.filter((m) => m.sheet !== 'Daily P&L')).toEqual([]);
    const { message } = run.value as { outcome: string; message: string };
    expect(message).toMatch(/The column "cogs" of "Daily P&L" was deleted/);
    expect(message).toMatch(/Edit → Undo/);
    expect(JSON.stringify(sheetTable(stack, 'Daily P&L'))).toBe(dailyBefore);

    const check = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
    expect(check.ok, check.error?.message).toBe(true);
    const checked = check.value as RunStepView;
    expect(checked.outcome).toBe('error');
    expect(checked.message).toMatch(/^Tie-out not run this time: The column "cogs" of "Daily P&L" was deleted/);
    const logged = logRows().at(-1)!;
    expect(logged.job).toBe('check');
    expect(logged.outcome).toBe('error');
    expect(logged.message).toBe(checked.message);
    const line = await sidebarChecks();
    expect(line).not.toMatch(/tie out/);
    expect(line).toMatch(/^✗ Tie-out not run this time: The column "cogs" of "Daily P&L" was deleted/);
    expect(line).toMatch(/Edit → Undo/);
  });
});
