/**
 * The metric forms of PROFIT_SUMMARY and PROFIT_DAILY, run by the local runtime as Sheets would
 * (CUSTOM_FUNCTION) against the emulator, compared with the emulator's truth daily rows — in a
 * spreadsheet whose time zone differs from the store's, with date cells near midnight.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { ExecutionResult } from '../../dev/gas-runtime/index';

let stack: Stack;
let today: string;
let storeZone: string;
const SHEET_ZONE_CANDIDATES = ['Pacific/Auckland', 'America/Los_Angeles'];
let sheetZone: string;

const run = (name: string, args: unknown[]): Promise<ExecutionResult> =>
  stack.runtime.run(name, args, { authMode: 'CUSTOM_FUNCTION' });

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(`${stack.apiUrl}${path}`);
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

type TruthDay = Record<string, number | string> & { date: string };
const truthDaily = async (start: string, end: string): Promise<TruthDay[]> =>
  (await getJson<{ data: TruthDay[] }>(`/_emulator/truth/daily?start_date=${start}&end_date=${end}`)).data;
const truthSum = (days: TruthDay[], field: string) => days.reduce((sum, d) => sum + Number(d[field]), 0);

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The instant at `time` local wall-clock on `date` in `timeZone`. */
function zonedInstant(date: string, time: string, timeZone: string): Date {
  const guess = new Date(`${date}T${time}:00Z`);
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(guess);
  const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
  return new Date(guess.getTime() - (asUtc - guess.getTime()));
}

function valueOf(result: ExecutionResult): unknown[][] {
  expect(result.error, JSON.stringify(result.error)).toBeUndefined();
  return result.value as unknown[][];
}

beforeAll(async () => {
  stack = await startStack({ orders: 500, seed: 33, plan: 'plus' });
  await stack.connect();
  const truth = await getJson<{ today: string; store: { timezone: string } }>('/_emulator/truth/store');
  today = truth.today;
  storeZone = truth.store.timezone;
  sheetZone = SHEET_ZONE_CANDIDATES.find((z) => z !== storeZone)!;
  (stack.runtime.workbook as { timeZone: string }).timeZone = sheetZone;
});

afterAll(async () => {
  await stack?.close();
});

describe('PROFIT_SUMMARY(start, end, metric): one number, equal to the truth', () => {
  it('net_profit, CM1–CM3 and net margin % over a period given as date cells at 23:59 and 00:01 in the sheet zone', async () => {
    expect(sheetZone).not.toBe(storeZone);
    const start = addDays(today, -45);
    const end = addDays(today, -16);
    const days = await truthDaily(start, end);
    expect(days).toHaveLength(30);
    const startCell = zonedInstant(start, '23:59', sheetZone);
    const endCell = zonedInstant(end, '00:01', sheetZone);
    const expected: Record<string, number> = {
      net_profit: truthSum(days, 'net_profit'),
      CM1: truthSum(days, 'product_margin_cm1'),
      cm2: truthSum(days, 'gross_profit_cm2'),
      Cm3: truthSum(days, 'contribution_margin_cm3'),
      'Net Revenue': truthSum(days, 'net_revenue'),
    };
    for (const [metric, truth] of Object.entries(expected)) {
      const table = valueOf(await run('PROFIT_SUMMARY', [startCell, endCell, metric]));
      expect(table, metric).toHaveLength(1);
      expect(table[0], metric).toHaveLength(1);
      expect(Math.abs(Number(table[0][0]) - truth), metric).toBeLessThan(0.01 * days.length + 1e-9);
    }
    const margin = valueOf(await run('PROFIT_SUMMARY', [start, end, 'net margin %']))[0][0] as number;
    // Sheets' percent: a fraction (=cell*100 gives the points).
    expect(Math.abs(margin - expected.net_profit / expected['Net Revenue'])).toBeLessThan(0.000_1);
  });

  it('an unknown metric fails naming the argument, with no request', async () => {
    const result = await run('PROFIT_SUMMARY', [addDays(today, -10), today, 'profit']);
    expect(result.ok).toBe(false);
    expect(result.error?.message).toBe(
      'PROFIT_SUMMARY: metric "profit" is not a metric; use e.g. "net_profit", "cm3", "net_margin_pct" or any totals field such as "net_revenue"',
    );
    expect(result.counts.urlFetches).toBe(0);
  });
});

describe('PROFIT_DAILY(start, end, metrics): the chosen columns, equal to the truth rows', () => {
  it('date then the metrics in the order given, one row per store day', async () => {
    const start = addDays(today, -12);
    const end = addDays(today, -1);
    const table = valueOf(
      await run('PROFIT_DAILY', [zonedInstant(start, '00:00', sheetZone), end, 'net_profit, cm3, net_revenue']),
    );
    expect(table[0]).toEqual(['date', 'net_profit', 'contribution_margin_cm3', 'net_revenue']);
    const truth = await truthDaily(start, end);
    expect(table.slice(1).map((r) => (r[0] as Date).toLocaleDateString('en-CA', { timeZone: sheetZone }))).toEqual(
      truth.map((d) => d.date),
    );
    truth.forEach((d, i) => {
      expect(table[i + 1][1]).toBeCloseTo(Number(d.net_profit), 6);
      expect(table[i + 1][2]).toBeCloseTo(Number(d.contribution_margin_cm3), 6);
      expect(table[i + 1][3]).toBeCloseTo(Number(d.net_revenue), 6);
    });
  });
});
