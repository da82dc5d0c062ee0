/**
 * Plan history windows (spec 8.3): on Starter the sheets hold what the window shows, the window
 * is recorded (meta.history_available_from, meta.truncated) and shown in the Sync log, and an
 * order that merely slid out of the window is not marked gone by reconciliation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { compareWithTruth, sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
let stack: Stack;

async function windowStart(): Promise<string> {
  return String(((await stack.truth('store')) as Json).history_available_from);
}

beforeAll(async () => {
  stack = await startStack({ orders: 400, seed: 4, plan: 'starter' });
  await stack.connect();
});

afterAll(async () => {
  await stack?.close();
});

describe('Starter plan: 90-day window', () => {
  it('syncs exactly the orders and days inside the window, equal to the truth', async () => {
    await syncUntilCaughtUp(stack);
    const from = await windowStart();
    const result = await compareWithTruth(stack, { placedFrom: from });
    expect(result).toEqual({ mismatches: [], missing: [], unexpected: [], duplicates: [] });
    const days = sheetTable(stack, 'Daily P&L')
      .slice(1)
      .map((r) => String(r[0]));
    expect(days[0]).toBe(from);
  });

  it('records the window in the Sync log message', () => {
    const [headers, ...rows] = sheetTable(stack, 'Sync log');
    expect(String(rows[rows.length - 1][headers.indexOf('message')])).toContain(`history from`);
  });

  it('an order that slid out of the window is kept, not marked gone', async () => {
    const before = sheetTable(stack, 'Orders');
    await stack.advanceClocks(20 * 86_400_000);
    const from = await windowStart();
    const [headers, ...rows] = before;
    const slid = rows
      .filter((r) => String(r[headers.indexOf('placed_date')]) < from)
      .map((r) => String(r[headers.indexOf('id')]));
    expect(slid.length).toBeGreaterThan(0);
    let done = false;
    for (let n = 0; n < 5 && !done; n++)
      done = Boolean(((await stack.runtime.run('reconcileOrdersNow', [])).value as { done?: boolean }).done);
    const after = sheetTable(stack, 'Orders');
    const status = new Map(after.slice(1).map((r) => [String(r[headers.indexOf('id')]), r[headers.indexOf('status')]]));
    for (const id of slid) expect(status.get(id)).not.toBe('gone');
    const result = await compareWithTruth(stack, { placedFrom: from, expectKept: new Set(slid) });
    expect(result.mismatches.filter((m) => m.sheet === 'Orders')).toEqual([]);
    expect(result.unexpected).toEqual([]);
  });
});
