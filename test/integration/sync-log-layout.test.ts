/**
 * The Sync log of an older version (columns inserted, updated, cancelled, gone, …) is not written
 * into with the new columns (orders_added … pnl_days): its rows would sit under the wrong
 * headings. It is kept under another name and a new Sync log is set up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { sheetTable } from './sync-support';

const OLD_HEADER = [
  'started_at',
  'ended_at',
  'job',
  'pages',
  'inserted',
  'updated',
  'cancelled',
  'gone',
  'requests',
  'rate_limit_waits',
  'outcome',
  'message',
];
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ orders: 40, seed: 3 });
  await stack.connect();
  const workbook = stack.runtime.workbook as unknown as Workbook;
  const log = workbook.insertSheet('Sync log') as unknown as SheetModel;
  OLD_HEADER.forEach((header, i) => log.write(1, i + 1, { value: header }));
  ['2026-01-01T00:00:00Z', '', 'orders', 3, 120, 4, 0, 0, 9, 0, 'ok', 'Orders are up to date.'].forEach((value, i) =>
    log.write(2, i + 1, { value }),
  );
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

describe('a Sync log with an older layout', () => {
  it('is kept under a dated name, and the run logs into a new Sync log with the new columns', async () => {
    const run = await stack.runtime.run('onScheduledSync', []);
    expect(run.ok, run.error?.message).toBe(true);
    const names = Object.keys(stack.runtime.exportJson().sheets);
    const kept = names.find((n) => /^Sync log \(until \d{4}-\d{2}-\d{2}\)$/.test(n));
    expect(kept).toBeDefined();
    const old = sheetTable(stack, kept!);
    expect(old[0]).toEqual(OLD_HEADER);
    expect(old[1][OLD_HEADER.indexOf('inserted')]).toBe(120);
    const [header, ...rows] = sheetTable(stack, 'Sync log');
    expect(header.slice(3, 11)).toEqual([
      'orders_added',
      'orders_updated',
      'orders_cancelled',
      'orders_gone',
      'line_items',
      'products',
      'variants',
      'pnl_days',
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0][header.indexOf('orders_added')]).toBe(40);
  });
});
