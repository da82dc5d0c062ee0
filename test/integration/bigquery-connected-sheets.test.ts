/**
 * Connected Sheets after a sync into BigQuery: the add-on adds, once, a data source sheet over the
 * orders table and a data source pivot of net revenue and net profit by month; the pivot's monthly
 * net profit and net revenue equal GET /api/v1/profitability/summary month by month (the service's
 * own figures, not the add-on's); a run that changed orders refreshes them, one that changed none
 * does not, and no run adds them again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { drawFinishedExecutions } from '../../dev/gas-runtime/spreadsheet/data-source';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { DATASET, PROJECT } from './bigquery-support';
import { scheduledRun, sheetTable, storeDay, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;

const DESTINATION = { kind: 'bigquery', projectId: PROJECT, datasetId: DATASET };
const ORDERS_SHEET = 'Orders (BigQuery)';
const PIVOT_SHEET = 'Net profit by month (BigQuery)';
/** Longer than any modelled data execution (a BigQuery query's second, and the pivot's re-executions). */
const EXECUTIONS_DONE_MS = 60_000;

let stack: Stack;
let storeCurrency = '';

beforeAll(async () => {
  stack = await startStack({ orders: 120, seed: 2502, modelledTimeOnly: true, emulatorClockInStep: true });
  expect((await stack.connect()).outcome).toBe('connected');
  expect((await stack.runtime.run('setOrdersDestination', [DESTINATION])).error?.message).toBeUndefined();
  storeCurrency = String(((await stack.truth('store')) as { store: Json }).store.currency);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

/**
 * The pivot as a person sees it once its executions have run: "currency YYYY-MM" → [net revenue,
 * net profit], each figure as the cell holds it. A currency's label stands on the first row of its
 * block; its "… Total" row closes it; no row totals two currencies (no Grand Total).
 */
async function pivotByCurrencyMonth(): Promise<Map<string, [number, number]>> {
  await stack.advanceClocks(EXECUTIONS_DONE_MS);
  drawFinishedExecutions(stack.runtime.workbook as unknown as Workbook, stack.runtime.clock.now());
  const [header, ...rows] = sheetTable(stack, PIVOT_SHEET);
  expect(header).toEqual([
    'currency',
    'month',
    'SUM of net_revenue',
    'SUM of net_profit',
    'SUM of orders_with_unknown_net_profit',
  ]);
  const figures = new Map<string, [number, number]>();
  let currency = '';
  for (const row of rows) {
    const label = String(row[0]);
    expect(label).not.toBe('Grand Total');
    if (/ Total$/.test(label)) {
      expect(label).toBe(`${currency} Total`);
      continue;
    }
    if (label !== '') currency = label;
    const month = /^\d{4}-\d{2}/.exec(String(row[1]))?.[0] ?? String(row[1]);
    figures.set(`${currency} ${month}`, [Number(row[2]), Number(row[3])]);
  }
  return figures;
}

/** The store-currency months of the pivot: month → [net revenue, net profit]. */
async function pivotByMonth(): Promise<Map<string, [number, number]>> {
  const out = new Map<string, [number, number]>();
  for (const [key, figures] of await pivotByCurrencyMonth()) {
    const [currency, month] = key.split(' ');
    expect(currency).toBe(storeCurrency);
    out.set(month, figures);
  }
  return out;
}

function monthEnd(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/** The service's summary for each month: [net revenue, net profit]. */
async function summaryByMonth(months: string[]): Promise<Map<string, [number, number]>> {
  const { access_token: token } = (await stack.control('tokens', { scope: 'profitability:read' })) as Json;
  const out = new Map<string, [number, number]>();
  for (const month of months) {
    const res = await fetch(
      `${stack.apiUrl}/api/v1/profitability/summary?start_date=${month}-01&end_date=${monthEnd(month)}`,
      { headers: { Authorization: `Bearer ${String(token)}` } },
    );
    expect(res.status).toBe(200);
    const totals = ((await res.json()) as { data: { totals: Record<string, number> } }).data.totals;
    out.set(month, [totals.net_revenue, totals.net_profit]);
  }
  return out;
}

/** Months the store has orders in (store zone), from the truth. */
async function truthMonths(): Promise<string[]> {
  const { timeZone } = await storeDay(stack);
  const orders = ((await stack.truth('orders')) as { data: Json[] }).data;
  const month = (iso: unknown) =>
    new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(String(iso))).slice(0, 7);
  return [...new Set(orders.filter((o) => !o.canceled_at).map((o) => month(o.created_at)))].sort();
}

function cents(figures: Map<string, [number, number]>): Array<[string, number, number]> {
  return [...figures].map(([m, [revenue, profit]]) => [m, Math.round(revenue * 100), Math.round(profit * 100)]);
}

function connectedObjects(): { dataSourceSheets: string[]; pivotSheets: string[] } {
  const json = stack.runtime.exportJson() as unknown as { sheets: Record<string, unknown[][]> };
  const names = Object.keys(json.sheets);
  return {
    dataSourceSheets: names.filter((n) => n === ORDERS_SHEET || n.startsWith('Orders by month (BigQuery')),
    pivotSheets: names.filter((n) => n.startsWith(PIVOT_SHEET)),
  };
}

describe('Connected Sheets over the orders table', () => {
  it('after the first sync: a data source sheet over the orders table and the pivot, whose months equal /profitability/summary', async () => {
    await syncUntilCaughtUp(stack);
    expect(connectedObjects()).toEqual({
      dataSourceSheets: [ORDERS_SHEET, 'Orders by month (BigQuery query)'],
      pivotSheets: [PIVOT_SHEET],
    });
    // The data source sheet previews the orders table: every order id the truth has (fewer than the 500-row preview).
    const orders = sheetTable(stack, ORDERS_SHEET);
    const id = (orders[0] as unknown[]).indexOf('id');
    const truthIds = ((await stack.truth('orders')) as { data: Json[] }).data.map((o) => String(o.id)).sort();
    expect(
      orders
        .slice(1)
        .map((r) => String((r as unknown[])[id]))
        .sort(),
    ).toEqual(truthIds);

    const pivot = await pivotByMonth();
    const months = [...pivot.keys()];
    expect(months.length).toBeGreaterThan(1);
    expect(months).toEqual(await truthMonths());
    // Exact: the cell's figure is the service's, not only to the cent.
    expect([...pivot]).toEqual([...(await summaryByMonth(months))]);
  }, 180_000);

  it('a run that changed no order neither adds nor refreshes them', async () => {
    await stack.advanceClocks(3_600_000);
    const r = await scheduledRun(stack);
    expect(r.error?.message).toBeUndefined();
    expect(r.counts.byMethod['Spreadsheet.refreshAllDataSources'] ?? 0).toBe(0);
    expect(r.counts.byMethod['Spreadsheet.insertDataSourceSheet'] ?? 0).toBe(0);
    expect(connectedObjects().pivotSheets).toEqual([PIVOT_SHEET]);
  });

  it('a run that changed orders refreshes them: the pivot still equals the summary month by month, nothing added twice', async () => {
    const orders = ((await stack.truth('orders')) as { data: Json[] }).data;
    for (const [i, kind] of ['refund', 'cost_correction', 'cancel', 'partial_refund'].entries())
      await stack.control(`orders/${String(orders[(7 + i * 29) % orders.length].id)}/change`, { kind });
    await stack.control('orders', { count: 6 });
    await stack.advanceClocks(3_600_000);
    const before = cents(await pivotByMonth());
    const r = await scheduledRun(stack);
    expect(r.error?.message).toBeUndefined();
    expect((r.value as { outcome: string }).outcome).not.toBe('error');
    expect(r.counts.byMethod['Spreadsheet.refreshAllDataSources']).toBe(1);
    expect(r.counts.byMethod['Spreadsheet.insertDataSourceSheet'] ?? 0).toBe(0);
    const after = await pivotByMonth();
    expect([...after]).toEqual([...(await summaryByMonth([...after.keys()]))]);
    expect(cents(after)).not.toEqual(before);
    expect(connectedObjects()).toEqual({
      dataSourceSheets: [ORDERS_SHEET, 'Orders by month (BigQuery query)'],
      pivotSheets: [PIVOT_SHEET],
    });
  }, 120_000);

  it('an order in another currency has its own row: no cell adds two currencies, and each month the pivot equals the summary', async () => {
    const { timeZone } = await storeDay(stack);
    const orders = ((await stack.truth('orders')) as { data: Json[] }).data.filter((o) => !o.canceled_at);
    const order = orders[Math.floor(orders.length / 2)];
    await stack.control(`orders/${String(order.id)}/patch`, { currency: 'EUR' });
    await stack.advanceClocks(3_600_000);
    const r = await scheduledRun(stack);
    expect(r.error?.message).toBeUndefined();
    const month = new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(String(order.created_at))).slice(0, 7);
    const pivot = await pivotByCurrencyMonth();
    const economics = order.economics as { net_revenue: number; net_profit: number };
    // The EUR order alone in its row, its own figures.
    expect(pivot.get(`EUR ${month}`)).toEqual([economics.net_revenue, economics.net_profit]);
    expect([...pivot.keys()].filter((k) => k.startsWith('EUR '))).toEqual([`EUR ${month}`]);
    const months = [...new Set([...pivot.keys()].map((k) => k.split(' ')[1]))].sort();
    const summary = await summaryByMonth(months);
    for (const m of months) {
      const own = pivot.get(`${storeCurrency} ${m}`)!;
      if (m !== month) expect([m, ...own]).toEqual([m, ...summary.get(m)!]);
      else {
        // The service's summary adds the EUR order's amounts to the month's (its figures are not per currency):
        // the store-currency row is the month without it, to the cent.
        const [revenue, profit] = summary.get(m)!;
        expect([m, Math.round(own[0] * 100), Math.round(own[1] * 100)]).toEqual([
          m,
          Math.round((revenue - economics.net_revenue) * 100),
          Math.round((profit - economics.net_profit) * 100),
        ]);
      }
    }
  }, 120_000);
});
