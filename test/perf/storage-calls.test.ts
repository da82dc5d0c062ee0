/**
 * The fixed costs of a run at 1,000 orders, where they weigh most: the Properties and Cache calls,
 * the Sheets calls and the modelled service seconds of a backfill ("Sync now" on the bench's
 * 1,000-order store) and of the hourly run after 1 % of the orders changed stay within the
 * committed budget (storage-calls-budget.json). Every such call is billed (Properties 40-70 ms,
 * Cache 25-100 ms: apps-script-cost-model.md) and Properties calls count against Google's 50,000
 * a day per user. A property read again at every page, a run state written key by key, or the
 * sidebar's cached stamp dropped for each of a run's writes fails here; so does a Values.batchUpdate
 * of its own (330 ms) for the Sync log's first row, each Daily P&L page or the products' last page
 * (they ride along with the run's next write), or a formula scan of an empty sheet.
 *
 * Figures are the runtime's counters and its modelled clock (modelledTimeOnly): never wall time.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionResult } from '../../dev/gas-runtime/index';
import { writeBenchBundle } from '../../bench/bundle';
import { ensureHourlySchedule, hourlyTrigger, sidebarSync, type Run } from '../../bench/drivers';
import { figuresOf, serviceSeconds } from '../../bench/figures';
import { startBenchStack, type BenchStack } from '../../bench/stack';
import budget from './storage-calls-budget.json';

const HOUR_MS = 3_600_000;

interface StorageFigures {
  /** Reads and writes on every Properties store (script, user, document), the runtime's quota count. */
  property_calls: number;
  /** CacheService calls (get, put, remove and their bulk forms). */
  cache_calls: number;
  /** Modelled seconds of Properties, Cache and Lock calls. */
  storage_seconds: number;
  /** SpreadsheetApp and Advanced Sheets calls. */
  sheets_calls: number;
  /** Modelled seconds of the services (API, Sheets, waits, storage), JavaScript left out. */
  service_seconds: number;
}

const cacheCalls = (r: ExecutionResult): number =>
  Object.entries(r.counts.byMethod).reduce((n, [method, count]) => n + (method.startsWith('Cache.') ? count : 0), 0);

function storageOf(run: Run): StorageFigures {
  const figures = figuresOf({
    results: run.results,
    sheetsWritesPerMinuteMax: run.sheetsWritesPerMinuteMax,
    orders: 0,
  });
  return {
    property_calls: run.results.reduce((n, r) => n + r.counts.propertyCalls, 0),
    cache_calls: run.results.reduce((n, r) => n + cacheCalls(r), 0),
    storage_seconds: figures.time_split_seconds.storage,
    sheets_calls: figures.sheets_calls,
    service_seconds: serviceSeconds(figures),
  };
}

let bench: BenchStack;
let backfill: Run;
let hourly: Run;

beforeAll(async () => {
  const dir = writeBenchBundle(path.resolve('dist'), mkdtempSync(path.join(os.tmpdir(), 'perf-dist-')));
  bench = await startBenchStack(budget.orders, dir);
  const { stack } = bench;
  backfill = await sidebarSync(stack);
  await stack.advanceClocks(HOUR_MS);
  const uid = await ensureHourlySchedule(stack);
  const idle = await hourlyTrigger(stack, uid);
  expect(idle.done, idle.note).toBe(true);
  const orders = ((await stack.truth('orders')) as { data: Array<{ id: string }> }).data;
  const changed = orders.length / 100;
  for (let i = 0; i < changed; i++) {
    await stack.control(`orders/${orders[(i * 97) % orders.length].id}/change`, { kind: 'cost_correction' });
    await stack.advanceClocks(Math.floor(HOUR_MS / changed));
  }
  hourly = await hourlyTrigger(stack, uid);
}, 300_000);

afterAll(async () => {
  await bench?.close();
});

describe(`Properties, Cache and Sheets calls and service seconds at ${budget.orders} orders`, () => {
  it('the backfill finishes within the committed budget of property calls, cache calls, storage seconds, Sheets calls and service seconds', () => {
    expect(backfill.done, backfill.note).toBe(true);
    const got = storageOf(backfill);
    for (const key of Object.keys(budget.backfill) as Array<keyof StorageFigures>)
      expect(got[key], `backfill ${key}: ${JSON.stringify(got)}`).toBeLessThanOrEqual(budget.backfill[key]);
  });

  it('the hourly run after 1 % of the orders changed stays within the committed budget', () => {
    expect(hourly.done, hourly.note).toBe(true);
    expect(hourly.note).toMatch(/Tie-out: Orders agree with the Daily P&L/);
    const got = storageOf(hourly);
    for (const key of Object.keys(budget.hourly) as Array<keyof StorageFigures>)
      expect(got[key], `hourly ${key}: ${JSON.stringify(got)}`).toBeLessThanOrEqual(budget.hourly[key]);
  });
});
