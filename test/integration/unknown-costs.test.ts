/**
 * Unknown is visible: an order whose cost is unknown (cogs_source "unknown") or known only in part
 * (cogs_coverage_pct below 100) is marked in the Orders sheet's cost_status and highlighted by a
 * conditional format on its cost and profit cells, its figures unchanged; the sidebar and
 * PROFIT_SUMMARY say how many such orders there are and how much net revenue they carry. Every
 * expectation is built from the emulator's truth on its own terms, not through the add-on's code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { sheetTable } from './sync-support';
import { toEarlierOrdersLayout } from './orders-earlier-layout';

type Json = Record<string, unknown>;
let stack: Stack;
let truth: Json[];
let products: Json[];
let today: string;

const economics = (o: Json) =>
  o.economics as {
    cogs_source: string;
    cogs_coverage_pct: number;
    net_revenue: number;
    cogs: number;
    net_profit: number;
  };
/** The truth's own reading: no cost known, part of it, or all of it. */
const expectedStatus = (o: Json) =>
  economics(o).cogs_source === 'unknown' ? 'unknown' : economics(o).cogs_coverage_pct < 100 ? 'incomplete' : 'complete';
const active = (o: Json) => o.canceled_at === null || o.canceled_at === undefined;

function columnLetter(n: number): string {
  let s = '';
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s;
  return s;
}

