/**
 * In CI: the hourly run after 1 % of the orders changed, and the reconciliation pass that
 * finds nothing gone, stay within the committed budget (hourly-budget.json) at 10,000 orders; and
 * what the hourly run reads beyond an idle run (which reads the key columns every run needs) is
 * the same at 2,000 and 10,000 orders for the same changes (but for the row index's buckets, one
 * cell each, which the changed ids fall into): the tie-out does not read the Orders sheet whole
 * every hour; and it reads neither key column whole (Orders id, Line items order_id): the row index
 * finds the rows of the orders a page touches. Modelled figures only (the runtime's exact counts and its modelled clock
 * without the JavaScript part, which is measured CPU time): never wall time.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeBenchBundle } from '../../bench/bundle';
import { ensureHourlySchedule, hourlyTrigger, reconciliation, sidebarSync, type Run } from '../../bench/drivers';
import { figuresOf, type Figures } from '../../bench/figures';
import { startBenchStack } from '../../bench/stack';
import { sheetTable } from '../integration/sync-support';
import { BUCKETS, bucketOf, bucketRow } from '../../src/server/sheets/row-index-buckets';
import { readSpans } from '../../src/server/sheets/adjacent-runs';

const HOUR_MS = 3_600_000;
/** Orders changed before the hourly run: 1 % of the larger store, the same ones' count at both sizes. */
const CHANGED = 100;

interface Budget {
  api_requests: number;
  sheets_calls: number;
  cells_read: number;
  cells_written: number;
  /** Modelled seconds of the services (API, Sheets, waits, storage), JavaScript left out. */
  service_seconds: number;
}
const budget = JSON.parse(readFileSync(path.join(__dirname, 'hourly-budget.json'), 'utf8')) as {
  orders: number;
  hourly: Budget;
  reconcile: Budget;
};
const BUDGET_KEYS: ReadonlyArray<keyof Budget> = [
  'api_requests',
  'sheets_calls',
  'cells_read',
  'cells_written',
  'service_seconds',
];

interface Measured {
  idle: Figures;
  hourly: Figures;
  reconcile: Figures;
  hourlyTieout: string;
  reconcileGone: string;
  /** Orders cells the reconciliation changed (the sheet before and after, cell by cell). */
  ordersCellsChanged: number;
  /** Cells of the key columns every run reads whole before the hourly run: Orders `id` and Line items `order_id`. */
  keyCells: number;
  /**
   * Cells of the row index's buckets the hourly run reads beyond the idle run: the spans (readSpans)
   * over the buckets of the ids each lists (the hourly run: the changed orders and the feed's
   * overlap; the idle run: the overlap), gaps cheaper to read than a range read with them, and
   * every bucket once the spans pass half of them.
   */
  bucketCells: number;
  /** Days of the service's Daily P&L from the first order to today (the emulator's truth): the range the hourly run ties out. */
  truthDays: number;
}

const serviceSeconds = (f: Figures): number =>
  Math.round(
    (f.time_split_seconds.api +
      f.time_split_seconds.sheets +
      f.time_split_seconds.waiting +
      f.time_split_seconds.storage) *
      10,
  ) / 10;
const figures = (run: Run, orders: number): Figures =>
  figuresOf({ results: run.results, sheetsWritesPerMinuteMax: run.sheetsWritesPerMinuteMax, orders });

async function measure(orders: number, bundleDir: string): Promise<Measured> {
  const bench = await startBenchStack(orders, bundleDir);
  const stack = bench.stack;
  try {
    // Orders of two line items each: the changed rows (an order's and its line items') are as many at both sizes.
    const all = (
      (await stack.truth('orders')) as { data: Array<{ id: string; line_items: unknown[]; updated_at: string }> }
    ).data;
    const truth = all.filter((o) => o.line_items.length === 2);
    // What the feed lists again after the backfill: its overlap, the 5 minutes before the last change (spec 4.11).
    const watermark = Math.max(...all.map((o) => Date.parse(o.updated_at)));
    const overlap = all.filter((o) => Date.parse(o.updated_at) >= watermark - 5 * 60_000).map((o) => o.id);
    const backfill = await sidebarSync(stack);
    expect(backfill.done, backfill.note).toBe(true);
    await stack.advanceClocks(HOUR_MS);
    const uid = await ensureHourlySchedule(stack);
    const idle = await hourlyTrigger(stack, uid);
    expect(idle.done, idle.note).toBe(true);
    const changedIds = new Set<string>();
    for (let i = 0; i < CHANGED; i++) {
      changedIds.add(truth[(i * 97) % truth.length].id);
      await stack.control(`orders/${truth[(i * 97) % truth.length].id}/change`, { kind: 'cost_correction' });
      await stack.advanceClocks(Math.floor(HOUR_MS / CHANGED));
    }
    const keyCells = sheetTable(stack, 'Orders').length - 1 + (sheetTable(stack, 'Line items').length - 1);
    const hourly = await hourlyTrigger(stack, uid);
    expect(hourly.done, hourly.note).toBe(true);
    const truthDays = ((await stack.truth('daily')) as { data: unknown[] }).data.length;
    await stack.advanceClocks(HOUR_MS);
    const before = sheetTable(stack, 'Orders');
    const reconcile = await reconciliation(stack);
    expect(reconcile.done, reconcile.note).toBe(true);
    const after = sheetTable(stack, 'Orders');
    let changed = Math.abs(after.length - before.length);
    before.forEach((row, r) => row.forEach((cell, c) => (changed += after[r]?.[c] === cell ? 0 : 1)));
    return {
      idle: figures(idle, orders),
      hourly: figures(hourly, orders),
      reconcile: figures(reconcile, orders),
      hourlyTieout: hourly.note,
      reconcileGone: reconcile.note,
      ordersCellsChanged: changed,
      keyCells,
      bucketCells:
        spanCells(
          [...changedIds, ...overlap],
          all.map((o) => o.id),
        ) -
        spanCells(
          overlap,
          all.map((o) => o.id),
        ),
      truthDays,
    };
  } finally {
    await bench.close();
  }
}

