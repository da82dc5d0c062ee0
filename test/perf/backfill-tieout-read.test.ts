/**
 * The backfill: the Sync now that creates the Orders sheet ties out from the day sums of the
 * rows it wrote, without reading back the sheet it created (21,000 cells at 1k orders, 6.6 M at
 * 100k); and a hand edit of Orders made between runs is still caught: Checks → Run reads the sheet
 * whole (its run did not create it) and says ✗ on that day. Counts are the runtime's (cells read
 * per execution), never time; the ✗ is checked against the emulator's truth (the day's P&L).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeBenchBundle } from '../../bench/bundle';
import { sidebarSync, type Run } from '../../bench/drivers';
import { startBenchStack, type BenchStack } from '../../bench/stack';
import { checksScope, sheetTable } from '../integration/sync-support';

const ORDERS = 500;

let bench: BenchStack;
let backfill: Run;

const cellsRead = (run: Run): number => run.results.reduce((n, r) => n + r.counts.cellsRead, 0);

beforeAll(async () => {
  const dir = writeBenchBundle(path.resolve('dist'), mkdtempSync(path.join(os.tmpdir(), 'backfill-tieout-dist-')));
  bench = await startBenchStack(ORDERS, dir);
  backfill = await sidebarSync(bench.stack);
  expect(backfill.done, backfill.note).toBe(true);
}, 300_000);

afterAll(async () => {
  await bench?.close();
});

describe('the backfill tie-out', () => {
  it("reads back no cell of the Orders sheet it created, and a user's edit between runs is still caught: Checks → Run reads the sheet whole and says ✗ on that day alone", async () => {
    const ordersRows = sheetTable(bench.stack, 'Orders').length - 1;
    expect(ordersRows).toBe(ORDERS);
    // A read of the Orders sheet's summed columns is at least one cell per row.
    expect(cellsRead(backfill), 'cells the backfill read, Orders rows: ' + ordersRows).toBeLessThan(ordersRows);
    expect(checksScope(bench.stack)).toContain('the rows this sync wrote into the Orders sheet it created');
    expect(backfill.note).toBe('Caught up');
    expect(failedDays(), 'days ✗ after the backfill').toEqual([]);

    const [headers, ...rows] = sheetTable(bench.stack, 'Orders');
    const at = rows.findIndex((r) => r[headers.indexOf('status')] === 'active');
    const column = headers.indexOf('cogs') + 1;
    const sheet = (
      bench.stack.runtime.workbook as unknown as {
        sheetByName(n: string): { write(r: number, c: number, v: { value: unknown }): void };
      }
    ).sheetByName('Orders');
    sheet.write(at + 2, column, { value: Number(rows[at][column - 1]) + 3 });
    await bench.stack.advanceClocks(60_000);
    const run = await bench.stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
    expect(run.ok, run.error?.message).toBe(true);
    expect(run.counts.cellsRead, 'cells Checks → Run read (Orders rows: ' + ORDERS + ')').toBeGreaterThanOrEqual(
      ORDERS,
    );
    expect(checksScope(bench.stack)).toContain('Orders sheet read in full for this check');
    expect(failedDays(), 'days ✗ after the edit').toHaveLength(1);
  });
});

function failedDays(): string[] {
  const [headers, ...rows] = sheetTable(bench.stack, 'Checks');
  return rows
    .filter((r) => r[headers.indexOf('kind')] === 'day' && r[headers.indexOf('result')] !== '✓')
    .map((r) => String(r[headers.indexOf('period')]));
}
