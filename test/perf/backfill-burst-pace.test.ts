/**
 * A backfill that needs more than a minute's worth of API requests (spec 8.1, burst: 60 a minute
 * per store) keeps its order pages under the limit instead of running into it: Sync now of 20,000
 * orders (80 pages) gets no 429 from the emulator, whose sliding minute decides, and still writes
 * every order and line item the truth holds. The minute before the Sync now is left to pass, so
 * the requests of the connect are not in it. Modelled time (the emulator's clock in step): the
 * same timeline on any host.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sidebarSync, type Run } from '../../bench/drivers';
import { startBenchStack, type BenchStack } from '../../bench/stack';
import { sheetTable } from '../integration/sync-support';
import { truthRowCounts } from './truth-counts';

const ORDERS = 20_000;
/** Spec 8.1: the burst limit, per store. */
const BURST_PER_MINUTE = 60;

let bench: BenchStack;
let run: Run;

const apiAnswers = (r: Run): Array<{ url: string; status: number }> =>
  r.results.flatMap((e) => e.counts.requests).filter((q) => new URL(q.url).pathname.startsWith('/api/v1/'));

beforeAll(async () => {
  bench = await startBenchStack(ORDERS);
  await bench.stack.advanceClocks(60_000);
  run = await sidebarSync(bench.stack);
}, 600_000);

afterAll(async () => {
  await bench?.close();
});

describe('the backfill of 20,000 orders under the API burst limit', () => {
  it('needs more than a minute of requests and is refused none of them', () => {
    expect(run.done, run.note).toBe(true);
    const answers = apiAnswers(run);
    expect(answers.length).toBeGreaterThan(BURST_PER_MINUTE);
    const refused = answers.filter((q) => q.status === 429).map((q) => new URL(q.url).pathname);
    expect(refused, 'requests answered 429').toEqual([]);
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
