/**
 * Essentials keeps every column needed to read and re-add the figures it keeps (spec 2.3): tax
 * with tax_included_in_price (whether tax is inside gross_revenue), net_profit with
 * contribution_profit and allocated_overhead (net_profit = contribution_profit - allocated_overhead),
 * and the Columns card's size estimate counts those columns.
 */
import { describe, expect, it } from 'vitest';
import { chosenHeaders } from '../../src/server/sheets/column-choice';
import { LINE_ITEMS, ORDERS } from '../../src/server/sheets/schema';
import { columnsView } from '../../src/server/sidebar/columns-view';

const essentials = chosenHeaders(ORDERS, { preset: 'essentials' });
const all = chosenHeaders(ORDERS, { preset: 'all' });

/** A kept figure and the columns a reader needs beside it to read it or re-add it. */
const READ_WITH: Record<string, readonly string[]> = {
  tax: ['tax_included_in_price'],
  net_profit: ['contribution_profit', 'allocated_overhead'],
  contribution_profit: ['net_revenue', 'cogs', 'fulfillment_cost', 'payment_fee', 'ad_spend_allocated'],
  net_revenue: ['gross_revenue', 'refunds'],
  contribution_margin_pct: ['contribution_profit', 'net_revenue'],
  net_margin_pct: ['net_profit', 'net_revenue'],
};

describe('Essentials: the kept figures read and add up on the row', () => {
  it('keeps tax_included_in_price beside tax and allocated_overhead between contribution_profit and net_profit', () => {
    expect(essentials).toEqual(expect.arrayContaining(['tax', 'contribution_profit', 'net_profit']));
    const missing = Object.entries(READ_WITH)
      .filter(([figure]) => essentials.includes(figure))
      .flatMap(([figure, needs]) => needs.filter((n) => !essentials.includes(n)).map((n) => `${figure} needs ${n}`));
    expect(missing).toEqual([]);
  });

  it("the Columns card's estimate counts them, and Essentials still fits twice the orders of All", () => {
    const rowCounts = { orders: 1000, lineItems: 2000 };
    const fit = columnsView({ choice: {}, layouts: {}, fill: null }, rowCounts).fit!;
    const lines = chosenHeaders(LINE_ITEMS, { preset: 'essentials' }).length;
    expect(fit.essentials).toBe(Math.floor(10_000_000 / (essentials.length + 2 * lines)));
    expect(essentials).toContain('tax_included_in_price');
    expect(essentials).toContain('allocated_overhead');
    expect(fit.essentials).toBeGreaterThanOrEqual(2 * fit.all);
    expect(all.length).toBe(ORDERS.columns.length);
  });
});
