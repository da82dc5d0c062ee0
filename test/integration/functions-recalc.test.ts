/**
 * A report sheet recalculated at once: 200 custom-function cells over 12 argument sets (summary,
 * daily and monthly mixed) run as CONCURRENT executions of the built bundle in the local runtime
 * against the emulator. Every cell must equal the emulator's truth, none may fail, and the API
 * must see one request per argument set — the document cache and one fetcher per set do that.
 * Then a sync that changed data makes the next recalculation fetch again (nothing cached before it is
 * reused), and 429 concurrency/burst answers are waited out within the 30 s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { ExecutionResult } from '../../dev/gas-runtime/index';

let stack: Stack;
let today: string;
let sheetZone: string;

type TruthDay = Record<string, number | string> & { date: string };
type Stats = {
  requests_total: number;
  by_endpoint: Record<string, { total: number; by_status: Record<string, number> }>;
};

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(`${stack.apiUrl}${path}`);
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}
const stats = (): Promise<Stats> => getJson('/_emulator/stats');
const truthDaily = async (start: string, end: string): Promise<TruthDay[]> =>
  (await getJson<{ data: TruthDay[] }>(`/_emulator/truth/daily?start_date=${start}&end_date=${end}`)).data;

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const PROFIT_PATHS = ['GET /api/v1/profitability/summary', 'GET /api/v1/profitability/daily'];
function profitRequests(before: Stats, after: Stats, status?: string): number {
  return PROFIT_PATHS.reduce((sum, p) => {
    const count = (s: Stats) =>
      status === undefined ? (s.by_endpoint[p]?.total ?? 0) : (s.by_endpoint[p]?.by_status[status] ?? 0);
    return sum + count(after) - count(before);
  }, 0);
}

interface Cell {
  fn: 'PROFIT_SUMMARY' | 'PROFIT_DAILY' | 'PROFIT_MONTHLY';
  args: unknown[];
  range: [string, string];
}

/** 12 argument sets (4 of each kind); 200 cells cycle through them with varying metrics. */
function reportCells(): Cell[] {
  const r = (a: number, b: number): [string, string] => [addDays(today, a), addDays(today, b)];
  const sets: Array<{ fn: Cell['fn']; range: [string, string] }> = [
    ...[r(-60, -31), r(-90, -61), r(-30, -1), r(-120, -91)].map((range) => ({ fn: 'PROFIT_SUMMARY' as const, range })),
    ...[r(-14, -1), r(-28, -15), r(-45, -29), r(-200, -170)].map((range) => ({ fn: 'PROFIT_DAILY' as const, range })),
    ...[r(-100, -1), r(-365, -1), r(-150, -50), r(-250, -200)].map((range) => ({
      fn: 'PROFIT_MONTHLY' as const,
      range,
    })),
  ];
  const summaryMetrics = ['net_profit', 'CM3', 'net_revenue', 'cm1', 'Gross profit CM2', undefined];
  const listMetrics = [undefined, 'net_profit, cm3', 'net_revenue'];
  return Array.from({ length: 200 }, (_, i) => {
    const set = sets[i % sets.length];
    const metric =
      set.fn === 'PROFIT_SUMMARY' ? summaryMetrics[i % summaryMetrics.length] : listMetrics[i % listMetrics.length];
    return { fn: set.fn, range: set.range, args: metric === undefined ? [...set.range] : [...set.range, metric] };
  });
}

const FIELD_OF: Record<string, string> = {
  net_profit: 'net_profit',
  CM3: 'contribution_margin_cm3',
  net_revenue: 'net_revenue',
  cm1: 'product_margin_cm1',
  'Gross profit CM2': 'gross_profit_cm2',
};

/** Compares one cell's spilled value with the emulator's truth daily rows for its period. */
function expectMatchesTruth(cell: Cell, result: ExecutionResult, days: TruthDay[]): void {
  const where = `${cell.fn}(${cell.args.join(', ')})`;
  expect(result.error, `${where}: ${JSON.stringify(result.error)}`).toBeUndefined();
  const table = result.value as unknown[][];
  const sum = (field: string) => days.reduce((s, d) => s + Number(d[field]), 0);
  const tolerance = 0.01 * days.length + 1e-9;
  if (cell.fn === 'PROFIT_SUMMARY') {
    if (cell.args.length === 3) {
      expect(table, where).toHaveLength(1);
      expect(Math.abs(Number(table[0][0]) - sum(FIELD_OF[String(cell.args[2])])), where).toBeLessThan(tolerance);
    } else {
      const row = table.find((r) => r[0] === 'net_profit')!;
      expect(Math.abs(Number(row[1]) - sum('net_profit')), where).toBeLessThan(tolerance);
    }
    return;
  }
  const header = table[0] as string[];
  const column = (name: string) => header.indexOf(name);
  const field = column('net_profit') >= 0 ? 'net_profit' : 'net_revenue';
  if (cell.fn === 'PROFIT_DAILY') {
    expect(table.length - 1, where).toBe(days.length);
    days.forEach((d, i) => expect(table[i + 1][column(field)], `${where} ${d.date}`).toBeCloseTo(Number(d[field]), 6));
    return;
  }
  const months = [...new Set(days.map((d) => d.date.slice(0, 7)))];
  expect(table.length - 1, where).toBe(months.length);
  months.forEach((month, i) => {
    const inMonth = days.filter((d) => d.date.startsWith(month));
    expect(table[i + 1][column('days')], `${where} ${month}`).toBe(inMonth.length);
    expect(
      Math.abs(Number(table[i + 1][column(field)]) - inMonth.reduce((s, d) => s + Number(d[field]), 0)),
      `${where} ${month}`,
    ).toBeLessThan(0.01);
  });
}

