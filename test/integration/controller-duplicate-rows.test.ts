/**
 * What a controller found: a row a user copied in Orders or the
 * Daily P&L, or a Daily P&L date typed over the next day's, is named as a duplicate in Checks and
 * Sync now leaves one row per key holding the API's figures (ground truth: the emulator's
 * /_emulator/truth/*), never losing a row that is not a duplicate; the scope line says which
 * Orders cells no sum proves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { startStack, type Stack } from '../../dev/harness/index';
import { checksRow, checksScope, sheetTable, storeDay, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
let stack: Stack;
let timeZone = '';
let today = '';

beforeAll(async () => {
  stack = await startStack({ orders: 160, seed: 83, plan: 'plus', days: 120 });
  await stack.connect();
  ({ timeZone, today } = await storeDay(stack));
  await syncUntilCaughtUp(stack);
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

const cents = (v: unknown): number => Math.round(Number(v) * 100);
const localDay = (iso: string): string => new Date(iso).toLocaleDateString('en-CA', { timeZone });
const sheet = (name: string): SheetModel =>
  (stack.runtime.workbook as unknown as Workbook).sheetByName(name) as SheetModel;

function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

async function run(name: string): Promise<Json> {
  const r = await stack.runtime.run(name, [], { authMode: 'FULL' });
  expect(r.ok, r.error?.message).toBe(true);
  return r.value as Json;
}

/** Sync now as the sidebar runs it: startSync, then steps until done. */
async function syncNow(): Promise<void> {
  await run('startSync');
  for (let i = 0; i < 40; i++) if ((await run('runSyncStep')).done) return;
  throw new Error('Sync now did not finish');
}

async function truthDay(day: string): Promise<Json> {
  return ((await stack.control(`truth/daily?start_date=${day}&end_date=${day}`)) as { data: Json[] }).data[0]!;
}

/** The Daily P&L rows dated `day`, each as header → cell. */
function dailyRows(day: string): Array<Record<string, unknown>> {
  const [h, ...rows] = sheetTable(stack, 'Daily P&L');
  return rows.filter((r) => r[0] === day).map((r) => Object.fromEntries(h.map((k, i) => [String(k), r[i]])));
}

/** The money fields of the API's day that differ from a Daily P&L row. */
function differsFromApi(row: Record<string, unknown>, truth: Json): string[] {
  return Object.keys(truth)
    .filter((f) => typeof truth[f] === 'number' && f in row && cents(row[f]) !== cents(truth[f]))
    .map((f) => `${f}: sheet ${String(row[f])} api ${String(truth[f])}`);
}

/** Copies sheet row `from` (1-based) below the sheet's last row, as a user's copy-paste does. */
function copyRowToEnd(name: string, from: number): void {
  const table = sheetTable(stack, name);
  const src = table[from - 1]!;
  src.forEach((value, i) => sheet(name).write(table.length + 1, i + 1, { value: value as never }));
}

async function oldActiveOrder(skip: number): Promise<Json> {
  const orders = ((await stack.truth('orders')) as { data: Json[] }).data.filter(
    (o) => !o.canceled_at && addDays(localDay(String(o.created_at)), 40) < today,
  );
  return orders[skip]!;
}

