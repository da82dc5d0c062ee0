/**
 * The Sync log keeps the newest 500 runs: once a run's row passes 550 (500 plus a slack of 50, so
 * rows are not deleted at every run) the oldest rows are deleted with Sheet.deleteRows. Driven
 * through the built add-on in the strict runtime, whose deleteRows moves the rows below up and
 * shrinks the grid as Sheets does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { sheetTable } from './sync-support';

/** Rows 2…551 are runs: the next run writes row 552, the first past 500 + 50 runs. */
const OLD_RUNS = 550;
let stack: Stack;

const logSheet = (): SheetModel =>
  (stack.runtime.workbook as unknown as Workbook).sheets.find((s) => s.name === 'Sync log')!;

beforeAll(async () => {
  stack = await startStack({ orders: 30, seed: 12 });
  await stack.connect();
  const first = await stack.runtime.run('onScheduledSync', []);
  expect(first.ok, first.error?.message).toBe(true);
  // Older runs, each told apart by its message, under the header the add-on wrote (row 1).
  const log = logSheet();
  const [header, run] = sheetTable(stack, 'Sync log');
  const message = header.indexOf('message');
  const workbook = stack.runtime.workbook as unknown as Workbook;
  if (log.maxRows < OLD_RUNS + 1) workbook.growSheet(log, OLD_RUNS + 1 - log.maxRows, 0);
  for (let i = 0; i < OLD_RUNS; i++) {
    run.forEach((value, c) => log.write(2 + i, c + 1, { value: c === message ? `older run ${i + 1}` : value }));
  }
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('the Sync log past 550 rows', () => {
  it('deletes the oldest rows down to the newest 500 runs, keeping the header and the run just logged', async () => {
    const before = logSheet().maxRows;
    const run = await stack.runtime.run('onScheduledSync', []);
    expect(run.ok, run.error?.message).toBe(true);
    expect(run.counts.byMethod['Sheet.deleteRows']).toBe(1);

    const [header, ...rows] = sheetTable(stack, 'Sync log');
    expect(header[0]).toBe('started_at');
    expect(rows).toHaveLength(500);
    const message = header.indexOf('message');
    // Row 552 was the new run's: 51 rows went (older runs 1…51), 499 older runs stay in order, then the new one.
    expect(rows[0][message]).toBe('older run 52');
    expect(rows[498][message]).toBe(`older run ${OLD_RUNS}`);
    expect(rows[499][message]).toMatch(/^Orders are up to date\./);
    expect(rows[499][header.indexOf('outcome')]).toBe('ok');
    expect(logSheet().maxRows).toBe(Math.max(before, 552) - 51);
  });
});
