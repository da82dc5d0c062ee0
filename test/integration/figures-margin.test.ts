/**
 * Spec 2.3 rules 4, 5: one margin rule and one rounding everywhere. A day of
 * losses on negative net revenue (the truth's net_revenue −120.00) has a net margin of 0, not a
 * positive percentage, in PROFIT_DAILY and PROFIT_SUMMARY(…, "Net margin %") — the dashboard's
 * KPI formula; a day with no revenue is 0 as in the Monthly P&L; and every day's and month's
 * margin in the functions and the Monthly P&L sheet is the spec's rule on the truth's cents
 * (the emulator's own marginPct, which makes every order's net_margin_pct).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marginPct } from '../../dev/emulator/money';
import type { ExecutionResult } from '../../dev/gas-runtime/index';
import { startStack, type Stack } from '../../dev/harness/index';
import { sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
type TruthDay = Record<string, number> & { date: string };
let stack: Stack;
let timeZone = '';
let first = '';
let today = '';
let lossDay = '';
let lossMonth = '';

const cents = (amount: unknown): number => Math.round(Number(amount) * 100);
const localDay = (iso: string): string => new Date(iso).toLocaleDateString('en-CA', { timeZone });
const truthDaily = async (start: string, end: string): Promise<TruthDay[]> =>
  ((await stack.control(`truth/daily?start_date=${start}&end_date=${end}`)) as { data: TruthDay[] }).data;
/** The spec's margin on the truth's figures (in cents). */
/** Points as Sheets' percent cell holds them: the fraction, to Sheets' 15 significant digits. */
const fraction = (points: number): number => Number((points / 100).toPrecision(15));
/** The spec's margin on the truth's figures (in cents), as a percent cell holds it. */
const specMargin = (part: unknown, revenue: unknown): number => fraction(marginPct(cents(part), cents(revenue)));