describe('controller: duplicated rows and the scope of Checks', () => {
  it('a copied Orders row is named as a duplicate in Checks; Sync now leaves one row with the API figures and the day ✓', async () => {
    const order = await oldActiveOrder(7);
    const id = String(order.id);
    const day = localDay(String(order.created_at));
    const orders = sheetTable(stack, 'Orders');
    const rowsBefore = orders.length;
    copyRowToEnd('Orders', orders.findIndex((r) => r[orders[0].indexOf('id')] === id) + 1);
    await run('tieOutNow');
    const found = checksRow(stack, day);
    expect(found?.result, `Checks ${day}`).toBe('✗');
    expect(String(found?.note), 'the note names the duplicated order').toMatch(
      new RegExp(`Listed more than once in Orders: ${id} \\(rows \\d+, ${rowsBefore + 1}\\)`),
    );

    await syncNow();
    const after = sheetTable(stack, 'Orders');
    const [h] = after;
    const kept = after.filter((r) => r[h!.indexOf('id')] === id);
    expect(kept.length, `rows of ${id} after Sync now`).toBe(1);
    const truth = ((await stack.truth('orders')) as { data: Json[] }).data.find((o) => o.id === id)!;
    const economics = truth.economics as Json;
    for (const f of ['gross_revenue', 'net_revenue', 'cogs', 'net_profit'])
      expect(cents(kept[0]![h!.indexOf(f)]), `${id} ${f}`).toBe(cents(economics[f]));
    // No order that was not a duplicate is lost.
    expect(
      new Set(
        after
          .slice(1)
          .map((r) => r[h!.indexOf('id')])
          .filter((k) => k !== ''),
      ).size,
    ).toBe(new Set(orders.slice(1).map((r) => r[h!.indexOf('id')])).size);
    expect(checksRow(stack, day)?.result, `Checks ${day} after Sync now`).toBe('✓');
  });

  it('a copied Daily P&L row is ✗ (listed in two rows); Sync now leaves one row equal to the API', async () => {
    const day = addDays(today, -50);
    const [, ...rows] = sheetTable(stack, 'Daily P&L');
    copyRowToEnd('Daily P&L', rows.findIndex((r) => r[0] === day) + 2);
    expect(dailyRows(day).length).toBe(2);
    await run('tieOutNow');
    const found = checksRow(stack, day);
    expect(found?.result, `Checks ${day}`).toBe('✗');
    expect(String(found?.note)).toMatch(/the day is listed in 2 rows/);

    await syncNow();
    const left = dailyRows(day);
    expect(left.length, `Daily P&L rows dated ${day} after Sync now`).toBe(1);
    expect(differsFromApi(left[0]!, await truthDay(day))).toEqual([]);
    expect(checksRow(stack, day)?.result, `Checks ${day} after Sync now`).toBe('✓');
  });

  it("a Daily P&L date changed to the next day's: both days ✗; Sync now leaves one row per day, each the API's", async () => {
    const day = addDays(today, -55);
    const next = addDays(day, 1);
    const [, ...rows] = sheetTable(stack, 'Daily P&L');
    sheet('Daily P&L').write(rows.findIndex((r) => r[0] === day) + 2, 1, { value: next });
    await run('tieOutNow');
    expect(checksRow(stack, day)?.result, `Checks ${day} (no row)`).toBe('✗');
    expect(checksRow(stack, next)?.result, `Checks ${next} (two rows)`).toBe('✗');

    await syncNow();
    expect([dailyRows(day).length, dailyRows(next).length], 'rows of the two days').toEqual([1, 1]);
    expect(differsFromApi(dailyRows(day)[0]!, await truthDay(day))).toEqual([]);
    expect(differsFromApi(dailyRows(next)[0]!, await truthDay(next))).toEqual([]);
    expect([checksRow(stack, day)?.result, checksRow(stack, next)?.result]).toEqual(['✓', '✓']);
  });

  it('the scope line says text cells of Orders (financial_status) are proven only by the reconciliation pass', async () => {
    const order = await oldActiveOrder(12);
    const [h, ...rows] = sheetTable(stack, 'Orders');
    const at = rows.findIndex((r) => r[h!.indexOf('id')] === order.id);
    const status = h!.indexOf('financial_status');
    sheet('Orders').write(at + 2, status + 1, { value: order.financial_status === 'refunded' ? 'paid' : 'refunded' });
    await run('tieOutNow');
    // The day stays ✓ (no sum holds the cell): the scope line must say so rather than claim it.
    expect(checksRow(stack, localDay(String(order.created_at)))?.result).toBe('✓');
    expect(checksScope(stack)).toMatch(/financial_status[^.]*in no sum: this check does not prove them/);
    expect(checksScope(stack)).toMatch(/only (the|a) reconciliation pass proves them/);
    sheet('Orders').write(at + 2, status + 1, { value: String(order.financial_status) });
  });
});
