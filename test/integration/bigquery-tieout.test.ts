/**
 * The tie-out of a store whose orders are in BigQuery: the per-day sums come from one query on the
 * orders table and meet the service's Daily P&L in the Checks sheet as the Sheets tie-out's do; a
 * row someone altered in BigQuery turns exactly its day ✗ with the difference, and Sync now fetches
 * that day again and MERGEs it, so the table equals the emulator's truth again. Days, orders and
 * amounts are taken from the emulator's truth, never from the add-on's own output.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import {
  bigQueryDml,
  bigQueryRows,
  datasetTables,
  compareTablesWithTruth,
  DATASET,
  PROJECT,
  sidebarSyncNow,
  table,
  reconcilePassUntilDone,
} from './bigquery-support';
import { checksModel, dayBesideTruth } from './checks-support';
import { checksRow, checksScope, scheduledRun, sheetTable, storeDay, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
type Row = Array<string | number | boolean>;

const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
const DESTINATION = { kind: 'bigquery', projectId: PROJECT, datasetId: DATASET };

let stack: Stack;

beforeAll(async () => {
  // Modelled time only: a job is RUNNING or DONE by the runtime clock, never by how loaded the host is.
  stack = await startStack({ orders: 300, seed: 41, modelledTimeOnly: true, emulatorClockInStep: true });
  await stack.connect();
  const set = await stack.runtime.run('setOrdersDestination', [DESTINATION]);
  if (!set.ok) throw new Error(`setOrdersDestination failed: ${set.error?.message}`);
  await syncUntilCaughtUp(stack);
}, 300_000);

afterAll(async () => {
  await stack?.close();
});

/** The Checks sheet's day rows, period → header → cell. */
function checkDays(): Map<string, Record<string, unknown>> {
  const [headers, ...rows] = sheetTable(stack, 'Checks') as Row[];
  const out = new Map<string, Record<string, unknown>>();
  for (const r of rows ?? [])
    if (r[headers.indexOf('kind')] === 'day')
      out.set(String(r[headers.indexOf('period')]), Object.fromEntries(headers.map((h, i) => [String(h), r[i]])));
  return out;
}

const failing = (days: Map<string, Record<string, unknown>>): string[] =>
  [...days].filter(([, r]) => r.result !== '✓').map(([d]) => d);

/** The service's days from the store's first order to today, as the emulator's truth has them. */
async function truthDays(): Promise<string[]> {
  const store = (await stack.truth('store')) as Json;
  const { today } = await storeDay(stack);
  const daily = (await stack.control(`truth/daily?start_date=${String(store.first_order_date)}&end_date=${today}`)) as {
    data: Json[];
  };
  return daily.data.map((d) => String(d.date));
}

/** An active order of the store's currency with line items, from the truth, and its store day. */
async function activeOrder(at = 0.5): Promise<{ id: string; day: string; netRevenue: number }> {
  const { timeZone } = await storeDay(stack);
  const store = (await stack.truth('store')) as Json;
  const currency = (store.store as Json).currency;
  const orders = ((await stack.truth('orders')) as { data: Json[] }).data.filter(
    (o) => !o.canceled_at && o.currency === currency && (o.line_items as Json[]).length > 0,
  );
  const order = orders[Math.floor(orders.length * at)];
  return {
    id: String(order.id),
    day: new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(String(order.created_at))),
    netRevenue: Number((order.economics as Json).net_revenue),
  };
}

