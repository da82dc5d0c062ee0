/**
 * The tie-out proves what every report reads, against the emulator's truth: a Daily P&L cell older than the trailing window, a Monthly P&L total, an order's net_profit
 * edited in the sheet, and a tax correction the service made without moving the order's change
 * marker each turn their period ✗ in Checks ("Check again", tieOutNow); Sync now (runSyncStep, the
 * sidebar's) puts the figures back as the service has them and the period is ✓ again. Days, months
 * and figures are taken from the emulator's truth, never from the sheet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { startStack, type Stack } from '../../dev/harness/index';
import { compareWithTruth, keyColumn, sheetTable, storeDay, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
type Row = Array<string | number | boolean>;
const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
let stack: Stack;
let timeZone = '';
let today = '';

beforeAll(async () => {
  stack = await startStack({ orders: 500, seed: 71 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
  ({ timeZone, today } = await storeDay(stack));
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

const localDay = (iso: string): string => new Date(iso).toLocaleDateString('en-CA', { timeZone });
const cents = (v: unknown): number => Math.round(Number(v) * 100);

/** Checks rows of one kind: period → the row by header. */
function checks(kind: 'day' | 'month'): Map<string, Record<string, unknown>> {
  const [headers, ...rows] = sheetTable(stack, 'Checks') as Row[];
  const out = new Map<string, Record<string, unknown>>();
  for (const r of rows) {
    if (r[headers.indexOf('kind')] !== kind) continue;
    out.set(String(r[headers.indexOf('period')]), Object.fromEntries(headers.map((h, i) => [String(h), r[i]])));
  }
  return out;
}

const failing = (kind: 'day' | 'month'): string[] =>
  [...checks(kind)].filter(([, r]) => r.result !== '✓').map(([p]) => p);

/** Writes a value into the row of a sheet whose first cell is `key`, as a user typing over it. */
function editCell(name: string, key: string, header: string, change: (v: number) => number): number {
  const [headers, ...rows] = sheetTable(stack, name);
  const at = rows.findIndex((r) => String(r[keyColumn([headers])]) === key);
  expect(at, `${name} has a row ${key}`).toBeGreaterThanOrEqual(0);
  const column = headers.indexOf(header);
  const held = rows[at][column] as number;
  ((stack.runtime.workbook as unknown as Workbook).sheetByName(name) as SheetModel).write(at + 2, column + 1, {
    value: change(held),
  });
  return held;
}

function cellOf(name: string, key: string, header: string): unknown {
  const [headers, ...rows] = sheetTable(stack, name);
  const row = rows.find((r) => String(r[keyColumn([headers])]) === key);
  return row ? row[headers.indexOf(header)] : undefined;
}

async function checkAgain(): Promise<string> {
  const r = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
  expect(r.ok, r.error?.message).toBe(true);
  return (r.value as { message: string }).message;
}

/** The sidebar's Sync now: steps until done. */
async function syncNow(): Promise<void> {
  for (let step = 0; step < 20; step++) {
    const r = await stack.runtime.run('runSyncStep', [], { authMode: 'FULL' });
    expect(r.ok, r.error?.message).toBe(true);
    if ((r.value as { done: boolean }).done) return;
  }
  throw new Error('Sync now did not finish in 20 steps');
}

async function truthDaily(start: string, end: string): Promise<Json[]> {
  return ((await stack.control(`truth/daily?start_date=${start}&end_date=${end}`)) as { data: Json[] }).data;
}

async function activeOrder(index: number): Promise<Json> {
  const orders = ((await stack.truth('orders')) as { data: Json[] }).data.filter(
    (o) => !o.canceled_at && (o.line_items as Json[]).length > 0,
  );
  return orders[index];
}

