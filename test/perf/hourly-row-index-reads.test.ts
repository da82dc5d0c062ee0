/**
 * In CI: what the row index costs in Sheets API read requests at 10,000 orders (the bench's store),
 * once Orders and Line items are past the index's threshold (ROW_INDEX_MIN_ROWS):
 * - a backfill that goes on in a second execution (the first one stopped by the API's per-minute
 *   limit after 30 order pages, 7,500 orders in the sheets) reads the index's buckets once in that
 *   execution, not once a page;
 * - an hourly run whose changed orders fill three pages reads their buckets once and their rows once.
 * Ground truth: the emulator's truth, cell for cell, after each (no wrong row, no duplicate). Figures
 * are the runtime's counts: never wall time.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBenchBundle } from '../../bench/bundle';
import { ensureHourlySchedule, hourlyTrigger, sidebarSync, type Run } from '../../bench/drivers';
import { figuresOf } from '../../bench/figures';
import { startBenchStack, type BenchStack } from '../../bench/stack';
import { compareWithTruth, type Comparison } from '../integration/sync-support';
import { ROW_INDEX_MIN_ROWS } from '../../src/server/sheets/row-index-buckets';

const ORDERS = 10_000;
const HOUR_MS = 3_600_000;
/** Order pages the first backfill execution takes before the API answers 429: 7,500 orders. */
const PAGES_BEFORE_429 = 30;
/** Orders changed before the hourly run: three pages of 250. */
const CHANGED = 600;
const EXACT: Comparison = { mismatches: [], missing: [], unexpected: [], duplicates: [] };

let bench: BenchStack;
let backfill: Run;
let backfillTruth: Comparison;
let hourly: Run;
let hourlyTruth: Comparison;
let hourlyOrderRequests: number;

beforeAll(async () => {
  bench = await startBenchStack(
    ORDERS,
    writeBenchBundle(path.resolve('dist'), mkdtempSync(path.join(os.tmpdir(), 'perf-dist-'))),
  );
  const { stack } = bench;
  // The API's burst limit (spec 8.1) answers the 31st orders request: the Sync now step ends and the next goes on.
  await stack.control('faults', {
    status: 429,
    reason: 'burst',
    retry_after: 60,
    path_prefix: '/api/v1/orders',
    count: 1,
    after: PAGES_BEFORE_429,
  });
  backfill = await sidebarSync(stack);
  backfillTruth = await compareWithTruth(stack);
  await stack.advanceClocks(HOUR_MS);
  const uid = await ensureHourlySchedule(stack);
  const idle = await hourlyTrigger(stack, uid);
  expect(idle.done, idle.note).toBe(true);
  const ids = ((await stack.truth('orders')) as { data: Array<{ id: string }> }).data.map((o) => o.id);
  for (let i = 0; i < CHANGED; i++) {
    await stack.control(`orders/${ids[(i * 13) % ids.length]}/change`, { kind: 'cost_correction' });
    await stack.advanceClocks(Math.floor(HOUR_MS / CHANGED));
  }
  hourly = await hourlyTrigger(stack, uid);
  hourlyTruth = await compareWithTruth(stack);
  hourlyOrderRequests =
    figuresOf({ results: hourly.results, sheetsWritesPerMinuteMax: 0, orders: ORDERS }).api_requests_by_endpoint[
      '/api/v1/orders'
    ] ?? 0;
}, 600_000);

afterAll(async () => {
  await bench?.close();
});

describe(`the row index's reads at ${ORDERS} orders`, () => {
  it('a backfill that goes on in another execution reads the buckets once there, not once a page', () => {
    expect(backfill.done, backfill.note).toBe(true);
    expect(backfillTruth).toEqual(EXACT);
    expect(backfill.results.length, 'executions: the 429 ended the first').toBeGreaterThan(1);
    const [first, ...later] = backfill.results;
    expect(first.counts.cellsWritten, 'the first execution left the sheets past the index threshold').toBeGreaterThan(
      ROW_INDEX_MIN_ROWS,
    );
    // The later execution (the last): the snapshot, the start read (stamp and headers), ONE read of
    // the buckets, the rows of the orders the feed's overlap lists again, the tie-out's two reads and
    // the formulas' refresh; before, a read of the buckets for each of its pages.
    for (const r of later)
      expect(
        r.counts.sheetsApiReads,
        `Sheets API reads of a later execution: ${JSON.stringify(later.map((x) => x.counts.sheetsApiReads))}`,
      ).toBeLessThanOrEqual(7);
  });

  it(`an hourly run of ${CHANGED} changed orders (three pages) reads their buckets once and their rows once`, () => {
    expect(hourly.done, hourly.note).toBe(true);
    expect(hourlyTruth).toEqual(EXACT);
    expect(hourlyOrderRequests, 'orders pages the hourly run listed').toBeGreaterThanOrEqual(3);
    const reads = hourly.results.reduce((n, r) => n + r.counts.sheetsApiReads, 0);
    // The snapshot, the start read, the buckets, the rows, and the formulas' refresh (Spreadsheets.get):
    // five. The rows of 600 scattered orders go in ONE Values.batchGetByDataFilter (a POST: no URL to
    // outgrow, sheets/values-batches.ts). Once per run, not per page.
    expect(
      reads,
      `Sheets API read requests of the hourly run (${hourlyOrderRequests} orders requests)`,
    ).toBeLessThanOrEqual(5);
  });
});
