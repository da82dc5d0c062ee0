/**
 * Monthly P&L: after a sync, every row of the Monthly P&L sheet equals the emulator's
 * profitability summary endpoint (GET /api/v1/profitability/summary, over HTTP) for that month to
 * the cent, field by field; margins equal the ones computed here from the summary's own totals;
 * the month in progress is marked partial; every row says its currency and basis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
let stack: Stack;
let token = '';

const TOTALS = [
  'gross_revenue',
  'refunds',
  'net_revenue',
  'cogs',
  'ad_spend',
  'payment_fees',
  'fulfillment_cost',
  'product_margin_cm1',
  'gross_profit_cm2',
  'contribution_margin_cm3',
  'ebitda',
  'net_profit',
  'shipping_revenue',
  'discounts',
  'tax',
  'shipping_cost',
  'variable_costs',
  'opex',
  'amortised_expenses',
  'interest_expense',
];

async function summary(start: string, end: string): Promise<Json> {
  const res = await fetch(`${stack.apiUrl}/api/v1/profitability/summary?start_date=${start}&end_date=${end}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Json }).data;
}

function lastDay(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
}

/** A margin as Sheets' percent cell holds it: the fraction, to the hundredth of a point (0.5508 is 55.08 %). */
const pct = (x: number, revenue: number): number => (revenue <= 0 ? 0 : Math.round((x / revenue) * 100 * 100) / 10_000);

beforeAll(async () => {
  stack = await startStack({ orders: 900, seed: 23 });
  await stack.connect();
  token = String(((await stack.control('tokens', { scope: 'profitability:read' })) as Json).access_token);
  await syncUntilCaughtUp(stack);
});

afterAll(async () => {
  await stack?.close();
});

describe('Monthly P&L', () => {
  it('equals the summary endpoint month by month, to the cent', async () => {
    const store = (await stack.truth('store')) as Json;
    const today = String(store.today);
    const [header, ...rows] = sheetTable(stack, 'Monthly P&L');
    expect(header).toEqual(
      expect.arrayContaining([
        'month',
        'status',
        'first_day',
        'last_day',
        ...TOTALS,
        'net_margin_pct',
        'currency',
        'basis',
      ]),
    );
    const col = (name: string): number => header.indexOf(name);
    const months = rows.map((r) => String(r[col('month')])).filter((m) => /^\d{4}-\d{2}$/.test(m));
    expect(months.length).toBeGreaterThanOrEqual(6);
    expect(months).toEqual([...months].sort());
    const daily = sheetTable(stack, 'Daily P&L')
      .slice(1)
      .map((r) => String(r[0]));
    for (const row of rows) {
      const month = String(row[col('month')]);
      const end = lastDay(month) < today ? lastDay(month) : today;
      const truth = await summary(`${month}-01`, end);
      const period = truth.period as Json;
      const totals = truth.totals as Record<string, number>;
      // The row starts where the Daily P&L does (plan window or the store's first data), never before the API's period.
      const monthDays = daily.filter((d) => d.startsWith(month)).sort();
      expect(String(row[col('first_day')]) >= String(period.start), month).toBe(true);
      expect(row[col('first_day')], month).toBe(monthDays[0]);
      expect(row[col('last_day')], month).toBe(end);
      for (const field of TOTALS)
        expect(Math.round(Number(row[col(field)]) * 100), `${month} ${field}`).toBe(Math.round(totals[field]! * 100));
      expect(row[col('net_margin_pct')], month).toBeCloseTo(pct(totals.net_profit!, totals.net_revenue!), 9);
      expect(row[col('contribution_margin_pct')], month).toBeCloseTo(
        pct(totals.contribution_margin_cm3!, totals.net_revenue!),
        9,
      );
      expect(row[col('currency')]).toBe(truth.currency);
      const basis = truth.basis as Json;
      expect(String(row[col('basis')])).toBe(
        `tax_treated_as_cost=${String(basis.tax_treated_as_cost)}; refund_recognition=${String(basis.refund_recognition)}; ad_spend=${String(basis.ad_spend)}`,
      );
      expect(row[col('days')], month).toBe(monthDays.length);
      const whole = monthDays[0] === `${month}-01` && end === lastDay(month);
      if (month === today.slice(0, 7)) expect(row[col('status')]).toBe('partial: month in progress');
      else expect(row[col('status')], month).toBe(whole ? 'complete' : `partial: ${monthDays[0]} to ${end} only`);
    }
    expect(months[months.length - 1]).toBe(today.slice(0, 7));
  });

  it('follows the Daily P&L at the next sync (a refund in the month in progress)', async () => {
    const store = (await stack.truth('store')) as Json;
    const today = String(store.today);
    const orders = ((await stack.truth('orders')) as { data: Json[] }).data;
    const recent = orders.filter(
      (o) =>
        !o.canceled_at && !o.refunded_at && new Date(String(o.created_at)).toISOString() >= `${today.slice(0, 7)}-01`,
    );
    const target = recent[recent.length - 1] ?? orders[orders.length - 1];
    await stack.control(`orders/${String(target.id)}/change`, { kind: 'refund' });
    await syncUntilCaughtUp(stack);
    const [header, ...rows] = sheetTable(stack, 'Monthly P&L');
    const row = rows.find((r) => r[0] === today.slice(0, 7))!;
    const truth = await summary(`${today.slice(0, 7)}-01`, today);
    expect(Math.round(Number(row[header.indexOf('refunds')]) * 100)).toBe(
      Math.round(((truth.totals as Json).refunds as number) * 100),
    );
    expect(Math.round(Number(row[header.indexOf('net_profit')]) * 100)).toBe(
      Math.round(((truth.totals as Json).net_profit as number) * 100),
    );
  });
});
