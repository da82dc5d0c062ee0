/**
 * A key held more than once in BigQuery (a copied row: an INSERT … SELECT by hand), whatever the
 * copy's status, currency or day: the tie-out's query finds it (it counts every copy of the store's
 * ids, not only the active orders of the checked days), Checks names it on its day with ✗ (never
 * "not compared"), and the repair that follows (Sync now, or the next hourly run) leaves one row per
 * key with the service's values, a column a data engineer added kept. Ground truth: the emulator's
 * /_emulator/truth/orders (compareTablesWithTruth, row for row) and /profitability/summary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patchTable } from '../../dev/gas-runtime/bigquery/catalog';
import type { Stack } from '../../dev/harness/index';
import {
  bigQueryDml,
  bigQueryRows,
  compareTablesWithTruth,
  DATASET,
  PROJECT,
  sidebarSyncNow,
  startBigQueryStore,
  table,
} from './bigquery-support';
import { checksRow, scheduledRun, storeDay } from './sync-support';

type Json = Record<string, unknown>;
const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
const HOUR_MS = 3_600_000;

let stack: Stack;
let timeZone = '';
let storeCurrency = '';
let storeId = '';
const used = new Set<string>();

beforeAll(async () => {
  stack = await startBigQueryStore(160, 2577);
  timeZone = (await storeDay(stack)).timeZone;
  const store = ((await stack.truth('store')) as { store: Json }).store;
  storeCurrency = String(store.currency);
  storeId = String(store.id);
}, 300_000);

afterAll(async () => {
  await stack?.close();
});

const dayOf = (iso: unknown): string => new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(String(iso)));

async function truthOrders(): Promise<Json[]> {
  return ((await stack.truth('orders')) as { data: Json[] }).data;
}

/** An order of the truth on a day no earlier case used. */
async function pick(filter: (o: Json) => boolean): Promise<{ id: string; day: string; order: Json }> {
  const order = (await truthOrders()).find((o) => filter(o) && !used.has(dayOf(o.created_at)))!;
  const day = dayOf(order.created_at);
  used.add(day);
  return { id: String(order.id), day, order };
}
const activeWithLines = (o: Json): boolean =>
  !o.canceled_at && o.currency === storeCurrency && ((o.line_items as Json[]) ?? []).length > 0;

const copyOrder = async (id: string, columns = '*'): Promise<void> => {
  expect(
    await bigQueryDml(
      stack,
      `INSERT INTO ${table('orders')} SELECT ${columns} FROM ${table('orders')} WHERE id = '${id}'`,
    ),
  ).toBe(1);
};
/** Every column of orders, one replaced by an expression. */
async function columnsWith(name: string, expression: string): Promise<string> {
  const fields = (await bigQueryRows(stack, `SELECT * FROM ${table('orders')} LIMIT 1`)).schema.fields;
  return fields.map((f) => (f.name === name ? `${expression} AS ${name}` : f.name)).join(', ');
}
const rowsOf = async (id: string): Promise<string> =>
  String((await bigQueryRows(stack, `SELECT COUNT(*) AS n FROM ${table('orders')} WHERE id = '${id}'`)).rows[0].n);

async function hourlyRun(): Promise<void> {
  await stack.advanceClocks(HOUR_MS);
  expect((await scheduledRun(stack)).error?.message).toBeUndefined();
}

/** The day's Checks row: ✗, naming what is held twice. */
function expectNamed(day: string, words: string): void {
  const row = checksRow(stack, day);
  expect(row?.result).toBe('✗');
  expect(String(row?.note)).toContain(words);
}

const monthEnd = (month: string): string => {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
};

/** /profitability/summary's net revenue and net profit of a month, in cents. */
async function summary(month: string): Promise<[number, number]> {
  const { access_token: token } = (await stack.control('tokens', { scope: 'profitability:read' })) as Json;
  const res = await fetch(
    `${stack.apiUrl}/api/v1/profitability/summary?start_date=${month}-01&end_date=${monthEnd(month)}`,
    { headers: { Authorization: `Bearer ${String(token)}` } },
  );
  const totals = ((await res.json()) as { data: { totals: Record<string, number> } }).data.totals;
  return [Math.round(totals.net_revenue * 100), Math.round(totals.net_profit * 100)];
}

/** What the pivot's query (active orders of the store, by currency and month) gives for a month, in cents. */
async function pivotMonth(currency: string, month: string): Promise<[number, number]> {
  const r = await bigQueryRows(
    stack,
    `SELECT CAST(SUM(net_revenue) AS STRING) AS r, CAST(SUM(net_profit) AS STRING) AS p FROM ${table('orders')} ` +
      `WHERE status = 'active' AND store_id = '${storeId}' AND currency = '${currency}' ` +
      `AND DATE_TRUNC(placed_day, MONTH) = DATE '${month}-01'`,
  );
  return [Math.round(Number(r.rows[0].r) * 100), Math.round(Number(r.rows[0].p) * 100)];
}

