/**
 * A Sync now whose minute already holds other executions' requests (spec 8.1, burst: 60 a minute
 * per store, whoever sends them): right after connecting, a report's formula cells ask the API for
 * 20 summaries, then Sync now backfills the 10,000-order bench store (about 46 requests). Together
 * they pass the minute's limit, so the sync must count requests it did not send: the emulator,
 * whose sliding minute decides, refuses none of them, the sync waits at most the one minute the
 * limit asks for, and every order and line item the truth holds is written. Modelled time only (the
 * emulator's clock in step): the same timeline on any host.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionResult } from '../../dev/gas-runtime/index';
import { addDays, sidebarSync, type Run } from '../../bench/drivers';
import { BENCH_NOW, startBenchStack, type BenchStack } from '../../bench/stack';
import { sheetTable } from '../integration/sync-support';
import { truthRowCounts } from './truth-counts';

const ORDERS = 10_000;
/** Spec 8.1: the burst limit, per store. */
const BURST_PER_MINUTE = 60;
const FORMULA_CELLS = 20;
/** The minute's limit asks for one minute of waiting at most. */
const WAIT_BUDGET_MS = 60_000;

let bench: BenchStack;
let cells: ExecutionResult[];
let run: Run;
let emulator429s: number;

const apiAnswers = (results: readonly ExecutionResult[]): Array<{ url: string; status: number }> =>
  results.flatMap((e) => e.counts.requests).filter((q) => new URL(q.url).pathname.startsWith('/api/v1/'));

beforeAll(async () => {
  bench = await startBenchStack(ORDERS);
  const { stack } = bench;
  const today = new Date(BENCH_NOW).toISOString().slice(0, 10);
  cells = [];
  // Each cell a period of its own: one summary request each (no cached answer to reuse).
  for (let i = 0; i < FORMULA_CELLS; i++)
    cells.push(
      await stack.runtime.run('PROFIT_SUMMARY', [addDays(today, -30 - i), addDays(today, -1 - i)], {
        authMode: 'CUSTOM_FUNCTION',
      }),
    );
  run = await sidebarSync(stack);
  const stats = (await stack.control('stats')) as { by_status: Record<string, number> };
  emulator429s = stats.by_status['429'] ?? 0;
}, 600_000);

afterAll(async () => {
  await bench?.close();
});

describe('a backfill of 10,000 orders in a minute shared with formula cells', () => {
  it('together with the cells needs more than a minute of requests, and none is refused', () => {
    expect(run.done, run.note).toBe(true);
    expect(
      cells.filter((c) => !c.ok).map((c) => c.error?.message),
      'formula cells failed',
    ).toEqual([]);
    const requests = apiAnswers(cells).length + apiAnswers(run.results).length;
    expect(requests).toBeGreaterThan(BURST_PER_MINUTE);
    const refused = apiAnswers(run.results)
      .filter((q) => q.status === 429)
      .map((q) => new URL(q.url).pathname);
    expect(refused, 'sync requests answered 429').toEqual([]);
    expect(emulator429s, "the emulator's 429 answers").toBe(0);
  });

  it('waits no longer than the minute asks', () => {
    const slept = run.results.reduce((ms, r) => ms + r.counts.sleptMs, 0);
    expect(slept).toBeLessThanOrEqual(WAIT_BUDGET_MS);
  });

  it('writes every order and line item the truth holds, once', async () => {
    const truth = await truthRowCounts(bench.stack);
    const [header = [], ...orders] = sheetTable(bench.stack, 'Orders');
    const ids = orders.map((r) => String(r[header.indexOf('id')]));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(truth.orders);
    expect(sheetTable(bench.stack, 'Line items').length - 1).toBe(truth.lineItems);
  });
});
