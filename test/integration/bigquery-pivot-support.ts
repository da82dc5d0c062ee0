/**
 * The Connected Sheets pivot as a person reads it once its executions have run, beside the
 * service's GET /api/v1/profitability/summary month by month (spec 2.8), and the Checks days not ✓.
 */
import { expect } from 'vitest';
import type { Stack } from '../../dev/harness/index';
import { drawFinishedExecutions } from '../../dev/gas-runtime/spreadsheet/data-source';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { sheetTable, storeDay } from './sync-support';

type Json = Record<string, unknown>;
export const PIVOT_SHEET = 'Net profit by month (BigQuery)';
/** Longer than any modelled data execution (a BigQuery query's second, and the pivot's re-executions). */
const EXECUTIONS_DONE_MS = 60_000;

/** "currency YYYY-MM" → [net revenue, net profit] in cents, as the pivot's cells hold them. */
export async function pivotCents(stack: Stack): Promise<Map<string, [number, number]>> {
  await stack.advanceClocks(EXECUTIONS_DONE_MS);
  drawFinishedExecutions(stack.runtime.workbook as unknown as Workbook, stack.runtime.clock.now());
  const [header, ...rows] = sheetTable(stack, PIVOT_SHEET);
  const revenue = header.indexOf('SUM of net_revenue');
  const profit = header.indexOf('SUM of net_profit');
  expect(revenue).toBeGreaterThan(1);
  expect(profit).toBeGreaterThan(1);
  const figures = new Map<string, [number, number]>();
  let currency = '';
  for (const row of rows) {
    const label = String(row[0]);
    if (/ Total$/.test(label)) continue;
    if (label !== '') currency = label;
    const month = /\d{4}-\d{2}/.exec(String(row[1]))?.[0] ?? String(row[1]);
    figures.set(`${currency} ${month}`, [
      Math.round(Number(row[revenue]) * 100),
      Math.round(Number(row[profit]) * 100),
    ]);
  }
  return figures;
}

const monthEnd = (month: string): string => {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
};

/** The service's [net revenue, net profit] of a month, in cents. */
export async function summaryCents(stack: Stack, month: string): Promise<[number, number]> {
  const { access_token: token } = (await stack.control('tokens', { scope: 'profitability:read' })) as Json;
  const res = await fetch(
    `${stack.apiUrl}/api/v1/profitability/summary?start_date=${month}-01&end_date=${monthEnd(month)}`,
    { headers: { Authorization: `Bearer ${String(token)}` } },
  );
  expect(res.status).toBe(200);
  const totals = ((await res.json()) as { data: { totals: Record<string, number> } }).data.totals;
  return [Math.round(totals.net_revenue * 100), Math.round(totals.net_profit * 100)];
}

/** Every month of the store's currency in the pivot beside the summary: [] when they agree. */
export async function pivotDifferences(stack: Stack): Promise<string[]> {
  const { timeZone } = await storeDay(stack);
  const storeCurrency = String(((await stack.truth('store')) as { store: Json }).store.currency);
  const dayOf = (iso: unknown): string => new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(String(iso)));
  const pivot = await pivotCents(stack);
  const orders = ((await stack.truth('orders')) as { data: Json[] }).data.filter((o) => !o.canceled_at);
  const months = [...new Set(orders.map((o) => dayOf(o.created_at).slice(0, 7)))].sort();
  const out: string[] = [];
  for (const m of months) {
    const want = await summaryCents(stack, m);
    const got = pivot.get(`${storeCurrency} ${m}`);
    if (!got || got[0] !== want[0] || got[1] !== want[1])
      out.push(`${m}: pivot ${JSON.stringify(got)} summary ${JSON.stringify(want)}`);
  }
  return out;
}

/** The Checks sheet's days whose result is not ✓: "YYYY-MM-DD ✗ …". */
export function daysNotOk(stack: Stack): string[] {
  const [headers, ...rows] = sheetTable(stack, 'Checks');
  const at = (name: string) => headers.indexOf(name);
  return rows
    .filter((r) => r[at('kind')] === 'day' && r[at('result')] !== '✓')
    .map((r) => `${String(r[at('period')])} ${String(r[at('result')])}`);
}