/**
 * Cells of the buckets the row index reads for these ids (RowIndex.load): their spans, or every
 * bucket past half; an empty bucket is an empty cell, which a read does not count.
 */
function spanCells(ids: readonly string[], orderIds: readonly string[]): number {
  const rowOf = (id: string): number => bucketRow(bucketOf(id, BUCKETS));
  const filled = new Set(orderIds.map(rowOf));
  let spans = readSpans([...new Set(ids.map(rowOf))], 1);
  if (spans.reduce((n, [top, bottom]) => n + bottom - top + 1, 0) * 2 > BUCKETS)
    spans = [[bucketRow(0), bucketRow(BUCKETS - 1)]];
  let cells = 0;
  for (const [top, bottom] of spans) for (let row = top; row <= bottom; row++) if (filled.has(row)) cells++;
  return cells;
}

let small: Measured;
let large: Measured;

beforeAll(async () => {
  const dir = writeBenchBundle(path.resolve('dist'), mkdtempSync(path.join(os.tmpdir(), 'perf-dist-')));
  small = await measure(2_000, dir);
  large = await measure(budget.orders, dir);
}, 300_000);

describe(`the hourly run after ${CHANGED} orders changed, and the reconciliation, at ${budget.orders} orders`, () => {
  it('the hourly run ties out and stays within the committed budget', () => {
    expect(large.hourlyTieout).toMatch(/Tie-out: Orders agree with the Daily P&L on all \d+ days/);
    const f = large.hourly;
    const got = {
      api_requests: f.api_requests,
      sheets_calls: f.sheets_calls,
      cells_read: f.cells_read,
      cells_written: f.cells_written,
      service_seconds: serviceSeconds(f),
    };
    for (const key of BUDGET_KEYS)
      expect(got[key], `hourly ${key}: ${JSON.stringify(got)}`).toBeLessThanOrEqual(budget.hourly[key]);
  });

  it('what the hourly run reads beyond an idle run does not grow with the store (same changes at 2,000 and 10,000 orders)', () => {
    // The ids differ at the two sizes, and so do the buckets' spans they are read in: those cells are left out.
    const extraSmall = small.hourly.cells_read - small.idle.cells_read - small.bucketCells;
    const extraLarge = large.hourly.cells_read - large.idle.cells_read - large.bucketCells;
    expect(
      extraLarge,
      `cells read beyond the idle run: ${extraSmall} at 2,000 orders, ${extraLarge} at ${budget.orders}`,
    ).toBe(extraSmall);
  });

  it('the hourly run reads neither key column whole (Orders id, Line items order_id): the row index finds the changed rows', () => {
    expect(
      large.hourly.cells_read,
      `cells read by the hourly run at ${budget.orders} orders, against the ${large.keyCells} cells of the key columns`,
    ).toBeLessThan(large.keyCells);
  });

  it('the hourly run reads the Daily P&L once: the tie-out proves the sheets against the pages the daily job read', () => {
    // The changes reach back to the first orders: the daily job reads every day to today, as the tie-out does.
    for (const m of [small, large]) {
      expect(m.hourlyTieout).toContain(`on all ${m.truthDays} days`);
      expect(
        m.hourly.api_requests_by_endpoint['/api/v1/profitability/daily'],
        `Daily P&L requests for ${m.truthDays} days (400 a page)`,
      ).toBe(Math.ceil(m.truthDays / 400));
    }
  });

  it('a reconciliation that finds nothing gone changes no Orders cell and stays within the committed budget', () => {
    expect(large.reconcileGone).toContain('0 orders marked gone');
    expect(large.ordersCellsChanged, 'Orders cells the reconciliation changed').toBe(0);
    const f = large.reconcile;
    const got = {
      api_requests: f.api_requests,
      sheets_calls: f.sheets_calls,
      cells_read: f.cells_read,
      cells_written: f.cells_written,
      service_seconds: serviceSeconds(f),
    };
    for (const key of BUDGET_KEYS)
      expect(got[key], `reconcile ${key}: ${JSON.stringify(got)}`).toBeLessThanOrEqual(budget.reconcile[key]);
  });
});
