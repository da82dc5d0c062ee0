/**
 * The bench's figure extraction (bench/figures.ts) on a 200-order store, checked against the
 * emulator's own request statistics and the sheets the run left, not against the runtime's echo.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '../../dev/harness/index';
import { writeBenchBundle } from '../../bench/bundle';
import { alternative, sidebarSync, type Run } from '../../bench/drivers';
import { figuresOf, type Figures } from '../../bench/figures';
import { lowerBound } from '../../bench/lower-bound';
import { startBenchStack, type BenchStack } from '../../bench/stack';

type Stats = {
  requests_total: number;
  by_endpoint: Record<string, { total: number; by_status: Record<string, number> }>;
  auth: { token_requests: Record<string, unknown> & { total?: number } };
};

let bench: BenchStack;
let stack: Stack;

const stats = async (): Promise<Stats> => (await stack.control('stats')) as Stats;
const apiTotal = (s: Stats): number =>
  Object.entries(s.by_endpoint)
    .filter(([k]) => k.includes('/api/v1/'))
    .reduce((n, [, e]) => n + e.total, 0);
const status = (s: Stats, code: string): number =>
  Object.values(s.by_endpoint).reduce((n, e) => n + (e.by_status[code] ?? 0), 0);

function sheetSize(name: string): { rows: number; columns: number } {
  const sheet = (
    stack.runtime.workbook as unknown as {
      sheetByName(n: string): { lastRow(): number; lastColumn(): number } | undefined;
    }
  ).sheetByName(name)!;
  return { rows: sheet.lastRow(), columns: sheet.lastColumn() };
}

async function measured(run: () => Promise<Run>): Promise<{ figures: Figures; before: Stats; after: Stats }> {
  const before = await stats();
  const r = await run();
  expect(r.done).toBe(true);
  const after = await stats();
  return {
    figures: figuresOf({ results: r.results, sheetsWritesPerMinuteMax: r.sheetsWritesPerMinuteMax, orders: 200 }),
    before,
    after,
  };
}

beforeAll(async () => {
  const dir = writeBenchBundle(path.resolve('dist'), mkdtempSync(path.join(os.tmpdir(), 'bench-dist-')));
  bench = await startBenchStack(200, dir);
  stack = bench.stack;
}, 120_000);

afterAll(async () => {
  await bench?.close();
});

describe('bench figures', () => {
  it('count the API requests the emulator answered, by endpoint, and the Sheets calls by kind', async () => {
    const { figures, before, after } = await measured(() => sidebarSync(stack));
    expect(figures.api_requests).toBe(apiTotal(after) - apiTotal(before));
    for (const [endpoint, n] of Object.entries(figures.api_requests_by_endpoint)) {
      expect(n, endpoint).toBe(
        (after.by_endpoint[`GET ${endpoint}`]?.total ?? 0) - (before.by_endpoint[`GET ${endpoint}`]?.total ?? 0),
      );
    }
    expect(figures.api_429s).toBe(0);
    expect(figures.sheets_quota_refusals).toBe(0);
    // A backfill into a new spreadsheet reads back nothing it wrote (its tie-out uses the day sums of the pages).
    expect(figures.cells_read).toBe(0);
    const kinds = Object.values(figures.sheets_calls_by_kind).reduce((a, b) => a + b, 0);
    expect(kinds).toBe(figures.sheets_calls);
    expect(figures.sheets_calls_by_kind.api_write).toBeGreaterThan(0);
    expect(figures.sheets_writes_per_minute_max).toBeGreaterThan(0);
    expect(figures.sheets_writes_per_minute_max).toBeLessThanOrEqual(60);
    // Sequential executions on a modelled clock: the clock moved by exactly what was modelled and slept.
    const s = figures.time_split_seconds;
    expect(figures.clock_seconds).toBeCloseTo(s.api + s.sheets + s.waiting + s.storage, 0);
    expect(figures.modelled_seconds).toBeCloseTo(figures.clock_seconds + s.javascript, 0);
    expect(figures.js_cpu_ms_per_1000_orders).not.toBeNull();
    expect(figures.peak_heap_mb).toBeGreaterThan(1);
  }, 120_000);

  it('count cells written as the sheets hold them, and 429s with the wait they caused', async () => {
    // One burst refusal with Retry-After 7 s on the alternative's first orders page.
    await stack.control('faults', {
      status: 429,
      count: 1,
      path_prefix: '/api/v1/orders',
      reason: 'burst',
      retry_after: 7,
    });
    const { figures, before, after } = await measured(() => alternative(stack, 'altRefreshAll'));
    expect(figures.api_429s).toBe(status(after, '429') - status(before, '429'));
    expect(figures.api_429s).toBe(1);
    expect(figures.time_split_seconds.waiting).toBe(7);
    // A refresh writes each cell of its two sheets exactly once: header plus one row per order / line item.
    const truth = ((await stack.truth('orders')) as { data: Array<{ line_items: unknown[] }> }).data;
    const orders = sheetSize('A Orders');
    const items = sheetSize('A Line items');
    expect(orders.rows).toBe(truth.length + 1);
    expect(items.rows).toBe(truth.reduce((n, o) => n + o.line_items.length, 0) + 1);
    expect(figures.cells_written).toBe(orders.rows * orders.columns + items.rows * items.columns);
    expect(figures.sheets_calls_by_kind.api_write).toBe(0);
    expect(figures.bytes_received).toBeGreaterThan(0);
  }, 120_000);
});

describe('lower bound', () => {
  it('is ceil(N/250) pages plus the named fixed requests, and the API minute for the time', () => {
    const payload = {
      valuesBytes: 9_000_000,
      updateCellsBytes: 31_000_000,
      valuesPerUpdateCellsByteMax: 0.4,
      newSheets: [],
    };
    const lb = lowerBound({
      records: 100_000,
      fixedRequests: { account: 1 },
      cells: 1_000_000,
      ranges: 2,
      keyRows: 0,
      payload,
    });
    expect(lb.api_requests).toBe(401);
    expect(lb.api_requests_named).toEqual({ orders_pages: 400, account: 1 });
    // 401 requests at 60 a minute: the last one goes out 6 full minutes after the first.
    expect(lb.rate_limit_seconds).toBe(360);
    expect(lb.modelled_seconds).toBeCloseTo(360.1, 1);
    expect(lb.executions).toBe(2);
    // 9 MB of values in requests of at most 2,000,000 bytes, the runtime's rule: 5, not one an execution.
    expect(lb.sheets_write_requests).toBe(5);
  });

  it("makes a backfill's new sheets the cheaper way and sends its values in requests of at most 2 MB", () => {
    const newSheets = ['Orders', 'Line items', 'Products', 'Variants', 'Daily P&L'].map((title, i) => ({
      title,
      rows: i < 2 ? 20_000 : 400,
      columns: 20,
    }));
    const bound = (valuesBytes: number) =>
      lowerBound({
        records: 1_000,
        fixedRequests: { account: 1 },
        cells: 100_000,
        ranges: 5,
        keyRows: 0,
        payload: { valuesBytes, updateCellsBytes: valuesBytes * 3.5, valuesPerUpdateCellsByteMax: 0.35, newSheets },
      });
    // Under 2 MB: one values request; the sheets by SpreadsheetApp (5 inserts, 2 resizes, a flush: 80 ms).
    expect(bound(1_000_000).sheets_write_requests).toBe(1);
    expect(bound(1_000_000).modelled_parts_seconds.sheets_write).toBeCloseTo(0.08 + 0.33 + 1, 3);
    // Just over 2 MB: two requests.
    expect(bound(2_000_001).sheets_write_requests).toBe(2);
    expect(() => lowerBound({ records: 0, fixedRequests: {}, cells: 1, ranges: 1, keyRows: 0 })).toThrow(/payload/);
  });
});
