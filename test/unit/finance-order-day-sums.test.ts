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
import { decodeDaySums, encodeDaySums } from '../../src/server/finance/order-sums-text';
import { compare } from '../../src/server/finance/tieout-rows';
import { FIGURES, asFigures, emptyCents } from '../../src/server/finance/tieout-figures';
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

  it('a half month of 10,005 orders with disagreeing margins keeps three a day listed and the rest counted, exact as rows are taken out; the values stay small', () => {
    const rows = Array.from({ length: 10_005 }, (_, i) =>
      row({
        id: `ord_${String(i).padStart(8, '0')}`,
        day: `2026-11-${String(1 + (i % 15)).padStart(2, '0')}`,
        pct: 50,
      }),
    );
    const sums = OrderDaySums.ofRows(rows, 'USD');
    const whole = sumOrdersByDay(rows, dayKey, 'USD');
    for (const [day, od] of sums.orderDays()) {
      expect(od.inconsistent.length, day).toBe(3);
      expect(od.inconsistent.length + (od.unlisted ?? 0), day).toBe(whole.get(day)!.inconsistent.length);
    }
    const values = [...encodeDaySums(sums.days).values()].flat();
    const bytes = values.reduce((n, v) => n + Buffer.byteLength(v), 0);
    // Listed whole, these took 570 KB (past the document store's 500 KB); a line a day with three ids now.
    expect(bytes).toBeLessThan(4_000);
    const back = new Map();
    for (const [group, pieces] of encodeDaySums(sums.days)) decodeDaySums(group, pieces, back);
    expect(back).toEqual(sums.days);

    // Half the orders corrected (consistent now), listed ones among them: the count is never below the
    // sheet's (a count too high sends the tie-out to a whole read), and a whole read counts exactly.
    const after = rows.map((r, i) =>
      i % 2 === 0
        ? row({ id: `ord_${String(i).padStart(8, '0')}`, day: `2026-11-${String(1 + (i % 15)).padStart(2, '0')}` })
        : r,
    );
    rows.forEach((old, i) => {
      if (old === after[i]) return;
      sums.add(old, -1);
      sums.add(after[i], 1);
    });
    const wholeAfter = sumOrdersByDay(after, dayKey, 'USD');
    for (const [day, od] of sums.orderDays())
      expect(od.inconsistent.length + (od.unlisted ?? 0), day).toBeGreaterThanOrEqual(
        wholeAfter.get(day)!.inconsistent.length,
      );
    for (const [day, od] of OrderDaySums.ofRows(after, 'USD').orderDays())
      expect(od.inconsistent.length + (od.unlisted ?? 0), day).toBe(wholeAfter.get(day)!.inconsistent.length);
  });

  it('a row edited by hand after the sums were counted, then overwritten, never lowers another order out of the count (no false ✓)', () => {
    const day = '2026-11-03';
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((id) => row({ id, day, pct: 50 }));
    const x = row({ id: 'x', day });
    const sums = OrderDaySums.ofRows([a, b, c, d, x], 'USD');
    const edited = row({ id: 'x', day, pct: 50 }); // x's margin typed over by hand: never counted
    const replace = (old: unknown[], now: unknown[]): void => {
      sums.add(old, -1);
      sums.add(now, 1);
    };
    replace(edited, x); // the run overwrites x with the service's figures
    for (const [old, id] of [
      [a, 'a'],
      [b, 'b'],
      [c, 'c'],
    ] as const)
      replace(old, row({ id, day })); // the three listed orders corrected
    const od = sums.orderDays().get(day)!;
    // d still disagrees in the sheet: the kept sums must still count it.
    expect(od.inconsistent.length + (od.unlisted ?? 0)).toBeGreaterThanOrEqual(1);
  });

  it('the Checks note lists three such orders and says how many more, whichever way the Orders side was read; the day does not tie out', () => {
    const figures = asFigures(emptyCents());
    const note = (listed: string[], unlisted: number) =>
      compare('2026-11-01', 'day', 5, figures, figures, 0, '', [], '', new Set(FIGURES), { listed, unlisted });
    const whole = note(['a (x)', 'b (x)', 'c (x)', 'd (x)', 'e (x)'], 0);
    const kept = note(['a (x)', 'b (x)', 'c (x)'], 2);
    expect(whole.note).toBe(
      "Margin percentages that disagree with their own order's figures: a (x), b (x), c (x) and 2 more.",
    );
    expect(kept.note).toBe(whole.note);
    expect([whole.ok, kept.ok]).toEqual([false, false]);
  });
});
