/**
 * The foreign-currency number formats of a write group (batch-writer.ts) are held to the 2 MB the values are held to
 * ("To speed up requests, we recommend a 2 MB maximum payload", developers.google.com/workspace/sheets/api/limits,
 * the rule the runtime enforces). A store whose orders are mostly in another currency than the store's
 * (spec 2.3: amounts are in the order currency) backfills a values group near 1.95 MB, and one repeatCell
 * per run of amount columns of every Orders and Line items row: the backfill completes, every amount
 * in EUR's format (found by an outside review: one request of 5.7 MB was refused, the rows kept the store's format).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
let stack: Stack;
let orders = 0;

beforeAll(async () => {
  stack = await startStack({ orders: 4_000, seed: 7 });
  const all = ((await stack.truth('orders')) as { data: Json[] }).data;
  orders = all.length;
  for (const o of all) await stack.control(`orders/${String(o.id)}/patch`, { currency: 'EUR' });
  await stack.connect();
}, 600_000);

afterAll(async () => {
  await stack?.close();
});

describe('a store whose orders are in another currency than the store’s', () => {
  it('backfills: every Sheets API body within 2 MB, the number formats included', async () => {
    // Each run is given its chance: a failed run says "the next run continues".
    const failures: string[] = [];
    let done = false;
    for (let n = 0; n < 12 && !done; n++) {
      await stack.advanceClocks(60 * 60_000);
      try {
        await syncUntilCaughtUp(stack, 1);
        done = true;
      } catch (e) {
        failures.push((e as Error).message.slice(0, 200));
      }
    }
    // And every EUR amount says EUR: rows written by a run whose formats request was refused keep the store's format.
    const table = sheetTable(stack, 'Orders');
    const column = table[0].indexOf('net_profit') + 1;
    const model = (stack.runtime.workbook as unknown as Workbook).sheetByName('Orders') as SheetModel;
    const formats = table
      .map((row, i) => (i > 0 && row[0] !== '' && row[0] !== null ? String(model.format(i + 1, column)) : null))
      .filter((f): f is string => f !== null);
    const notEur = formats.filter((f) => !f.includes('EUR')).length;
    expect({ done, failures }).toEqual({ done: true, failures: [] });
    expect(formats.length).toBe(orders);
    expect(notEur).toBe(0);
  }, 600_000);
});
