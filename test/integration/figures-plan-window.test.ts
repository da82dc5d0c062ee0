/**
 * Spec 8.3: the plan window's edges in PROFIT_SUMMARY. A month wholly before the
 * plan's history has no figures — an empty cell with a note (one metric) or an error that says so
 * (the table), never 0; for a period the window cuts, the incomplete-cost counts beside the totals
 * cover the same days as the totals. The sheets were synced under a plan that shows all history
 * (so Orders holds older orders), then the store moved to Starter. Every expectation is the
 * emulator's truth: the window's first day, the orders, the daily figures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
type Economics = { cogs_source: string; cogs_coverage_pct: number; net_revenue: number };
let stack: Stack;
let timeZone = '';
let from = '';
let truth: Json[] = [];

const economics = (o: Json) => o.economics as Economics;
const incomplete = (o: Json) =>
  !o.canceled_at && (economics(o).cogs_source === 'unknown' || economics(o).cogs_coverage_pct < 100);
const localDay = (iso: string): string => new Date(iso).toLocaleDateString('en-CA', { timeZone });
const placedIn = (start: string, end: string) => (o: Json) =>
  localDay(String(o.created_at)) >= start && localDay(String(o.created_at)) <= end;
const cents = (amount: unknown): number => Math.round(Number(amount) * 100);

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function lastDayOfMonth(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

beforeAll(async () => {
  stack = await startStack({ orders: 300, seed: 74, plan: 'plus' });
  await stack.connect();
  await syncUntilCaughtUp(stack);
  await stack.control('plan', { plan: 'starter' });
  const store = (await stack.truth('store')) as Json;
  timeZone = String((store.store as Json).timezone);
  from = String(store.history_available_from);
  truth = ((await stack.truth('orders')) as { data: Json[] }).data;
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

const summary = (args: unknown[]) => stack.runtime.run('PROFIT_SUMMARY', args, { authMode: 'CUSTOM_FUNCTION' });

describe('a month wholly before the plan window [spec 8.3]', () => {
  it('is an empty cell with a note saying so, never 0, for one metric', async () => {
    const month = addDays(from, -40).slice(0, 7);
    const end = lastDayOfMonth(month);
    expect(end < from, `${month} ends before the window's first day ${from}`).toBe(true);
    for (const metric of ['net_profit', 'net_revenue', 'orders_with_incomplete_costs']) {
      const result = await summary([`${month}-01`, end, metric]);
      expect(result.ok, result.error?.message).toBe(true);
      const [[value, note]] = result.value as unknown[][];
      expect(value, metric).toBe('');
      expect(String(note), metric).toContain(`before your plan's history, which starts ${from}`);
    }
  });

  it('is an error saying so for the table', async () => {
    const month = addDays(from, -40).slice(0, 7);
    const result = await summary([`${month}-01`, lastDayOfMonth(month)]);
    expect(result.ok).toBe(false);
    expect(result.error?.message).toContain(`before your plan's history, which starts ${from}`);
  });
});

describe('a period the plan window cuts [spec 8.3]', () => {
  it('gives the incomplete-cost counts over the days the totals cover, not the days asked', async () => {
    const start = addDays(from, -30);
    const end = addDays(from, 20);
    const covered = truth.filter((o) => incomplete(o) && placedIn(from, end)(o));
    const cut = truth.filter((o) => incomplete(o) && placedIn(start, addDays(from, -1))(o));
    expect(cut.length, 'the cut-off days hold orders with incomplete costs (else this proves nothing)').toBeGreaterThan(
      0,
    );
    const result = await summary([start, end]);
    expect(result.ok, result.error?.message).toBe(true);
    const values = new Map((result.value as Array<[string, unknown]>).map(([k, v]) => [k, v]));
    expect(values.get('period_start')).toBe(from);
    const days = ((await stack.control(`truth/daily?start_date=${from}&end_date=${end}`)) as { data: Json[] }).data;
    expect(cents(values.get('net_revenue'))).toBe(days.reduce((sum, d) => sum + cents(d.net_revenue), 0));
    expect(values.get('orders_with_incomplete_costs')).toBe(covered.length);
    expect(cents(values.get('net_revenue_with_incomplete_costs'))).toBe(
      covered.reduce((sum, o) => sum + cents(economics(o).net_revenue), 0),
    );
    const one = await summary([start, end, 'orders_with_incomplete_costs']);
    expect(one.ok, one.error?.message).toBe(true);
    const [[count, note]] = one.value as unknown[][];
    expect(count).toBe(covered.length);
    expect(String(note)).toContain(`covers ${from} to ${end} only`);
  });
});
