/**
 * Review probe (formulas): the plan's history window. After the store moves to a plan with a
 * shorter history (plus → starter, 90 days), PROFIT_SUMMARY over a period that starts before the
 * window covers only the window's days (period_truncated); its incomplete-cost rows must cover
 * the same days (docs/user-guide/custom-functions.md: "over the days the totals cover"), and a metric cell must say the
 * period was shortened.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { syncUntilCaughtUp } from './sync-support';
import { placedDayIn, incomplete, active, addDays } from './truth-orders';

type Json = Record<string, unknown>;
let stack: Stack;
let timeZone = '';

const placedDay = (o: Json) => placedDayIn(o, timeZone);

beforeAll(async () => {
  stack = await startStack({ orders: 300, seed: 71, plan: 'plus', modelledTimeOnly: true });
  await stack.connect();
  await syncUntilCaughtUp(stack);
  const store = (await stack.truth('store')) as Json;
  timeZone = String((store.store as Json).timezone);
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

describe('a plan with a shorter history', () => {
  it('PROFIT_SUMMARY over a period reaching before it: incomplete-cost rows over the covered days only', async () => {
    const plan = (await stack.control('plan', { plan: 'starter' })) as { history_available_from: string };
    const from = plan.history_available_from;
    await stack.advanceClocks(120_000);
    const start = addDays(from, -60);
    const end = addDays(from, 30);
    const orders = ((await stack.truth('orders')) as { data: Json[] }).data;
    const covered = orders.filter((o) => active(o) && placedDay(o) >= from && placedDay(o) <= end && incomplete(o));
    const asked = orders.filter((o) => active(o) && placedDay(o) >= start && placedDay(o) <= end && incomplete(o));
    expect(asked.length).toBeGreaterThan(covered.length);
    const r = await stack.runtime.run('PROFIT_SUMMARY', [start, end], { authMode: 'CUSTOM_FUNCTION' });
    expect(r.ok, r.error?.message).toBe(true);
    const values = new Map((r.value as Array<[string, unknown]>).map(([k, v]) => [k, v]));
    console.log(
      '[probe plan] from',
      from,
      'truncated',
      values.get('period_truncated'),
      'covered',
      covered.length,
      'asked',
      asked.length,
      'formula',
      values.get('orders_with_incomplete_costs'),
    );
    expect(values.get('period_truncated')).toBe(true);
    expect(values.get('orders_with_incomplete_costs')).toBe(covered.length);
    const metric = await stack.runtime.run('PROFIT_SUMMARY', [start, end, 'orders_with_incomplete_costs'], {
      authMode: 'CUSTOM_FUNCTION',
    });
    expect(metric.ok, metric.error?.message).toBe(true);
    const cells = metric.value as unknown[][];
    console.log('[probe plan] metric', JSON.stringify(cells));
    expect(cells[0][0]).toBe(covered.length);
    expect(String(cells[0][1] ?? ''), 'the cell beside says the period was shortened').toMatch(
      /history|from|shortened|truncated/i,
    );
  }, 300_000);
});
