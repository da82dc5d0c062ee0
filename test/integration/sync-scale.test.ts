/**
 * A sync of 10,000 orders makes ceil(10000/250) order requests plus a small constant,
 * and a small constant number of Sheets service calls per page. Counts only, never wall time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { ExecutionResult } from '../../dev/gas-runtime/index';
import { keyColumn, sheetTable } from './sync-support';

const ORDERS = 10_000;
let stack: Stack;
const executions: ExecutionResult[] = [];

beforeAll(async () => {
  stack = await startStack({ orders: ORDERS, seed: 2 });
  await stack.connect();
  for (let n = 0; n < 10; n++) {
    const r = await stack.runtime.run('onScheduledSync', []);
    executions.push(r);
    if (r.ok && (r.value as { done?: boolean }).done) break;
  }
}, 240_000);

afterAll(async () => {
  await stack?.close();
});

const sum = (pick: (r: ExecutionResult) => number): number => executions.reduce((n, r) => n + pick(r), 0);

describe('a 10,000-order sync', () => {
  it('catches up with every order written once', () => {
    expect(executions[executions.length - 1].ok).toBe(true);
    expect((executions[executions.length - 1].value as { outcome: string }).outcome).toBe('ok');
    const table = sheetTable(stack, 'Orders');
    const ids = table.slice(1).map((r) => r[keyColumn(table)]);
    expect(ids.length).toBe(ORDERS);
    expect(new Set(ids).size).toBe(ORDERS);
  });

  it('makes ceil(10000/250) order requests plus a small constant', () => {
    const orderRequests = sum((r) => r.counts.requests.filter((q) => /\/api\/v1\/orders\?/.test(q.url)).length);
    expect(orderRequests).toBeGreaterThanOrEqual(Math.ceil(ORDERS / 250));
    expect(orderRequests).toBeLessThanOrEqual(Math.ceil(ORDERS / 250) + 2 * executions.length);
    const allRequests = sum((r) => r.counts.requests.length);
    // Per execution: account, the basis check's one-day summary (spec 2.3 r6), the backfill
    // estimate's summary, products, the Daily P&L pages (two for a year and a month of days), and
    // the tie-out's read of the same days at check time (two more: it could reuse the job's rows).
    expect(allRequests - orderRequests).toBeLessThanOrEqual(8 * executions.length);
  });

  it('makes a small constant number of Sheets calls per page (one batchUpdate per page)', () => {
    const pages = Math.ceil(ORDERS / 250);
    const batchUpdates = sum((r) => r.counts.byMethod['Sheets.Spreadsheets.Values.batchUpdate'] ?? 0);
    // one per orders page, plus products, daily pages and the Sync log rows of each execution
    expect(batchUpdates).toBeLessThanOrEqual(pages + 8 * executions.length);
    const flushes = sum((r) => r.counts.byMethod['SpreadsheetApp.flush'] ?? 0);
    const sheetsApiRequests = sum((r) =>
      Object.entries(r.counts.byMethod)
        .filter(([m]) => m.startsWith('Sheets.'))
        .reduce((n, [, c]) => n + c, 0),
    );
    // a flush only ever precedes a Sheets API request that pending SpreadsheetApp changes would race
    expect(flushes).toBeLessThanOrEqual(sheetsApiRequests);
    // set-up of six sheets is a one-off constant; the rest is a few calls per page
    expect(sum((r) => r.counts.sheetsCalls) - flushes).toBeLessThanOrEqual(120 + 4 * pages);
    // header rows of the eight managed sheets (Monthly P&L and Checks included) are the only SpreadsheetApp writes
    for (const method of ['Range.setValue', 'Range.setValues', 'Sheet.appendRow']) {
      expect(sum((r) => r.counts.byMethod[method] ?? 0)).toBeLessThanOrEqual(8 * executions.length);
    }
  });
});
