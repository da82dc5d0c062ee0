/**
 * The custom functions read the way the synced sheets read.
 * - PROFIT_ORDER shows its times as date-times and the order's placed_date, the store-local day
 *   the Orders sheet holds and the P&L counts it on.
 * - Days after the STORE's today are empty, never 0; the month in progress says so in the
 *   Monthly P&L sheet's words; a period wholly after today is an empty answer with a note.
 * - PROFIT_MONTHLY's month is the Monthly P&L sheet's key, so a VLOOKUP between them finds it.
 * Run as custom-function executions of the built bundle, compared with the emulator's truth, in a
 * spreadsheet whose calendar day differs from the store's (the clocks are pinned to 20:00 in the
 * store's zone, hours from any midnight there, so the test never straddles a day).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionResult } from '../../dev/gas-runtime/index';
import { startStack, type Stack } from '../../dev/harness/index';
import { advanceToStoreHour, sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
type TruthDay = Record<string, number | string> & { date: string };
let stack: Stack;
let storeZone: string;
let sheetZone: string;
let today: string;

const run = (name: string, args: unknown[]): Promise<ExecutionResult> =>
  stack.runtime.run(name, args, { authMode: 'CUSTOM_FUNCTION' });
const valueOf = (r: ExecutionResult): unknown[][] => {
  expect(r.error, JSON.stringify(r.error)).toBeUndefined();
  return r.value as unknown[][];
};

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const dayIn = (ms: number, zone: string): string => new Date(ms).toLocaleDateString('en-CA', { timeZone: zone });
const hourIn = (ms: number, zone: string): number =>
  Number(new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(new Date(ms)));
/** The calendar day a Date cell shows in the spreadsheet (text stays as it is). */
const dayShown = (value: unknown): string =>
  value instanceof Date ? dayIn(value.getTime(), sheetZone) : String(value);
const isDate = (value: unknown): value is Date => Object.prototype.toString.call(value) === '[object Date]';

async function truthDaily(start: string, end: string): Promise<TruthDay[]> {
  const res = await fetch(`${stack.apiUrl}/_emulator/truth/daily?start_date=${start}&end_date=${end}`);
  return ((await res.json()) as { data: TruthDay[] }).data;
}

const requestsTo = (r: ExecutionResult, path: string): number =>
  r.counts.requests.filter((q) => q.url.includes(path)).length;

