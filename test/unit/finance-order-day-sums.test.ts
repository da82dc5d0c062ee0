/**
 * The Orders day sums kept row by row (order-day-sums.ts) against the read of the whole sheet they
 * replace hourly: after rows are overwritten (taken out, the new ones added) the sums must be what
 * sumOrdersByDay and costGapsOf give for the rows the sheet then holds, in every case those treat
 * apart (cancelled, another currency, an unreadable amount, inconsistent margins, incomplete cost).
 */
import { describe, expect, it } from 'vitest';
import { costGapsOf, gapRowsOfTable } from '../../src/server/finance/cost-gaps';
import { dayKey } from '../../src/server/finance/daily-figures';
import { costGapMonthsOf, costGapsOfMonths } from '../../src/server/finance/cost-gap-days';
import { OrderDaySums } from '../../src/server/finance/order-day-sums';
import { sumOrdersByDay } from '../../src/server/finance/order-days';
import { ORDERS, columnIndex } from '../../src/server/sheets/schema';
import { dateToSerial } from '../../src/server/platform/calendar';

type Order = {
  id: string;
  status?: string;
  day: string;
  currency?: string;
  gross?: number | string;
  cogs?: number;
  source?: string;
  pct?: number;
};

/** A row as the sheet gives it back: the placed date as a serial number. */
const asRead = (r: unknown[]): unknown[] =>
  r.map((cell, i) => (i === columnIndex(ORDERS, 'placed_date') ? dateToSerial(String(cell)) : cell));

function row(o: Order): unknown[] {
  const cells: unknown[] = ORDERS.columns.map(() => '');
  const set = (h: string, v: unknown): void => void (cells[columnIndex(ORDERS, h)] = v);
  set('id', o.id);
  set('status', o.status ?? 'active');
  set('placed_date', o.day);
  set('currency', o.currency ?? 'USD');
  set('gross_revenue', o.gross ?? 10);
  set('net_revenue', o.gross ?? 10);
  for (const h of [
    'refunds',
    'payment_fee',
    'fulfillment_cost',
    'ad_spend_allocated',
    'tax',
    'allocated_overhead',
    'shipping_revenue',
    'discount',
  ])
    set(h, 0);
  set('cogs', o.cogs ?? 1);
  set('contribution_profit', 9);
  set('net_profit', 9);
  // Percent cells hold Sheets' fraction (percent.ts): 0.9 is 90 %.
  set('contribution_margin_pct', (o.pct ?? 90) / 100);
  set('net_margin_pct', 0.9);
  set('cogs_source', o.source ?? 'variant_cost');
  set('cogs_coverage_pct', o.source === 'partial' ? 0.5 : 1);
  return cells;
}

describe('Orders day sums kept row by row', () => {
  it('after rows are overwritten, equal the sums and cost gaps of the rows the sheet holds', () => {
    const before = [
      row({ id: 'a', day: '2026-01-01', gross: 10.01 }),
      row({ id: 'b', day: '2026-01-01', gross: 'n/a' }),
      row({ id: 'c', day: '2026-01-02', currency: 'EUR' }),
      row({ id: 'd', day: '2026-01-02', pct: 12, source: 'partial' }),
      row({ id: 'e', day: '2026-01-03', status: 'cancelled' }),
    ];
    const after = [
      row({ id: 'a', day: '2026-01-01', gross: 11.37, cogs: 4.2 }),
      row({ id: 'b', day: '2026-01-01', gross: 7 }),
      row({ id: 'c', day: '2026-01-02', currency: 'EUR', status: 'cancelled' }),
      row({ id: 'd', day: '2026-01-02' }),
      row({ id: 'e', day: '2026-01-04', source: 'partial' }),
    ];
    const sums = OrderDaySums.ofRows(before, 'USD');
    before.forEach((old, i) => {
      sums.add(old, -1);
      sums.add(after[i], 1);
    });
    expect(Object.fromEntries(sums.orderDays())).toEqual(Object.fromEntries(sumOrdersByDay(after, dayKey, 'USD')));
    expect(sums.costGaps()).toEqual(costGapsOf(gapRowsOfTable(after), 'USD'));
    // What the formulas read (kept per month in properties) is what counting the sheet's rows gives.
    const asReadRows = after.map(asRead);
    expect(sums.costGapMonths().size).toBeGreaterThan(0);
    for (const [from, to] of [
      ['2026-01-01', '2026-12-31'],
      ['2026-01-01', '2026-01-01'],
      ['2026-01-02', '2026-02-28'],
    ]) {
      expect(costGapsOfMonths(sums.costGapMonths(), 'USD', from, to)).toEqual(
        costGapsOfMonths(costGapMonthsOf(gapRowsOfTable(asReadRows)), 'USD', from, to),
      );
    }
    expect(sums.firstDay()).toBe('2026-01-01');
  });

  it('a row taken out leaves no day behind; an unreadable amount taken out makes its day readable again', () => {
    const kept = row({ id: 'a', day: '2026-02-01', gross: 5 });
    const unreadable = row({ id: 'b', day: '2026-02-01', gross: '' });
    const sums = OrderDaySums.ofRows([kept, unreadable, row({ id: 'c', day: '2026-01-31' })], 'USD');
    expect(sums.orderDays().get('2026-02-01')!.cents.gross_revenue).toBeNull();
    sums.add(unreadable, -1);
    sums.add(row({ id: 'c', day: '2026-01-31' }), -1);
    expect(Object.fromEntries(sums.orderDays())).toEqual(Object.fromEntries(sumOrdersByDay([kept], dayKey, 'USD')));
    expect(sums.firstDay()).toBe('2026-02-01');
  });

  it("an order with incomplete costs whose net revenue cannot be read makes its currency's sum unknown (never 0), and known again once it is overwritten", () => {
    const readable = row({ id: 'a', day: '2026-03-01', gross: 5, source: 'partial' });
    const unreadable = row({ id: 'b', day: '2026-03-02', gross: '', source: 'partial' });
    const sums = OrderDaySums.ofRows([readable, unreadable], 'USD');
    expect(sums.costGaps()).toEqual(costGapsOf(gapRowsOfTable([readable, unreadable].map(asRead)), 'USD'));
    expect(sums.costGaps().netRevenue).toBeNull();
    expect(costGapsOfMonths(sums.costGapMonths(), 'USD', '2026-03-02', '2026-03-02').netRevenue).toBeNull();
    expect(costGapsOfMonths(sums.costGapMonths(), 'USD', '2026-03-01', '2026-03-01').netRevenue).toBe(5);
    sums.add(unreadable, -1);
    sums.add(row({ id: 'b', day: '2026-03-02', gross: 7, source: 'partial' }), 1);
    expect(sums.costGaps().netRevenue).toBe(12);
  });
});