/**
 * Every cell is its own execution and up to RECALC_CONCURRENCY of them run at the same time (a
 * new one starts as soon as one ends, as Sheets keeps feeding cells). Google does not publish how
 * many it runs at once; 20 already collide on every cache miss, and a local worker per cell for
 * all 200 at once would spend the 30 s starting threads on this host's two cores.
 */
const RECALC_CONCURRENCY = 20;

async function recalculate(cells: Cell[]): Promise<ExecutionResult[]> {
  const results: ExecutionResult[] = new Array(cells.length);
  let next = 0;
  let running = 0;
  let peak = 0;
  const lane = async () => {
    while (next < cells.length) {
      const i = next++;
      running++;
      peak = Math.max(peak, running);
      results[i] = await stack.runtime.run(cells[i].fn, cells[i].args, { authMode: 'CUSTOM_FUNCTION' });
      running--;
    }
  };
  await Promise.all(Array.from({ length: RECALC_CONCURRENCY }, lane));
  expect(peak).toBe(RECALC_CONCURRENCY);
  return results;
}

async function checkAll(cells: Cell[], results: ExecutionResult[]): Promise<void> {
  const truth = new Map<string, TruthDay[]>();
  for (const cell of cells) {
    const key = cell.range.join('..');
    if (!truth.has(key)) truth.set(key, await truthDaily(...cell.range));
    expectMatchesTruth(cell, results[cells.indexOf(cell)], truth.get(key)!);
  }
}

beforeAll(async () => {
  // Time limits count what Apps Script would spend (modelled costs, waits), not this host's load.
  stack = await startStack({ orders: 400, seed: 47, plan: 'plus', modelledTimeOnly: true });
  await stack.connect();
  const truth = await getJson<{ today: string; store: { timezone: string } }>('/_emulator/truth/store');
  today = truth.today;
  sheetZone = ['Pacific/Auckland', 'America/Los_Angeles'].find((z) => z !== truth.store.timezone)!;
  (stack.runtime.workbook as { timeZone: string }).timeZone = sheetZone;
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('200 formula cells recalculated at once', () => {
  it('every cell equals the truth, none fails, and the API sees one request per argument set (12)', async () => {
    const cells = reportCells();
    expect(new Set(cells.map((c) => `${c.fn}:${c.range.join('..')}`)).size).toBe(12);
    const before = await stats();
    const results = await recalculate(cells);
    const after = await stats();
    expect(results.filter((r) => !r.ok).map((r) => r.error?.message)).toEqual([]);
    await checkAll(cells, results);
    expect(profitRequests(before, after)).toBe(12);
    // Every UrlFetch any cell made: the 12 answers, nothing else (no account read, no token request).
    expect(results.reduce((n, r) => n + r.counts.requests.length, 0)).toBe(12);
  }, 300_000);

  it('after a sync that changed data nothing cached before is reused; 429 concurrency and burst are waited out', async () => {
    const cells = reportCells();
    const sync = await stack.runtime.run('syncNowFromMenu', [], { authMode: 'FULL' });
    expect(sync.error, JSON.stringify(sync.error)).toBeUndefined();
    // The first sync writes every row: data changed, so the generation moved on.
    await stack.control('faults', {
      status: 429,
      count: 1,
      path_prefix: '/api/v1/profitability/summary',
      reason: 'concurrency',
      retry_after: 2,
    });
    await stack.control('faults', {
      status: 429,
      count: 1,
      path_prefix: '/api/v1/profitability/daily',
      reason: 'burst',
      retry_after: 3,
    });
    const before = await stats();
    const results = await recalculate(cells);
    const after = await stats();
    expect(results.filter((r) => !r.ok).map((r) => r.error?.message)).toEqual([]);
    await checkAll(cells, results);
    expect(profitRequests(before, after, '200')).toBe(12);
    expect(profitRequests(before, after, '429')).toBe(2);
  }, 300_000);
});