beforeAll(async () => {
  stack = await startStack({ orders: 400, seed: 24, plan: 'plus' });
  await stack.connect();
  storeZone = String(((await stack.truth('store')) as { store: Json }).store.timezone);
  // Forward to the next 20:00 in the store's zone.
  const target = await advanceToStoreHour(stack, 20);
  today = String(((await stack.truth('store')) as Json).today);
  expect(dayIn(target, storeZone)).toBe(today);
  // A spreadsheet whose calendar day is not the store's: "today" must be the store's.
  sheetZone = ['Pacific/Kiritimati', 'Pacific/Pago_Pago'].find(
    (z) => dayIn(target, z) !== today && hourIn(target, z) !== 23,
  )!;
  (stack.runtime.workbook as { timeZone: string }).timeZone = sheetZone;
  await syncUntilCaughtUp(stack);
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

describe('PROFIT_ORDER reads like the Orders sheet', () => {
  it('created_at and updated_at are date-times; placed_date is the store-local day the Orders sheet holds', async () => {
    const orders = ((await stack.truth('orders')) as { data: Json[] }).data;
    // An order whose day differs between the store's zone and the spreadsheet's: only the store's is right.
    const order = orders.find(
      (o) =>
        dayIn(Date.parse(String(o.created_at)), storeZone) !== dayIn(Date.parse(String(o.created_at)), sheetZone) &&
        o.updated_at,
    )!;
    expect(order, 'seed 24 has an order placed on different days in the two zones').toBeDefined();
    const result = await run('PROFIT_ORDER', [order.id]);
    const got = new Map(
      valueOf(result)
        .slice(1)
        .map(([k, v]) => [String(k), v]),
    );
    for (const field of ['created_at', 'updated_at']) {
      const value = got.get(field);
      expect(isDate(value), `${field}: ${String(value)}`).toBe(true);
      expect((value as Date).getTime(), field).toBe(Date.parse(String(order[field])));
    }
    const [header, ...rows] = sheetTable(stack, 'Orders');
    const sheetRow = rows.find((r) => r[header.indexOf('id')] === order.id)!;
    const placed = got.get('placed_date');
    expect(isDate(placed), `placed_date: ${String(placed)}`).toBe(true);
    expect(dayShown(placed)).toBe(dayIn(Date.parse(String(order.created_at)), storeZone));
    expect(dayShown(placed)).toBe(sheetRow[header.indexOf('placed_date')]);
    // The zone came from the sync state, not from a request: the order is the only one, and the
    // zone costs one property read more than a formula that needs none (a past period's figure).
    expect(result.counts.requests.map((q) => new URL(q.url).pathname)).toEqual([`/api/v1/orders/${String(order.id)}`]);
    const past = await run('PROFIT_SUMMARY', [addDays(today, -40), addDays(today, -10), 'net_profit']);
    expect(result.counts.propertyCalls).toBeLessThanOrEqual(past.counts.propertyCalls + 1);
  });
});

describe("days after the store's today", () => {
  it('PROFIT_DAILY: days up to today equal the truth, later days are empty, never 0', async () => {
    const table = valueOf(
      await run('PROFIT_DAILY', [addDays(today, -2), addDays(today, 3), 'net_revenue, net_profit']),
    );
    expect(table[0]).toEqual(['date', 'net_revenue', 'net_profit']);
    expect(table.slice(1).map((r) => dayShown(r[0]))).toEqual([-2, -1, 0, 1, 2, 3].map((n) => addDays(today, n)));
    const truth = await truthDaily(addDays(today, -2), today);
    truth.forEach((day, i) => {
      expect(table[i + 1][1], day.date).toBeCloseTo(Number(day.net_revenue), 6);
      expect(table[i + 1][2], day.date).toBeCloseTo(Number(day.net_profit), 6);
    });
    for (const row of table.slice(4)) expect(row.slice(1), dayShown(row[0])).toEqual(['', '']);
  });

  it("PROFIT_MONTHLY: the month in progress says so in the Monthly P&L sheet's words, its days are the days so far", async () => {
    const month = today.slice(0, 7);
    const prevStart = `${addDays(`${month}-01`, -1).slice(0, 7)}-01`;
    const table = valueOf(await run('PROFIT_MONTHLY', [prevStart, addDays(today, 40), 'net_profit']));
    const header = table[0] as string[];
    const col = (name: string): number => header.indexOf(name);
    expect(header).toEqual(['month', 'status', 'first_day', 'last_day', 'days', 'net_profit']);
    const current = table.find((r) => r[0] === month)!;
    expect(current[col('status')]).toBe('partial: month in progress');
    expect(current[col('days')]).toBe(Number(today.slice(8)));
    expect(dayShown(current[col('last_day')])).toBe(today);
    const truth = await truthDaily(`${month}-01`, today);
    expect(Math.round(Number(current[col('net_profit')]) * 100)).toBe(
      Math.round(truth.reduce((s, d) => s + Number(d.net_profit), 0) * 100),
    );
    const sheet = sheetTable(stack, 'Monthly P&L');
    const sheetRow = sheet.find((r) => r[0] === month)!;
    expect(current[col('status')]).toBe(sheetRow[sheet[0].indexOf('status')]);
    // The months after this one within the period: listed, not begun, figures empty.
    const later = table.slice(table.indexOf(current) + 1);
    expect(later.length).toBeGreaterThanOrEqual(1);
    for (const row of later)
      expect([row[col('status')], row[col('days')], row[col('net_profit')]], String(row[0])).toEqual([
        'future: no figures yet',
        0,
        '',
      ]);
  });

  it('a period wholly after today is an empty answer with a note, no figure and no request', async () => {
    const [start, end] = [addDays(today, 1), addDays(today, 30)];
    const note = `no figures yet: ${start} to ${end} is after today (${today} in the store's time zone)`;
    const metric = await run('PROFIT_SUMMARY', [start, end, 'net_profit']);
    expect(valueOf(metric)).toEqual([['', note]]);
    const summary = valueOf(await run('PROFIT_SUMMARY', [start, end]));
    expect(summary.find((r) => r[0] === 'note')).toEqual(['note', note]);
    expect(summary.some((r) => typeof r[1] === 'number')).toBe(false);
    const daily = await run('PROFIT_DAILY', [start, end, 'net_profit']);
    expect(valueOf(daily)).toEqual([
      ['date', 'net_profit'],
      [note, ''],
    ]);
    const monthly = await run('PROFIT_MONTHLY', [start, end, 'net_profit']);
    expect(valueOf(monthly)).toEqual([
      ['month', 'status', 'first_day', 'last_day', 'days', 'net_profit'],
      [note, '', '', '', '', ''],
    ]);
    for (const r of [metric, daily, monthly]) expect(requestsTo(r, '/profitability/')).toBe(0);
  });
});

describe('months one way: PROFIT_MONTHLY and the Monthly P&L sheet', () => {
  it("every PROFIT_MONTHLY month is found in the sheet's month column as it is (a VLOOKUP), with the same figures and status", async () => {
    const start = addDays(today, -150);
    const table = valueOf(await run('PROFIT_MONTHLY', [`${start.slice(0, 7)}-01`, today, 'net_revenue, net_profit']));
    const [sheetHeader, ...sheetRows] = sheetTable(stack, 'Monthly P&L');
    const header = table[0] as string[];
    expect(table.length - 1).toBeGreaterThanOrEqual(5);
    for (const row of table.slice(1)) {
      // VLOOKUP(month, 'Monthly P&L'!A:Z, …, FALSE): an exact match of the cell value.
      const found = sheetRows.find((r) => r[0] === row[0]);
      expect(found, `${String(row[0])} in the Monthly P&L sheet`).toBeDefined();
      for (const field of ['net_revenue', 'net_profit']) {
        expect(Math.round(Number(row[header.indexOf(field)]) * 100), `${String(row[0])} ${field}`).toBe(
          Math.round(Number(found![sheetHeader.indexOf(field)]) * 100),
        );
      }
      expect(row[header.indexOf('status')], String(row[0])).toBe(found![sheetHeader.indexOf('status')]);
      expect(dayShown(row[header.indexOf('first_day')])).toBe(found![sheetHeader.indexOf('first_day')]);
      expect(dayShown(row[header.indexOf('last_day')])).toBe(found![sheetHeader.indexOf('last_day')]);
    }
  });
});

describe('a P&L with the months across', () => {
  it('"months across": one row per field, one column per month, each month\'s figures the truth\'s daily sums', async () => {
    const start = `${addDays(today, -100).slice(0, 7)}-01`;
    const across = valueOf(await run('PROFIT_MONTHLY', [start, today, 'net_revenue, net_profit', 'months across']));
    expect(across.map((row) => row[0])).toEqual([
      'month',
      'status',
      'first_day',
      'last_day',
      'days',
      'net_revenue',
      'net_profit',
    ]);
    const months = across[0].slice(1).map(String);
    expect(months.length).toBeGreaterThanOrEqual(4);
    expect(months).toEqual([...months].sort());
    const truth = await truthDaily(start, today);
    months.forEach((month, i) => {
      const days = truth.filter((d) => d.date.startsWith(month));
      expect(across[4][i + 1], month).toBe(days.length);
      for (const [row, field] of [
        [5, 'net_revenue'],
        [6, 'net_profit'],
      ] as const) {
        const cents = days.reduce((n, d) => n + Math.round(Number(d[field]) * 100), 0);
        expect(Math.round(Number(across[row][i + 1]) * 100), `${month} ${field}`).toBe(cents);
      }
    });
    // The same answer as months down, turned.
    const down = valueOf(await run('PROFIT_MONTHLY', [start, today, 'net_revenue, net_profit']));
    expect(across).toEqual(down[0].map((_, c) => down.map((row) => row[c])));
  });

  it('a layout it does not know fails naming the argument, before any request', async () => {
    const r = await run('PROFIT_MONTHLY', [addDays(today, -40), today, 'net_profit', 'sideways']);
    expect(r.ok).toBe(false);
    expect(String(r.error?.message)).toMatch(/^PROFIT_MONTHLY: layout must be "months down" or "months across"/);
    expect(requestsTo(r, '/profitability/')).toBe(0);
  });
});