describe('the tie-out in SQL', () => {
  it('ties out every day from the first order to today from the BigQuery orders table, and says so in the scope line', async () => {
    const days = checkDays();
    expect([...days.keys()]).toEqual(await truthDays());
    expect(failing(days)).toEqual([]);
    expect(checksScope(stack)).toContain(`${table('orders')} summed by placed_day in one query`);
    // The orders are in BigQuery only: the Orders sheet did not feed the tie-out.
    expect(sheetTable(stack, 'Orders').length).toBeLessThanOrEqual(1);
  });

  it('turns a day ✗ with the difference when a row is altered in BigQuery, and Sync now repairs the row', async () => {
    const order = await activeOrder();
    const changed = await bigQueryDml(
      stack,
      `UPDATE ${table('orders')} SET net_revenue = net_revenue + 12.34 WHERE id = '${order.id}'`,
    );
    expect(changed).toBe(1);

    const run = await scheduledRun(stack);
    expect(run.error?.message).toBeUndefined();
    const days = checkDays();
    expect(failing(days)).toEqual([order.day]);
    const altered = days.get(order.day)!;
    expect(altered.result).toBe('✗');
    expect(altered.net_revenue_difference).toBeCloseTo(12.34, 9);
    expect(String(altered.note)).toContain('Differs: net_revenue');

    await sidebarSyncNow(stack);
    expect(failing(checkDays())).toEqual([]);
    const row = await bigQueryRows(stack, `SELECT net_revenue FROM ${table('orders')} WHERE id = '${order.id}'`);
    expect(Number(row.rows[0].net_revenue)).toBe(order.netRevenue);
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
  });

  it('deletes an order that vanished from the service, with its line items, when its day is ✗: the table equals the truth again', async () => {
    const order = await activeOrder(0.25);
    await stack.control(`orders/${order.id}/vanish`, {});
    const truthIds = ((await stack.truth('orders')) as { data: Json[] }).data.map((o) => String(o.id));
    expect(truthIds).not.toContain(order.id);

    const run = await scheduledRun(stack);
    expect(run.error?.message).toBeUndefined();
    expect(failing(checkDays())).toEqual([order.day]);

    await sidebarSyncNow(stack);
    expect(failing(checkDays())).toEqual([]);
    const left = await bigQueryRows(
      stack,
      `SELECT (SELECT COUNT(*) FROM ${table('orders')} WHERE id = '${order.id}') AS orders, ` +
        `(SELECT COUNT(*) FROM ${table('line_items')} WHERE order_id = '${order.id}') AS line_items`,
    );
    expect(left.rows[0]).toEqual({ orders: '0', line_items: '0' });
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
    // The listed ids' stage table is deleted once the DELETEs are done.
    expect(await datasetTables(stack)).toEqual(['line_items', 'orders']);
    const [headers, ...log] = sheetTable(stack, 'Sync log');
    const gone = log.map((r) => Number(r[headers.indexOf('orders_gone')]) || 0).reduce((a, b) => a + b, 0);
    expect(gone).toBe(1);
  });

  it('says a day whose orders include one in another currency is "not compared", never ✗, as the Sheets tie-out does, and PROFIT_SUMMARY names the currency', async () => {
    const store = (await stack.truth('store')) as Json;
    expect((store.store as Json).currency).not.toBe('EUR');
    const order = await activeOrder(0.75);
    await stack.control(`orders/${order.id}/patch`, { currency: 'EUR' });
    await stack.advanceClocks(3_600_000);
    const run = await scheduledRun(stack);
    expect(run.error?.message).toBeUndefined();
    const currency = await bigQueryRows(stack, `SELECT currency FROM ${table('orders')} WHERE id = '${order.id}'`);
    expect(currency.rows).toEqual([{ currency: 'EUR' }]);

    const check = checksRow(stack, order.day);
    expect(check?.result, String(check?.note)).toBe('not compared');
    expect(String(check?.note)).toContain("1 order in another currency than the store's (see Orders: currency) is in");
    expect([...checkDays()].filter(([, r]) => r.result === '✗')).toEqual([]);
    const summary = await stack.runtime.run('PROFIT_SUMMARY', [order.day, order.day], { authMode: 'CUSTOM_FUNCTION' });
    expect(summary.ok, summary.error?.message).toBe(true);
    const note = (summary.value as unknown[][]).find((r) => r[0] === 'currency_note');
    expect(String(note?.[1] ?? '')).toMatch(/1 in EUR/);
  });
});

describe('the reconciliation pass of orders kept in BigQuery', () => {
  it('removes a cancelled order that vanished (no day turns ✗ for it) and puts back a cancelled order altered in BigQuery: the tables equal the truth', async () => {
    const cancelled = ((await stack.truth('orders')) as { data: Json[] }).data.filter(
      (o) => o.canceled_at && (o.line_items as Json[]).length > 0,
    );
    expect(cancelled.length).toBeGreaterThanOrEqual(2);
    const [vanished, altered] = cancelled.map((o) => String(o.id));
    await stack.control(`orders/${vanished}/vanish`, {});
    expect(await bigQueryDml(stack, `UPDATE ${table('orders')} SET gross_revenue = 0 WHERE id = '${altered}'`)).toBe(1);
    // Neither changes a day's P&L: the tie-out has no ✗ to repair.
    await scheduledRun(stack);
    expect([...checkDays()].filter(([, r]) => r.result === '✗')).toEqual([]);

    await reconcilePassUntilDone(stack);
    const left = await bigQueryRows(
      stack,
      `SELECT (SELECT COUNT(*) FROM ${table('orders')} WHERE id = '${vanished}') AS orders, ` +
        `(SELECT COUNT(*) FROM ${table('line_items')} WHERE order_id = '${vanished}') AS line_items`,
    );
    expect(left.rows[0]).toEqual({ orders: '0', line_items: '0' });
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
  });
});

describe('Checks → Run with orders in BigQuery', () => {
  it('puts back a ✓ typed over with ✗ and a figure cleared by hand, as the service says the day', async () => {
    const first = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
    expect(first.ok, first.error?.message).toBe(true);
    const day = [...checkDays()].filter(([, r]) => r.result === '✓')[5][0];
    const [headers, ...rows] = sheetTable(stack, 'Checks') as Row[];
    const row = rows.findIndex((r) => r[headers.indexOf('period')] === day) + 2;
    checksModel(stack).write(row, headers.indexOf('result') + 1, { value: '✗' });
    checksModel(stack).write(row, headers.indexOf('gross_revenue_pnl') + 1, {});
    await stack.advanceClocks(60_000);
    const again = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
    expect(again.ok, again.error?.message).toBe(true);
    const { row: now, truth } = await dayBesideTruth(stack, day);
    expect(now.result).toBe('✓');
    expect(Math.round(Number(now.gross_revenue_pnl) * 100)).toBe(Math.round(Number(truth.gross_revenue) * 100));
  });
});
