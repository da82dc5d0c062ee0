/**
 * The BigQuery destination's ground truth: the runtime's BigQuery queried through the service's own
 * jobs.query (REST-shaped rows: every value a string), each row compared with the emulator's
 * truth on the truth's own terms (field lookup by column name, the store-zone day by Intl), never
 * through the add-on's row builder.
 */
import { startStack, type Stack } from '../../dev/harness/index';
import { getQueryResults, query, settle } from '../../dev/gas-runtime/bigquery/jobs';
import { storeDay, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;

export const PROJECT = 'merchant-analytics-test';
export const DATASET = 'store_orders';

export interface QueryAnswer {
  schema: { fields: Array<{ name: string; type: string }> };
  rows: Array<Record<string, string | null>>;
}

/** One GoogleSQL query on the runtime's BigQuery, every row (each page of ≤ 10 MB followed by its pageToken); instants as microseconds. */
export async function bigQueryRows(stack: Stack, sql: string): Promise<QueryAnswer> {
  type Page = {
    schema: QueryAnswer['schema'];
    rows?: Array<{ f: Array<{ v: string | null }> }>;
    pageToken?: string;
    jobReference: { jobId: string };
  };
  const now = stack.runtime.clock.now();
  const first = (
    await query(
      stack.runtime.bigquery,
      PROJECT,
      {
        query: sql,
        useLegacySql: false,
        maxResults: 1_000_000,
        timeoutMs: 600_000,
        formatOptions: { useInt64Timestamp: true },
      },
      { now, userEmail: 'test@example.com' },
    )
  ).result as Page;
  const names = first.schema.fields.map((f) => f.name);
  const rows: QueryAnswer['rows'] = [];
  let page: Page = first;
  for (;;) {
    for (const r of page.rows ?? []) rows.push(Object.fromEntries(r.f.map((c, i) => [names[i], c.v])));
    if (!page.pageToken) break;
    page = (
      await getQueryResults(
        stack.runtime.bigquery,
        PROJECT,
        first.jobReference.jobId,
        { pageToken: page.pageToken, maxResults: 1_000_000, formatOptions: { useInt64Timestamp: true } },
        now,
      )
    ).result as Page;
  }
  return { schema: first.schema, rows };
}

/**
 * A store of `orders` (seed `seed`) connected, its orders going to the test dataset, synced by the
 * scheduled job until caught up: the stack on the modelled clock, the emulator's clock in step.
 */
export async function startBigQueryStore(orders: number, seed: number): Promise<Stack> {
  const stack = await startStack({ orders, seed, modelledTimeOnly: true, emulatorClockInStep: true });
  try {
    const connected = await stack.connect();
    if (connected.outcome !== 'connected') throw new Error(`connect: ${connected.outcome}`);
    const set = await stack.runtime.run('setOrdersDestination', [
      { kind: 'bigquery', projectId: PROJECT, datasetId: DATASET },
    ]);
    if (!set.ok) throw new Error(`setOrdersDestination: ${set.error?.message ?? ''}`);
    await syncUntilCaughtUp(stack);
    return stack;
  } catch (e) {
    await stack.close();
    throw e;
  }
}

/** The tables the test dataset holds now (jobs due and expirations passed on the runtime clock applied first), by name. */
export async function datasetTables(stack: Stack): Promise<string[]> {
  await settle(stack.runtime.bigquery, stack.runtime.clock.now());
  return [...stack.runtime.bigquery.tables.values()]
    .filter((t) => t.ref.projectId === PROJECT && t.ref.datasetId === DATASET)
    .map((t) => t.ref.tableId)
    .sort();
}

export const table = (id: string): string => `\`${PROJECT}.${DATASET}.${id}\``;

/** Differences between the tables and the truth: [] when they are equal row for row. */
export interface TableComparison {
  mismatches: Array<{ table: string; key: string; column: string; expected: unknown; actual: unknown }>;
  missing: string[];
  unexpected: string[];
  duplicates: string[];
}

function sameValue(type: string, expected: unknown, actual: string | null): boolean {
  if (expected === null || expected === undefined) return actual === null;
  if (actual === null) return false;
  switch (type) {
    case 'NUMERIC':
    case 'INTEGER':
      return Number(actual) === expected;
    case 'FLOAT':
      return typeof expected === 'number' && Math.abs(Number(actual) - expected) < 1e-9;
    case 'BOOLEAN':
      return actual === String(expected);
    case 'TIMESTAMP':
      return Number(actual) === Date.parse(String(expected)) * 1000;
    default:
      return actual === (typeof expected === 'string' ? expected : JSON.stringify(expected));
  }
}

function lookup(record: Json, name: string): unknown {
  if (name in record) return record[name];
  for (const nested of ['economics', 'attribution']) {
    const inner = record[nested] as Json | null | undefined;
    if (inner && name in inner) return inner[name];
  }
  return undefined;
}

/** Columns the sync fills with its own bookkeeping (when it wrote the row), not API data. */
const BOOKKEEPING = new Set(['synced_at']);

function compareTable(
  name: string,
  answer: QueryAnswer,
  keyOf: (row: Record<string, string | null>) => string,
  expected: Map<string, (column: string) => unknown>,
  out: TableComparison,
): void {
  const seen = new Set<string>();
  for (const row of answer.rows) {
    const key = keyOf(row);
    if (seen.has(key)) out.duplicates.push(`${name}:${key}`);
    seen.add(key);
    const truth = expected.get(key);
    if (!truth) {
      out.unexpected.push(`${name}:${key}`);
      continue;
    }
    for (const field of answer.schema.fields) {
      if (BOOKKEEPING.has(field.name)) continue;
      const want = truth(field.name);
      if (!sameValue(field.type, want, row[field.name]))
        out.mismatches.push({ table: name, key, column: field.name, expected: want, actual: row[field.name] });
    }
  }
  for (const key of expected.keys()) if (!seen.has(key)) out.missing.push(`${name}:${key}`);
}

/** The truth's reading of an order's cost status (spec 2.3): unknown source, else coverage below 100. */
function orderCostStatus(order: Json): string | null {
  const e = (order.economics ?? {}) as Json;
  if (typeof e.cogs_source === 'string' && e.cogs_source.trim().toLowerCase() === 'unknown') return 'unknown';
  if (typeof e.cogs_coverage_pct === 'number') return e.cogs_coverage_pct < 100 ? 'incomplete' : 'complete';
  return null;
}

const LINE_COST_STATUSES = new Set(['known', 'unknown', 'possibly_unknown']);

/**
 * A run of the truth's orders (sorted by id) and the ids it spans: the tables' rows in that span
 * are compared with it alone, so a million orders are compared a slice at a time.
 */
export interface TruthSlice {
  orders: Json[];
  firstId: string;
  lastId: string;
}

/** A quoted id for a range bound (the emulator's ids are letters, digits and underscores). */
function idLiteral(id: string): string {
  if (!/^[A-Za-z0-9_]+$/.test(id)) throw new Error(`unexpected order id ${id}`);
  return `'${id}'`;
}

/**
 * orders and line_items against /_emulator/truth/orders, row for row (one row per key, none missing,
 * none more); with `slice`, the rows of its ids only; `onRows` sees each table's rows as read.
 */
export async function compareTablesWithTruth(
  stack: Stack,
  slice?: TruthSlice,
  onRows?: (tableId: string, answer: QueryAnswer) => void,
): Promise<TableComparison> {
  const out: TableComparison = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
  const { timeZone } = await storeDay(stack);
  const dayOf = (iso: unknown): string => new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(String(iso)));
  const orders = slice ? slice.orders : ((await stack.truth('orders')) as { data: Json[] }).data;
  const span = (column: string): string =>
    slice ? ` WHERE ${column} BETWEEN ${idLiteral(slice.firstId)} AND ${idLiteral(slice.lastId)}` : '';
  const orderTruth = new Map<string, (column: string) => unknown>();
  const lineTruth = new Map<string, (column: string) => unknown>();
  for (const order of orders) {
    const status = order.canceled_at ? 'cancelled' : 'active';
    const day = dayOf(order.created_at);
    const derived: Json = { status, placed_day: day, gone_at: null, cost_status: orderCostStatus(order) };
    orderTruth.set(String(order.id), (c) => (c in derived ? derived[c] : lookup(order, c)));
    for (const line of (order.line_items ?? []) as Json[]) {
      const lineDerived: Json = { order_id: order.id, sync_status: status, placed_day: day };
      lineTruth.set(`${String(order.id)}/${String(line.id)}`, (c) => (c in lineDerived ? lineDerived[c] : line[c]));
    }
  }
  const ordersAnswer = await bigQueryRows(stack, `SELECT * FROM ${table('orders')}${span('id')}`);
  compareTable('orders', ordersAnswer, (r) => String(r.id), orderTruth, out);
  onRows?.('orders', ordersAnswer);
  const linesAnswer = await bigQueryRows(
    stack,
    `SELECT * EXCEPT (cost_status) FROM ${table('line_items')}${span('order_id')}`,
  );
  compareTable('line_items', linesAnswer, (r) => `${r.order_id}/${r.id}`, lineTruth, out);
  onRows?.('line_items', linesAnswer);
  // A line's cost status needs its order's unit arithmetic to pin down (sync-support's lineCostReading): one of the three.
  const statuses = await bigQueryRows(
    stack,
    `SELECT DISTINCT cost_status FROM ${table('line_items')}${span('order_id')}`,
  );
  for (const row of statuses.rows)
    if (!LINE_COST_STATUSES.has(String(row.cost_status)))
      out.mismatches.push({
        table: 'line_items',
        key: '*',
        column: 'cost_status',
        expected: [...LINE_COST_STATUSES],
        actual: row.cost_status,
      });
  return out;
}

