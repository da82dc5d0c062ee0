/**
 * A net profit the service does not know (spec 2.7: unknown is not zero) is NULL in BigQuery, and the
 * pivot's SUM of net_profit skips it: the pivot says so, each month counting its orders whose net
 * profit is unknown beside the sums (0 for a month whose figures are whole). A front serves two
 * orders of one month with a null net profit; the expected counts and sums come from the emulator's
 * truth, with the nulled orders' profit left out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '../../dev/harness/index';
import { drawFinishedExecutions } from '../../dev/gas-runtime/spreadsheet/data-source';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { PIVOT_SHEET } from './bigquery-pivot-support';
import { startUnknownCostStore } from './bigquery-unknown-cost-support';
import { sheetTable, storeDay } from './sync-support';
import type { HostileFront } from '../reliability/support/hostile-front';
import type { ReliabilityStack } from '../reliability/support/reliability-stack';
import { runUntilSettled } from '../reliability/support/verdict';

type Json = Record<string, unknown>;
let stack: ReliabilityStack;
let front: HostileFront;
const unknownProfit = new Set<string>();

beforeAll(async () => {
  ({ stack, front } = await startUnknownCostStore({ orders: 60, seed: 2603, lineCogs: false }, unknownProfit));
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await front?.close();
});

describe('an unknown net profit in the pivot', () => {
  it('each month counts its orders whose net profit is unknown; the sum holds the known ones only', async () => {
    const s = stack as unknown as Stack;
    const { timeZone } = await storeDay(s);
    const currency = String((((await s.truth('store')) as Json).store as Json).currency);
    const monthOf = (o: Json): string =>
      new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(String(o.created_at))).slice(0, 7);
    const orders = ((await s.truth('orders')) as { data: Json[] }).data.filter(
      (o) => !o.canceled_at && o.currency === currency,
    );
    const month = monthOf(orders[Math.floor(orders.length / 2)]);
    for (const o of orders.filter((o) => monthOf(o) === month).slice(0, 2)) unknownProfit.add(String(o.id));
    expect(unknownProfit.size).toBe(2);
    const end = await runUntilSettled(stack);
    expect(`${end.outcome}: ${end.message}`).toMatch(/^ok: /);

    await s.advanceClocks(60_000);
    drawFinishedExecutions(s.runtime.workbook as unknown as Workbook, s.runtime.clock.now());
    const [header, ...rows] = sheetTable(s, PIVOT_SHEET);
    const profitAt = header.indexOf('SUM of net_profit');
    const unknownAt = header.indexOf('SUM of orders_with_unknown_net_profit');
    expect(unknownAt).toBeGreaterThan(profitAt);
    const shown = new Map<string, [number, number]>();
    let block = '';
    for (const r of rows) {
      if (r[0] !== '') block = String(r[0]);
      if (block !== currency || /Total$/.test(block)) continue;
      shown.set(/\d{4}-\d{2}/.exec(String(r[1]))![0], [Math.round(Number(r[profitAt]) * 100), Number(r[unknownAt])]);
    }
    const expected = new Map<string, [number, number]>();
    for (const o of orders) {
      const [profit, unknown] = expected.get(monthOf(o)) ?? [0, 0];
      const known = !unknownProfit.has(String(o.id));
      const cents = Math.round(Number((o.economics as Json).net_profit) * 100);
      expected.set(monthOf(o), [profit + (known ? cents : 0), unknown + (known ? 0 : 1)]);
    }
    expect([...shown].sort()).toEqual([...expected].sort());
    expect(shown.get(month)?.[1]).toBe(2);
  }, 300_000);
});
