/**
 * An old order becomes EUR in a USD store. The service's daily figures
 * then hold an amount in another currency, which the Orders sheet (currencies kept apart) cannot
 * prove: Checks says the day is not compared, never a ✗ that Sync now cannot clear, the Sync log
 * does not send the user to Sync now for it, and the Daily P&L header note and PROFIT_SUMMARY over
 * that day say its totals hold an order in EUR. The Daily P&L still equals the service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { startStack, type Stack } from '../../dev/harness/index';
import { checksRow, sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
let stack: Stack;
let timeZone = '';
let today = '';
let storeCurrency = '';

const cents = (v: unknown): number => Math.round(Number(v) * 100);
const localDay = (iso: string): string => new Date(iso).toLocaleDateString('en-CA', { timeZone });

function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

async function run(name: string, args: unknown[] = [], authMode = 'FULL'): Promise<unknown> {
  const r = await stack.runtime.run(name, args, { authMode: authMode as 'FULL' });
  expect(r.ok, r.error?.message).toBe(true);
  return r.value;
}

async function syncNow(): Promise<void> {
  await run('startSync');
  for (let step = 0; step < 20; step++) if (((await run('runSyncStep')) as { done: boolean }).done) return;
  throw new Error('Sync now did not finish in 20 steps');
}

function lastLogMessage(): string {
  const [headers = [], ...rows] = sheetTable(stack, 'Sync log');
  return String(rows[rows.length - 1]?.[headers.indexOf('message')] ?? '');
}

beforeAll(async () => {
  stack = await startStack({ orders: 200, seed: 97, plan: 'plus', days: 150 });
  await stack.connect();
  const store = (await stack.truth('store')) as Json;
  timeZone = String((store.store as Json).timezone);
  storeCurrency = String((store.store as Json).currency);
  today = String(store.today);
  await syncUntilCaughtUp(stack);
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

describe('an order in another currency than the store’s', () => {
  it('its day is "not compared" in Checks (not ✗), Sync now is not asked for it, PROFIT_SUMMARY names EUR, the Daily P&L equals the service', async () => {
    expect(storeCurrency).not.toBe('EUR');
    const order = ((await stack.truth('orders')) as { data: Json[] }).data.filter(
      (o) =>
        !o.canceled_at && (o.line_items as Json[]).length > 0 && localDay(String(o.created_at)) < addDays(today, -70),
    )[5]!;
    const day = localDay(String(order.created_at));
    await stack.control(`orders/${String(order.id)}/patch`, { currency: 'EUR' });
    await stack.advanceClocks(60 * 60_000);
    await syncUntilCaughtUp(stack);
    await syncNow();
    await run('tieOutNow');

    const check = checksRow(stack, day);
    expect(check?.result, `Checks for ${day}: ${String(check?.note)}`).toBe('not compared');
    expect(String(check?.note)).toContain('another currency');
    expect(lastLogMessage(), 'the tie-out in the Sync log').not.toMatch(/✗ on/);
    expect(lastLogMessage()).toContain(`Not compared: ${day}`);

    const truth = ((await stack.control(`truth/daily?start_date=${day}&end_date=${day}`)) as { data: Json[] }).data[0]!;
    const [headers = [], ...rows] = sheetTable(stack, 'Daily P&L');
    const row = rows.find((r) => r[0] === day)!;
    for (const f of ['gross_revenue', 'net_revenue', 'net_profit'])
      expect(cents(row[headers.indexOf(f)]), `Daily P&L ${day} ${f}`).toBe(cents(truth[f]));

    const dailySheet = (stack.runtime.workbook as unknown as Workbook).sheetByName('Daily P&L') as SheetModel;
    expect(dailySheet.note(1, 1) ?? '', 'the Daily P&L header note').toMatch(new RegExp(`${day}.*1 in EUR`));

    const table = (await run('PROFIT_SUMMARY', [day, day], 'CUSTOM_FUNCTION')) as unknown[][];
    const note = table.find((r) => r[0] === 'currency_note');
    expect(String(note?.[1] ?? ''), 'PROFIT_SUMMARY table of the day').toMatch(/1 in EUR/);
    const cell = (await run('PROFIT_SUMMARY', [day, day, 'gross_revenue'], 'CUSTOM_FUNCTION')) as unknown[][];
    expect(cents(cell[0]![0])).toBe(cents(truth.gross_revenue));
    expect(String(cell[0]![1] ?? ''), 'the note beside PROFIT_SUMMARY(day, day, "gross_revenue")').toMatch(/EUR/);

    // The schedule does not fetch the day again every hour: it is not a ✗ a refetch could clear.
    await stack.advanceClocks(60 * 60_000);
    await syncUntilCaughtUp(stack);
    expect(lastLogMessage()).not.toContain('Fetched again');
    expect(checksRow(stack, day)?.result).toBe('not compared');
  });
});