beforeAll(async () => {
  stack = await startStack({ orders: 400, seed: 4, plan: 'plus', modelledTimeOnly: true });
  await stack.connect();
  const run = await stack.runtime.run('onScheduledSync', []);
  expect(run.ok, run.error?.message).toBe(true);
  truth = ((await stack.truth('orders')) as { data: Json[] }).data;
  products = ((await stack.truth('products')) as { data: Json[] }).data;
  today = ((await stack.truth('store')) as { today: string }).today;
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('orders with incomplete costs are visible', () => {
  it('the truth holds all three kinds (else this test proves nothing)', () => {
    const kinds = new Set(truth.map(expectedStatus));
    expect([...kinds].sort()).toEqual(['complete', 'incomplete', 'unknown']);
  });

  it('Orders carries cost_status for every order, as the truth reads, with cogs and profit as the API gave them', () => {
    const [header, ...rows] = sheetTable(stack, 'Orders');
    const col = (name: string) => header.indexOf(name);
    expect(header.filter((h) => h === 'cost_status')).toHaveLength(1);
    const byId = new Map(rows.map((r) => [String(r[col('id')]), r]));
    for (const order of truth) {
      const row = byId.get(String(order.id));
      expect(row, String(order.id)).toBeDefined();
      expect(row![col('cost_status')], String(order.id)).toBe(expectedStatus(order));
      expect(row![col('cogs')]).toBeCloseTo(economics(order).cogs, 6);
      expect(row![col('net_profit')]).toBeCloseTo(economics(order).net_profit, 6);
    }
  });

  it('a conditional format highlights the cost and profit cells of those orders, reading the API columns', () => {
    const [header] = sheetTable(stack, 'Orders');
    const rules = stack.runtime.exportJson().conditionalFormats?.['Orders'] ?? [];
    expect(rules).toHaveLength(1);
    const rule = rules[0]!;
    const source = columnLetter(header.indexOf('cogs_source') + 1);
    const coverage = columnLetter(header.indexOf('cogs_coverage_pct') + 1);
    expect(rule.condition).toEqual({
      type: 'CUSTOM_FORMULA',
      // The coverage cell holds Sheets' fraction: below 1 is below 100 %.
      values: [`=OR($${source}2="unknown",AND(ISNUMBER($${coverage}2),$${coverage}2<1))`],
    });
    expect(rule.format).toHaveProperty('backgroundColor');
    for (const name of ['cogs', 'net_profit', 'cost_status']) {
      const letter = columnLetter(header.indexOf(name) + 1);
      expect(rule.ranges, name).toContain(`${letter}2:${letter}`);
    }
  });

  it('the sidebar says how many active orders and how much net revenue have incomplete costs', async () => {
    const gapOrders = truth.filter((o) => active(o) && expectedStatus(o) !== 'complete');
    const cents = gapOrders.reduce((sum, o) => sum + Math.round(economics(o).net_revenue * 100), 0);
    const state = await stack.runtime.run('getSidebarState', [], { authMode: 'FULL' });
    expect(state.ok, state.error?.message).toBe(true);
    const gaps = (state.value as { costGaps: { orders: number; ordersCounted: number; netRevenue: number } }).costGaps;
    expect(gaps.orders).toBe(gapOrders.length);
    expect(gaps.ordersCounted).toBe(truth.filter(active).length);
    expect(Math.round(gaps.netRevenue * 100)).toBe(cents);
  });

  it("PROFIT_SUMMARY ends with the same count for its period, by placed date in the store's zone", async () => {
    const store = ((await stack.truth('store')) as { store: { timezone: string } }).store;
    const placedDay = (o: Json) =>
      new Date(String(o.created_at)).toLocaleDateString('sv-SE', { timeZone: store.timezone });
    const start = new Date(Date.parse(`${today}T00:00:00Z`) - 120 * 86_400_000).toISOString().slice(0, 10);
    const inPeriod = truth.filter(
      (o) => active(o) && placedDay(o) >= start && placedDay(o) <= today && expectedStatus(o) !== 'complete',
    );
    const result = await stack.runtime.run('PROFIT_SUMMARY', [start, today], { authMode: 'CUSTOM_FUNCTION' });
    expect(result.ok, result.error?.message).toBe(true);
    const values = new Map((result.value as Array<[string, unknown]>).map(([k, v]) => [k, v]));
    expect(values.get('orders_with_incomplete_costs')).toBe(inPeriod.length);
    expect(Math.round(Number(values.get('net_revenue_with_incomplete_costs')) * 100)).toBe(
      inPeriod.reduce((s, o) => s + Math.round(economics(o).net_revenue * 100), 0),
    );
    const metric = await stack.runtime.run('PROFIT_SUMMARY', [start, today, 'orders_with_incomplete_costs'], {
      authMode: 'CUSTOM_FUNCTION',
    });
    expect(metric.value).toEqual([[inPeriod.length]]);
  });

  it('Line items carries cost_status as the catalogue truth reads it (spec 2.7: variant cogs null = unknown), cogs unchanged', () => {
    // Ground truth: the variant's cost, as the emulator holds it (no cost changes applied yet).
    const variantCost = new Map<string, { unit_cost: number; handling_cost: number } | null>();
    for (const p of products)
      for (const v of p.variants as Json[])
        variantCost.set(String(v.id), v.cogs as { unit_cost: number; handling_cost: number } | null);
    // unknown: no cost known; zero: a known cost that came to 0 on this line (a free product, a cancelled or refunded line).
    const kindOf = (line: Json) => {
      const cost = variantCost.get(String(line.variant_id));
      expect(cost, String(line.variant_id)).not.toBeUndefined();
      return cost === null ? 'unknown' : line.cogs === 0 ? 'zero' : 'costed';
    };
    const [header, ...rows] = sheetTable(stack, 'Line items');
    const col = (name: string) => header.indexOf(name);
    expect(header.filter((h) => h === 'cost_status')).toHaveLength(1);
    const byId = new Map(rows.map((r) => [String(r[col('id')]), r]));
    const seen = new Map<string, number>();
    for (const order of truth) {
      const lines = order.line_items as Json[];
      const kinds = lines.map(kindOf);
      for (const [i, line] of lines.entries()) {
        // An unknown line in an order that also holds a zero-cost known one cannot be told from it by the order's figures.
        const expected =
          kinds[i] === 'unknown'
            ? kinds.includes('zero')
              ? 'possibly_unknown'
              : 'unknown'
            : kinds[i] === 'zero' && kinds.includes('unknown')
              ? 'possibly_unknown'
              : 'known';
        const row = byId.get(String(line.id));
        expect(row, String(line.id)).toBeDefined();
        expect(row![col('cost_status')], `${String(order.id)} ${String(line.id)}`).toBe(expected);
        expect(row![col('cogs')]).toBeCloseTo(line.cogs as number, 6);
        seen.set(expected, (seen.get(expected) ?? 0) + 1);
      }
    }
    // The truth holds known and unknown lines, else this proves nothing.
    expect(seen.get('known')).toBeGreaterThan(0);
    expect(seen.get('unknown')).toBeGreaterThan(0);
    expect(seen.get('possibly_unknown')).toBeGreaterThan(0);
  });

  it('a conditional format highlights the cogs and cost_status cells of those line items', () => {
    const [header] = sheetTable(stack, 'Line items');
    const rules = stack.runtime.exportJson().conditionalFormats?.['Line items'] ?? [];
    expect(rules).toHaveLength(1);
    const status = columnLetter(header.indexOf('cost_status') + 1);
    expect(rules[0]!.condition).toEqual({
      type: 'CUSTOM_FORMULA',
      values: [`=OR($${status}2="unknown",$${status}2="possibly_unknown")`],
    });
    expect(rules[0]!.format).toHaveProperty('backgroundColor');
    for (const name of ['cogs', 'cost_status']) {
      const letter = columnLetter(header.indexOf(name) + 1);
      expect(rules[0]!.ranges, name).toContain(`${letter}2:${letter}`);
    }
  });

  it('an Orders sheet set up before cost_status existed gains the column in place, and the sync goes on', async () => {
    const workbook = stack.runtime.workbook as unknown as Workbook;
    const orders = workbook.sheets.find((s) => s.name === 'Orders')!;
    const width = orders.maxColumns;
    // The older layout: the catalog's order (cost_status last, no column tags), then one column fewer, no highlight.
    toEarlierOrdersLayout(stack);
    expect(sheetTable(stack, 'Orders')[0][width - 1]).toBe('cost_status');
    for (const row of orders.rows) if (row) row.v.length = Math.min(row.v.length, width - 1);
    orders.maxColumns = width - 1;
    orders.conditionalFormats = [];
    // An older version kept no layout of the sheet (sheets/sheet-layout.ts).
    stack.runtime.properties.document.set('ma.sync.columns', JSON.stringify({ choice: {}, layouts: {}, fill: null }));
    const order = truth.find((o) => active(o) && expectedStatus(o) === 'unknown')!;
    await stack.control(`orders/${String(order.id)}/change`, { kind: 'attribution' });
    await stack.advanceClocks(3_600_000);
    const run = await stack.runtime.run('onScheduledSync', []);
    expect(run.ok, run.error?.message).toBe(true);
    const [header, ...rows] = sheetTable(stack, 'Orders');
    expect(header[header.length - 1]).toBe('cost_status');
    expect(orders.maxColumns).toBe(width);
    const log = sheetTable(stack, 'Sync log');
    expect(log[log.length - 1][log[0].indexOf('outcome')]).toBe('ok');
    // The changed order is rewritten with its status; the highlight is back for every row.
    const row = rows.find((r) => r[header.indexOf('id')] === order.id)!;
    expect(row[header.indexOf('cost_status')]).toBe('unknown');
    expect(stack.runtime.exportJson().conditionalFormats?.['Orders']).toHaveLength(1);
  }, 120_000);
});
