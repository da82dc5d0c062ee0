/**
 * In CI: an hourly run with 1,000 changed orders (what 1 % of 100k changes every hour) on the
 * bench's 10k store. The strict runtime refuses a Values.batchGet (an HTTP GET, every range in the
 * URL) whose URL passes BATCH_GET_URL_LIMIT (sheets-values.ts): the run reads the rows of the
 * scattered orders with ONE Values.batchGetByDataFilter (a POST, the ranges in its body), where
 * batchGets took five. Every batchGet's URL and every batchGetByDataFilter's body is measured as the
 * REST API would receive it. Ground truth: the emulator's truth, cell for cell. Figures are the
 * runtime's counts: never wall time.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBenchBundle } from '../../bench/bundle';
import { ensureHourlySchedule, hourlyTrigger, sidebarSync, type Run } from '../../bench/drivers';
import { figuresOf } from '../../bench/figures';
import { startBenchStack, type BenchStack } from '../../bench/stack';
import { BATCH_GET_URL_LIMIT, SheetsValues, batchGetUrlLength } from '../../dev/gas-runtime/spreadsheet/sheets-values';
import {
  DATA_FILTER_PAYLOAD_LIMIT,
  dataFilterPayloadBytes,
} from '../../dev/gas-runtime/spreadsheet/sheets-values-data-filter';
import { compareWithTruth, type Comparison } from '../integration/sync-support';

const HOUR_MS = 3_600_000;
const ORDERS = 10_000;
const CHANGED = 1_000;
const EXACT: Comparison = { mismatches: [], missing: [], unexpected: [], duplicates: [] };

type BatchGet = (id: string, options?: Parameters<SheetsValues['batchGet']>[1]) => unknown;
const proto = SheetsValues.prototype as unknown as { batchGet: BatchGet };
const original = proto.batchGet;
let urls: Array<{ ranges: number; url: number }> = [];
type ByDataFilter = (resource: { dataFilters?: unknown[] }, id: string) => unknown;
const filterProto = SheetsValues.prototype as unknown as { batchGetByDataFilter?: ByDataFilter };
const originalByFilter = filterProto.batchGetByDataFilter;
let bodies: Array<{ filters: number; bytes: number }> = [];

let bench: BenchStack;
let hourly: Run;
let truth: Comparison;

beforeAll(async () => {
  proto.batchGet = function (this: SheetsValues, id, options) {
    const ranges = options?.ranges === undefined ? [] : ([] as string[]).concat(options.ranges);
    urls.push({ ranges: ranges.length, url: batchGetUrlLength(String(id), ranges, options) });
    return original.call(this, id, options);
  };
  if (originalByFilter)
    filterProto.batchGetByDataFilter = function (this: SheetsValues, resource, id) {
      bodies.push({ filters: resource?.dataFilters?.length ?? 0, bytes: dataFilterPayloadBytes(resource) });
      return originalByFilter.call(this, resource, id);
    };
  bench = await startBenchStack(
    ORDERS,
    writeBenchBundle(path.resolve('dist'), mkdtempSync(path.join(os.tmpdir(), 'perf-dist-'))),
  );
  const { stack } = bench;
  const ids = ((await stack.truth('orders')) as { data: Array<{ id: string }> }).data.map((o) => o.id);
  const backfill = await sidebarSync(stack);
  expect(backfill.done, backfill.note).toBe(true);
  await stack.advanceClocks(HOUR_MS);
  const uid = await ensureHourlySchedule(stack);
  await hourlyTrigger(stack, uid);
  for (let i = 0; i < CHANGED; i++) {
    await stack.control(`orders/${ids[(i * 7) % ids.length]}/change`, { kind: 'cost_correction' });
    if (i % 10 === 9) await stack.advanceClocks(Math.floor(HOUR_MS / (CHANGED / 10)));
  }
  urls = [];
  bodies = [];
  hourly = await hourlyTrigger(stack, uid);
  truth = await compareWithTruth(stack);
}, 900_000);

afterAll(async () => {
  proto.batchGet = original;
  filterProto.batchGetByDataFilter = originalByFilter;
  await bench?.close();
});

describe(`an hourly run with ${CHANGED} changed orders at ${ORDERS} orders`, () => {
  it('completes and the sheets match the truth', () => {
    expect(hourly.done, hourly.note).toBe(true);
    expect(truth).toEqual(EXACT);
  });

  it(`sends every Values.batchGet with a URL within ${BATCH_GET_URL_LIMIT} characters, each a read of the quota`, () => {
    expect(urls.length).toBeGreaterThan(0);
    const longest = Math.max(...urls.map((u) => u.url));
    expect(longest, JSON.stringify(urls)).toBeLessThanOrEqual(BATCH_GET_URL_LIMIT);
    const f = figuresOf({ results: hourly.results, sheetsWritesPerMinuteMax: 0, orders: ORDERS });
    expect(
      f.sheets_calls_by_kind.api_read,
      'each batchGet is a read request the runtime counts',
    ).toBeGreaterThanOrEqual(urls.length);
    expect(f.sheets_quota_refusals).toBe(0);
  });

  it(`reads the rows of the ${CHANGED} scattered orders in ONE request, a body within ${DATA_FILTER_PAYLOAD_LIMIT} bytes`, () => {
    const reads = hourly.results.reduce((n, r) => n + r.counts.sheetsApiReads, 0);
    // The snapshot (Spreadsheets.get), the start read (batchGet), the row index's buckets, the
    // changed orders' rows, and the formulas' refresh (Spreadsheets.get): five. Five batchGets of
    // the rows, their URLs under the limit, made eight (1636ed1).
    expect(reads, JSON.stringify({ urls, bodies })).toBeLessThanOrEqual(5);
    const rowReads = bodies.filter((b) => b.filters >= CHANGED);
    expect(rowReads, JSON.stringify(bodies)).toHaveLength(1);
    for (const b of bodies) expect(b.bytes).toBeLessThanOrEqual(DATA_FILTER_PAYLOAD_LIMIT);
  });
});
