/**
 * Controller probe: PROFIT_DAILY and PROFIT_SUMMARY after a sync that rewrote a Daily P&L day (a
 * cost correction the daily job's 60-day window brought in) equal the Daily P&L sheet and the API,
 * not the answer cached before that sync.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { sheetTable, storeDay, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
let stack: Stack;
let timeZone = '';
let today = '';

beforeAll(async () => {
  stack = await startStack({ orders: 150, seed: 29, plan: 'plus', days: 90 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
  ({ timeZone, today } = await storeDay(stack));
}, 240_000);

afterAll(async () => {
  await stack?.close();
});

const localDay = (iso: string): string => new Date(iso).toLocaleDateString('en-CA', { timeZone });
const cents = (v: unknown): number => Math.round(Number(v) * 100);

async function formula(name: string, args: unknown[]): Promise<unknown[][]> {
  const r = await stack.runtime.run(name, args, { authMode: 'CUSTOM_FUNCTION' });
  expect(r.ok, r.error?.message).toBe(true);
  return r.value as unknown[][];
}

describe('controller: formulas after a sync that changed a P&L day', () => {
  it("PROFIT_DAILY and PROFIT_SUMMARY give the day's new cogs", async () => {
    const orders = ((await stack.truth('orders')) as { data: Json[] }).data;
    const order = orders.find(
      (o) =>
        !o.canceled_at &&
        (o.line_items as Json[]).length > 0 &&
        localDay(String(o.created_at)) < today &&
        localDay(String(o.created_at)) >= addDays(today, -20),
    )!;
    const day = localDay(String(order.created_at));
    const daily0 = await formula('PROFIT_DAILY', [day, day, 'cogs']);
    const summary0 = await formula('PROFIT_SUMMARY', [day, day, 'cogs']);
    const line = (order.line_items as Json[])[0];
    await stack.control(`orders/${String(order.id)}/silent-patch`, {
      line_items: [{ id: line.id, cogs: Math.round(Number(line.cogs) * 100 + 4200) / 100 }],
    });
    const [truth] = ((await stack.control(`truth/daily?start_date=${day}&end_date=${day}`)) as { data: Json[] }).data;
    await stack.advanceClocks(2 * 60_000);
    await syncUntilCaughtUp(stack);
    const [h, ...rows] = sheetTable(stack, 'Daily P&L');
    const sheetCogs = rows.find((r) => r[0] === day)?.[h.indexOf('cogs')];
    expect(cents(sheetCogs), 'the sync rewrote the Daily P&L day').toBe(cents(truth.cogs));
    const daily1 = await formula('PROFIT_DAILY', [day, day, 'cogs']);
    const summary1 = await formula('PROFIT_SUMMARY', [day, day, 'cogs']);
    expect
      .soft(
        cents(daily1[1][1]),
        `PROFIT_DAILY(${day}) cogs ${String(daily1[1][1])} (before the correction ${String(daily0[1][1])}); Daily P&L sheet and API ${String(truth.cogs)}`,
      )
      .toBe(cents(truth.cogs));
    expect(
      cents(summary1[0][0]),
      `PROFIT_SUMMARY(${day}, ${day}, "cogs") ${String(summary1[0][0])} (before ${String(summary0[0][0])}); Daily P&L sheet and API ${String(truth.cogs)}`,
    ).toBe(cents(truth.cogs));
  });
});

function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