describe('BigQuery: a key held more than once is never ✓', () => {
  it('a cancelled order held twice: its day ✗ naming it, Sync now leaves one row', async () => {
    const c = await pick((o) => Boolean(o.canceled_at));
    await copyOrder(c.id);
    await hourlyRun();
    expectNamed(c.day, `order ${c.id} is held 2 times in BigQuery (placed_day ${c.day})`);
    await sidebarSyncNow(stack);
    expect(await rowsOf(c.id)).toBe('1');
    expect(checksRow(stack, c.day)?.result).toBe('✓');
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
  });

  it('a line item held twice: its day ✗ naming it, Sync now leaves one row per (order_id, id)', async () => {
    const o = await pick(activeWithLines);
    const line = String(((o.order.line_items as Json[])[0] as Json).id);
    const lines = `${table('line_items')} WHERE order_id = '${o.id}' AND id = '${line}'`;
    expect(await bigQueryDml(stack, `INSERT INTO ${table('line_items')} SELECT * FROM ${lines}`)).toBe(1);
    await hourlyRun();
    expectNamed(o.day, `line item ${line} of order ${o.id} is held 2 times in BigQuery`);
    await sidebarSyncNow(stack);
    expect((await bigQueryRows(stack, `SELECT COUNT(*) AS n FROM ${lines}`)).rows[0].n).toBe('1');
    expect(checksRow(stack, o.day)?.result).toBe('✓');
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
  });

  it('an active order copied as cancelled (a half-finished copy): ✗ at once, and after its next change one active row', async () => {
    const o = await pick(activeWithLines);
    await copyOrder(o.id, await columnsWith('status', "'cancelled'"));
    await hourlyRun();
    expectNamed(o.day, `order ${o.id} is held 2 times in BigQuery`);
    // The order's next change: the feed's MERGE updates both rows, the ✗ day's repair keeps one.
    await stack.control(`orders/${o.id}/patch`, { order_number: `${String(o.order.order_number)}-R` });
    await hourlyRun();
    const statuses = await bigQueryRows(
      stack,
      `SELECT status, COUNT(*) AS n FROM ${table('orders')} WHERE id = '${o.id}' GROUP BY status`,
    );
    expect(statuses.rows).toEqual([{ status: 'active', n: '1' }]);
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
  });

  it('an order copied on a day that holds another currency: ✗ (not "not compared"), Sync now repairs, the pivot month equals the summary', async () => {
    const byDay = new Map<string, Json[]>();
    for (const o of (await truthOrders()).filter(activeWithLines))
      if (!used.has(dayOf(o.created_at)))
        byDay.set(dayOf(o.created_at), [...(byDay.get(dayOf(o.created_at)) ?? []), o]);
    const [day, [eur, dup]] = [...byDay].find(([, os]) => os.length >= 2)!;
    used.add(day);
    await stack.control(`orders/${String(eur.id)}/patch`, { currency: 'EUR' });
    await hourlyRun();
    await copyOrder(String(dup.id));
    await hourlyRun();
    expectNamed(day, `order ${String(dup.id)} is held 2 times in BigQuery`);
    await sidebarSyncNow(stack);
    expect(await rowsOf(String(dup.id))).toBe('1');
    expect(checksRow(stack, day)?.result).toBe('not compared');
    const month = day.slice(0, 7);
    const [revenue, profit] = await summary(month);
    const e = eur.economics as Json;
    // The summary adds the EUR order in; the pivot's store-currency month leaves it out.
    expect(await pivotMonth(storeCurrency, month)).toEqual([
      revenue - Math.round(Number(e.net_revenue) * 100),
      profit - Math.round(Number(e.net_profit) * 100),
    ]);
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
  });

  it('a copy dated after today: its order day ✗ naming both days, Sync now leaves the row on its own day', async () => {
    const { today } = await storeDay(stack);
    const o = await pick(activeWithLines);
    const later = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    await copyOrder(o.id, await columnsWith('placed_day', `DATE '${later}'`));
    await hourlyRun();
    expectNamed(o.day, `order ${o.id} is held 2 times in BigQuery (placed_day ${o.day}, ${later})`);
    await sidebarSyncNow(stack);
    const left = await bigQueryRows(
      stack,
      `SELECT CAST(placed_day AS STRING) AS day FROM ${table('orders')} WHERE id = '${o.id}'`,
    );
    expect(left.rows).toEqual([{ day: o.day }]);
    expect(await pivotMonth(storeCurrency, later.slice(0, 7))).toEqual(await summary(later.slice(0, 7)));
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
  });

  it('a NULLABLE column a data engineer added keeps its value through the repair of a copied order', async () => {
    const t = stack.runtime.bigquery.tables.get(`${PROJECT}:${DATASET}.orders`)!;
    await patchTable(
      stack.runtime.bigquery,
      { schema: { fields: [...t.schema, { name: 'analyst_note', type: 'STRING', mode: 'NULLABLE' }] } },
      t.ref,
      stack.runtime.clock.now(),
    );
    const o = await pick(activeWithLines);
    expect(
      await bigQueryDml(stack, `UPDATE ${table('orders')} SET analyst_note = 'checked' WHERE id = '${o.id}'`),
    ).toBe(1);
    await copyOrder(o.id);
    await hourlyRun();
    expectNamed(o.day, `order ${o.id} is held 2 times in BigQuery`);
    await sidebarSyncNow(stack);
    const notes = await bigQueryRows(stack, `SELECT analyst_note FROM ${table('orders')} WHERE id = '${o.id}'`);
    expect(notes.rows).toEqual([{ analyst_note: 'checked' }]);
    expect(checksRow(stack, o.day)?.result).toBe('✓');
  });
});
