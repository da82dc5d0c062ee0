/**
 * Review probe (formulas): the spreadsheet holds store A's data (Orders, Daily P&L, the incomplete-
 * cost counts kept per month) when the same merchant user picks store B for the grant elsewhere
 * (spec 3.2: the connection now reads another store). A report cell of this spreadsheet must then
 * say so (or answer store A's figures), never store B's totals beside store A's incomplete-cost counts
 * as if they were one store's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { sheetTable, syncUntilCaughtUp } from './sync-support';
import { addDays } from './truth-orders';

type Json = Record<string, unknown>;
let stack: Stack;
let storeA: { id: string; name: string };
let storeB: { id: string; name: string };
let today = '';

const cents = (v: unknown) => Math.round(Number(v) * 100);

beforeAll(async () => {
  stack = await startStack({ orders: 120, seed: 11, modelledTimeOnly: true });
  const stores = ((await stack.control('truth/stores')) as { data: Array<{ id: string; name: string }> }).data;
  [storeA, storeB] = [stores[0]!, stores[1]!];
  expect((await stack.connect({ storeId: storeA.id })).outcome).toBe('connected');
  await syncUntilCaughtUp(stack);
  today = String(((await stack.truth('store')) as Json).today);
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

/** Store A's net revenue over [start, end] as the synced Daily P&L sheet holds it (proven by the tie-out). */
function sheetNetRevenue(start: string, end: string): number {
  const [header, ...rows] = sheetTable(stack, 'Daily P&L');
  const col = header.indexOf('net_revenue');
  return rows.filter((r) => String(r[0]) >= start && String(r[0]) <= end).reduce((s, r) => s + cents(r[col]), 0);
}

async function storeBNetRevenue(start: string, end: string): Promise<number> {
  const days = (
    (await stack.control(`truth/daily?store=${storeB.id}&start_date=${start}&end_date=${end}`)) as { data: Json[] }
  ).data;
  return days.reduce((s, d) => s + cents(d.net_revenue), 0);
}

describe('the grant moved to another store elsewhere', () => {
  it("PROFIT_SUMMARY in store A's spreadsheet does not answer store B's totals as if they were this spreadsheet's", async () => {
    const start = addDays(today, -90);
    const end = addDays(today, -1);
    const a = sheetNetRevenue(start, end);
    const b = await storeBNetRevenue(start, end);
    expect(a).not.toBe(b);
    await stack.control('grants/switch-store', { store: storeB.id });
    const result = await stack.runtime.run('PROFIT_SUMMARY', [start, end, 'net_revenue'], {
      authMode: 'CUSTOM_FUNCTION',
    });
    console.log(
      '[probe switch] ok',
      result.ok,
      'value',
      JSON.stringify(result.value),
      'error',
      result.error?.message,
      'A',
      a / 100,
      'B',
      b / 100,
    );
    if (result.ok) {
      const cell = (result.value as unknown[][])[0][0];
      expect(cents(cell), `net_revenue ${String(cell)}: store A (the sheets) ${a / 100}, store B ${b / 100}`).toBe(a);
    } else {
      expect(result.error?.message ?? '').toMatch(/another store|reconnect/i);
    }
  });

  it('…and still after the sidebar has seen the connection now reads store B', async () => {
    const state = await stack.runtime.run('getSidebarState', [], { authMode: 'FULL' });
    expect(state.ok, state.error?.message).toBe(true);
    console.log('[probe switch] sidebar connection', JSON.stringify((state.value as Json).connection).slice(0, 200));
    const start = addDays(today, -90);
    const end = addDays(today, -1);
    const a = sheetNetRevenue(start, end);
    const b = await storeBNetRevenue(start, end);
    // A new argument set: no answer cached from before.
    const result = await stack.runtime.run('PROFIT_SUMMARY', [addDays(start, 1), end], { authMode: 'CUSTOM_FUNCTION' });
    console.log(
      '[probe switch] table ok',
      result.ok,
      'error',
      result.error?.message,
      JSON.stringify(result.value)?.slice(0, 300),
    );
    if (result.ok) {
      const values = new Map((result.value as Array<[string, unknown]>).map(([k, v]) => [k, v]));
      const got = cents(values.get('net_revenue'));
      expect(got, `net_revenue: store A ${a / 100} (minus its first day), store B ${b / 100}`).not.toBe(
        await storeBNetRevenue(addDays(start, 1), end),
      );
      expect(got).toBe(sheetNetRevenue(addDays(start, 1), end));
    } else {
      expect(result.error?.message ?? '').toMatch(/another store|reconnect/i);
    }
  });
});