describe('the Daily P&L sheet', () => {
  it('a cell older than 60 days edited by +500 net_profit is ✗ naming the day; Sync now puts the truth back and it is ✓', async () => {
    const [old] = await truthDaily(addDays(today, -90), addDays(today, -90));
    const day = String(old.date);
    expect(cellOf('Daily P&L', day, 'net_profit')).toBe(old.net_profit);
    editCell('Daily P&L', day, 'net_profit', (v) => v + 500);

    const message = await checkAgain();
    expect(message).toContain(day);
    expect(failing('day')).toEqual([day]);
    expect(String(checks('day').get(day)!.pnl_sheet)).toContain('net_profit');

    await syncNow();
    expect(cellOf('Daily P&L', day, 'net_profit')).toBe(old.net_profit);
    expect(await compareWithTruth(stack)).toEqual(EXACT);
    expect(failing('day')).toEqual([]);
    expect(failing('month')).toEqual([]);
    expect(checks('day').get(day)!.pnl_sheet).toBe('✓');
  });
});

describe('the Monthly P&L sheet', () => {
  it('a total edited in a month row is ✗ naming the month; Sync now rebuilds it equal to the sum of the truth’s days, ✓', async () => {
    const month = addDays(today, -75).slice(0, 7);
    const days = await truthDaily(`${month}-01`, lastDay(month));
    const truth = days.reduce((n, d) => n + cents(d.net_profit), 0);
    expect(cents(cellOf('Monthly P&L', month, 'net_profit'))).toBe(truth);
    editCell('Monthly P&L', month, 'net_profit', (v) => v + 500);

    const message = await checkAgain();
    expect(message).toContain(month);
    expect(failing('day')).toEqual([]);
    expect(failing('month')).toEqual([month]);
    expect(String(checks('month').get(month)!.pnl_sheet)).toContain('net_profit');

    await syncNow();
    expect(cents(cellOf('Monthly P&L', month, 'net_profit'))).toBe(truth);
    expect(failing('month')).toEqual([]);
    expect(checks('month').get(month)!.pnl_sheet).toBe('✓');
  });
});

describe('the orders’ own net_profit and tax', () => {
  it('an edited Orders net_profit cell is ✗ on its day; Sync now puts it back, ✓', async () => {
    const order = await activeOrder(60);
    const day = localDay(String(order.created_at));
    editCell('Orders', String(order.id), 'net_profit', (v) => v + 500);

    await checkAgain();
    expect(failing('day')).toEqual([day]);
    expect(String(checks('day').get(day)!.note)).toContain('net_profit');

    await syncNow();
    expect(cellOf('Orders', String(order.id), 'net_profit')).toBe((order.economics as Json).net_profit);
    expect(failing('day')).toEqual([]);
  });

  it('a tax correction whose change marker did not move is ✗ on its day; Sync now fetches the day and it is ✓', async () => {
    const order = await activeOrder(150);
    const day = localDay(String(order.created_at));
    const tax = Number((order.economics as Json).tax);
    await stack.control(`orders/${String(order.id)}/silent-patch`, {
      economics: { tax: Math.round(tax * 100 + 321) / 100 },
    });
    const corrected = ((await stack.truth('orders')) as { data: Json[] }).data.find((o) => o.id === order.id)!;
    expect(corrected.updated_at).toBe(order.updated_at);
    await stack.advanceClocks(2 * 60_000);

    await checkAgain();
    expect(failing('day')).toEqual([day]);
    expect(String(checks('day').get(day)!.note)).toContain('tax');

    await syncNow();
    expect(cellOf('Orders', String(order.id), 'tax')).toBe((corrected.economics as Json).tax);
    expect(await compareWithTruth(stack)).toEqual(EXACT);
    expect(failing('day')).toEqual([]);
  });
});

describe('what Checks proves', () => {
  it('its last line and the sidebar say which figures it proves, from the first Daily P&L day', async () => {
    const first = String(sheetTable(stack, 'Daily P&L')[1][0]);
    const [headers, ...rows] = sheetTable(stack, 'Checks') as Row[];
    const scope = rows.find((r) => r[headers.indexOf('kind')] === 'scope');
    expect(String(scope?.[headers.indexOf('note')])).toContain(
      `every Daily P&L figure and every Monthly P&L total against the service's daily figures from ${first}`,
    );
    const state = await stack.runtime.run('getSidebarState', [], { authMode: 'FULL' });
    expect(state.ok, state.error?.message).toBe(true);
    expect((state.value as { tieout: { provenFrom: string } }).tieout.provenFrom).toBe(first);
  });
});

function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

function lastDay(month: string): string {
  const d = new Date(`${month}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 1, 0);
  return d.toISOString().slice(0, 10);
}