/** A DML statement (UPDATE, DELETE, …) on the runtime's BigQuery, as someone with access to the dataset runs it; the rows it changed. */
export async function bigQueryDml(stack: Stack, sql: string): Promise<number> {
  const { result } = await query(
    stack.runtime.bigquery,
    PROJECT,
    { query: sql, useLegacySql: false, timeoutMs: 600_000 },
    { now: stack.runtime.clock.now(), userEmail: 'analyst@example.com' },
  );
  return Number((result as { numDmlAffectedRows?: string }).numDmlAffectedRows);
}

/** Sync now as the sidebar runs it: startSync, then steps until done. */
export async function sidebarSyncNow(stack: Stack): Promise<void> {
  const step = async (name: string): Promise<{ done?: boolean }> => {
    const r = await stack.runtime.run(name, [], { authMode: 'FULL' });
    if (!r.ok) throw new Error(`${name} failed: ${r.error?.message}`);
    return r.value as { done?: boolean };
  };
  await step('startSync');
  for (let i = 0; i < 40; i++) if ((await step('runSyncStep')).done) return;
  throw new Error('Sync now did not finish');
}

/** The reconciliation pass (`reconcileOrdersNow`) run step by step until it says it is done. */
export async function reconcilePassUntilDone(stack: Stack, maxSteps = 10): Promise<void> {
  let done = false;
  for (let step = 0; step < maxSteps && !done; step++) {
    const r = await stack.runtime.run('reconcileOrdersNow', [], { authMode: 'FULL' });
    if (!r.ok) throw new Error(`reconcileOrdersNow failed: ${r.error?.message}`);
    done = (r.value as { done?: boolean }).done === true;
  }
  // No vitest here: bench/bigquery.bench.ts imports this file outside a test.
  if (!done) throw new Error(`the reconciliation pass was not done in ${maxSteps} steps`);
}
