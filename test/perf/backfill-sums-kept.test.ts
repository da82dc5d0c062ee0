/**
 * A backfill that takes several Sync now steps (at 100k: 8 executions, paced by the API's
 * per-minute limit) keeps the Orders day sums as its pages are written, across its executions: its
 * tie-out reads none of the Orders sheet it created back (3.5 M cells at 100k). Here a 1k store
 * whose third orders request meets the per-minute limit (429, Retry-After 59 s: the step ends and
 * the sidebar waits the minute out, as at 100k), so the Orders sheet is created in one execution and
 * tied out in another. The tie-out's answer is checked against the emulator's truth (every day ✓,
 * the data sheets equal to /_emulator/truth/*); counts are the runtime's, never time.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBenchBundle } from '../../bench/bundle';
import { sidebarSync, type Run } from '../../bench/drivers';
import { startBenchStack, type BenchStack } from '../../bench/stack';
import { ORDER_SUM_COLUMNS } from '../../src/server/finance/order-day-sums';
import { checksScope, compareWithTruth, sheetTable } from '../integration/sync-support';

const ORDERS = 1000;

let bench: BenchStack;
let backfill: Run;

beforeAll(async () => {
  const dir = writeBenchBundle(path.resolve('dist'), mkdtempSync(path.join(os.tmpdir(), 'sums-kept-dist-')));
  bench = await startBenchStack(ORDERS, dir);
  await bench.stack.control('faults', {
    status: 429,
    reason: 'burst',
    retry_after: 59,
    path_prefix: '/api/v1/orders',
    after: 2,
    count: 1,
  });
  backfill = await sidebarSync(bench.stack);
}, 300_000);

afterAll(async () => {
  await bench?.close();
});

describe('a backfill over several Sync now steps', () => {
  it('ties out from the day sums its steps kept as they wrote, reading none of the Orders sheet back, and agrees with the truth', async () => {
    expect(backfill.done, backfill.note).toBe(true);
    expect(backfill.results.length, 'executions').toBeGreaterThan(1);
    const ordersRows = sheetTable(bench.stack, 'Orders').length - 1;
    expect(ordersRows).toBe(ORDERS);
    const truth = await compareWithTruth(bench.stack);
    expect([...truth.mismatches, ...truth.missing, ...truth.unexpected, ...truth.duplicates]).toEqual([]);
    expect(checksScope(bench.stack)).toContain('the rows this sync wrote into the Orders sheet it created');
    const [headers, ...rows] = sheetTable(bench.stack, 'Checks');
    const days = rows.filter((r) => r[headers.indexOf('kind')] === 'day');
    expect(days.length, 'days the tie-out checked').toBeGreaterThan(300);
    const failed = days.filter((r) => r[headers.indexOf('result')] !== '✓').map((r) => r[headers.indexOf('period')]);
    expect(failed, 'days not ✓').toEqual([]);
    // A read of Orders for the tie-out is at least one cell per row for each column the day sums hold.
    const tieoutRead = ordersRows * ORDER_SUM_COLUMNS.length;
    for (const [i, r] of backfill.results.entries())
      expect(r.counts.cellsRead, `cells execution ${i + 1} read`).toBeLessThan(tieoutRead);
  });
});