function lastDayOfMonth(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

function valueOf(result: ExecutionResult): unknown[][] {
  expect(result.ok, result.error?.message).toBe(true);
  return result.value as unknown[][];
}
const formula = (name: string, args: unknown[]): Promise<ExecutionResult> =>
  stack.runtime.run(name, args, { authMode: 'CUSTOM_FUNCTION' });

beforeAll(async () => {
  stack = await startStack({ orders: 200, seed: 72, plan: 'plus' });
  await stack.connect();
  const store = (await stack.truth('store')) as Json;
  timeZone = String((store.store as Json).timezone);
  first = String(store.first_order_date);
  today = String(store.today);
  // A past day with revenue turns into a loss on net revenue −120.00: one of its orders is refunded
  // 120.00 more than the whole day's net revenue.
  const orders = ((await stack.truth('orders')) as { data: Json[] }).data.filter(
    (o) => !o.canceled_at && (o.line_items as Json[]).length > 0,
  );
  const order = orders.find((o) => localDay(String(o.created_at)) < today && localDay(String(o.created_at)) > first)!;
  lossDay = localDay(String(order.created_at));
  const [day] = await truthDaily(lossDay, lossDay);
  const line = (order.line_items as Json[])[0];
  const refund = (cents(line.refund_amount) + cents(day.net_revenue) + 12_000) / 100;
  await stack.control(`orders/${String(order.id)}/patch`, { line_items: [{ id: line.id, refund_amount: refund }] });
  // A whole past month of another order turns into a loss on negative net revenue (−50.00) the same way.
  const other = orders.find(
    (o) => ![lossDay.slice(0, 7), today.slice(0, 7)].includes(localDay(String(o.created_at)).slice(0, 7)),
  )!;
  lossMonth = localDay(String(other.created_at)).slice(0, 7);
  const monthDays = await truthDaily(`${lossMonth}-01`, lastDayOfMonth(lossMonth));
  const otherLine = (other.line_items as Json[])[0];
  const monthRefund =
    (cents(otherLine.refund_amount) + monthDays.reduce((sum, d) => sum + cents(d.net_revenue), 0) + 5_000) / 100;
  await stack.control(`orders/${String(other.id)}/patch`, {
    line_items: [{ id: otherLine.id, refund_amount: monthRefund }],
  });
  await syncUntilCaughtUp(stack);
  // The sync moved the clocks: the days it reached end at the truth's today now.
  today = String(((await stack.truth('store')) as Json).today);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('a loss on negative net revenue [spec 2.3 rule 5]', () => {
  it('has a net margin of 0 in PROFIT_DAILY and in PROFIT_SUMMARY(…, "Net margin %"), never a positive margin', async () => {
    const [day] = await truthDaily(lossDay, lossDay);
    expect(cents(day.net_revenue), "the truth's day is a loss on net revenue −120.00").toBe(-12_000);
    expect(cents(day.net_profit)).toBeLessThan(0);
    const daily = valueOf(
      await formula('PROFIT_DAILY', [lossDay, lossDay, 'net_revenue, net_profit, net_margin_pct, cm3_margin_pct']),
    );
    expect(daily[0]).toEqual(['date', 'net_revenue', 'net_profit', 'net_margin_pct', 'cm3_margin_pct']);
    expect(daily[1].slice(3)).toEqual([0, 0]);
    expect(valueOf(await formula('PROFIT_SUMMARY', [lossDay, lossDay, 'Net margin %']))).toEqual([[0]]);
  });
});

describe('one margin rule and one rounding in every function and sheet', () => {
  it("every day of PROFIT_DAILY is the spec's margin on the truth (0 on a day without revenue, not empty)", async () => {
    const truth = await truthDaily(first, today);
    expect(
      truth.some((d) => cents(d.net_revenue) === 0),
      'the truth has a day without revenue',
    ).toBe(true);
    expect(
      truth.some((d) => cents(d.net_profit) < 0 && cents(d.net_revenue) > 0),
      'the truth has a negative margin',
    ).toBe(true);
    const table = valueOf(await formula('PROFIT_DAILY', [first, today, 'net_margin_pct, cm3_margin_pct']));
    expect(table).toHaveLength(truth.length + 1);
    truth.forEach((d, i) => {
      expect(table[i + 1].slice(1), d.date).toEqual([
        specMargin(d.net_profit, d.net_revenue),
        specMargin(d.contribution_margin_cm3, d.net_revenue),
      ]);
    });
  });

  it("every month, a month of losses too: the Monthly P&L sheet, PROFIT_MONTHLY and PROFIT_SUMMARY over the month agree with the spec's margin on the truth", async () => {
    const truth = await truthDaily(first, today);
    const months = new Map<string, { revenue: number; profit: number; first: string; last: string }>();
    for (const d of truth) {
      const m = months.get(d.date.slice(0, 7)) ?? { revenue: 0, profit: 0, first: d.date, last: d.date };
      m.revenue += cents(d.net_revenue);
      m.profit += cents(d.net_profit);
      m.last = d.date;
      months.set(d.date.slice(0, 7), m);
    }
    const expected = new Map([...months].map(([key, m]) => [key, fraction(marginPct(m.profit, m.revenue))]));
    const [header, ...rows] = sheetTable(stack, 'Monthly P&L');
    const sheet = new Map(rows.map((r) => [String(r[header.indexOf('month')]), r[header.indexOf('net_margin_pct')]]));
    expect(Object.fromEntries(sheet)).toEqual(Object.fromEntries(expected));
    const monthly = valueOf(await formula('PROFIT_MONTHLY', [first, today, 'net_margin_pct']));
    const marginColumn = (monthly[0] as unknown[]).indexOf('net_margin_pct');
    expect(marginColumn).toBeGreaterThan(0);
    expect(monthly.slice(1).map((r) => r[marginColumn])).toEqual([...expected.values()]);
    expect(months.get(lossMonth)!.revenue, 'a month of losses on negative net revenue').toBe(-5_000);
    expect(expected.get(lossMonth)).toBe(0);
    for (const month of [lossMonth, lossDay.slice(0, 7)]) {
      const m = months.get(month)!;
      expect(valueOf(await formula('PROFIT_SUMMARY', [m.first, m.last, 'net_margin_pct'])), month).toEqual([
        [expected.get(month)],
      ]);
    }
  });
});
