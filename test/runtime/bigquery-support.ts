/** Set-up shared by the BigQuery advanced service tests: a runtime over the bigquery fixture bundle and the orders data. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { createRuntime, type GasRuntime } from '../../dev/gas-runtime/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const BIGQUERY_DIST = path.join(here, 'fixtures', 'bigquery');
export const PROJECT = 'merchant-analytics-test';
export const DATASET = 'store_42';

/** The clock moves only by modelled costs and sleeps: a job's RUNNING/DONE never depends on how loaded the host is. */
export function bigQueryRuntime(): Promise<GasRuntime> {
  return createRuntime({ distDir: BIGQUERY_DIST, user: { email: 'finance@example.com' }, modelledTimeOnly: true });
}

export interface Row {
  f: Array<{ v: string | null }>;
}

export interface ErrorEntry {
  reason: string;
  message: string;
}

/** What the fixture's functions answer: a REST resource or response, or {error}. */
export interface Answer {
  error?: string;
  rows: Row[];
  totalRows: string;
  pageToken?: string;
  jobComplete?: boolean;
  schema: { fields: Array<{ name: string; type: string }> };
  jobReference: { jobId: string };
  status: { state: string; errorResult?: ErrorEntry; errors?: ErrorEntry[] };
  statistics: { load?: { outputRows: string }; query?: Record<string, string> };
  timePartitioning?: unknown;
  clustering?: unknown;
  datasetReference?: unknown;
  numRows?: string;
  inserted?: number;
}

/** runJobs / runJobsTogether: each job as inserted and as DONE. */
export interface JobRun {
  inserted: Answer;
  done: Answer;
}

/** Runs a fixture function in a FULL execution and returns its value (the test fails with the script's error). */
export async function call<T = Answer>(runtime: GasRuntime, name: string, ...args: unknown[]): Promise<T> {
  const result = await runtime.run(name, args);
  expect(result.error?.message, `${name} failed`).toBeUndefined();
  return result.value as T;
}

export const values = (row: Row): Array<string | null> => row.f.map((c) => c.v);

export const ORDERS_SCHEMA = {
  fields: [
    { name: 'id', type: 'STRING', mode: 'REQUIRED' },
    { name: 'placed_day', type: 'DATE', mode: 'REQUIRED' },
    { name: 'placed_at', type: 'TIMESTAMP' },
    { name: 'status', type: 'STRING' },
    { name: 'items', type: 'INT64' },
    { name: 'net_revenue', type: 'NUMERIC' },
    { name: 'net_profit', type: 'NUMERIC' },
  ],
};

export interface Order {
  id: string;
  placed_day: string;
  placed_at: string;
  status: string | null;
  items: number;
  net_revenue: string;
  net_profit: string;
}

export const PAGE_1: Order[] = [
  {
    id: 'o-1',
    placed_day: '2024-03-01',
    placed_at: '2024-03-01T09:15:00Z',
    status: 'paid',
    items: 2,
    net_revenue: '120.50',
    net_profit: '40.25',
  },
  {
    id: 'o-2',
    placed_day: '2024-03-01',
    placed_at: '2024-03-01T17:40:00Z',
    status: 'paid',
    items: 1,
    net_revenue: '35.00',
    net_profit: '10.00',
  },
  {
    id: 'o-3',
    placed_day: '2024-03-02',
    placed_at: '2024-03-02T08:00:00Z',
    status: null,
    items: 3,
    net_revenue: '99.99',
    net_profit: '33.33',
  },
];

export const PAGE_2: Order[] = [
  {
    id: 'o-4',
    placed_day: '2024-03-02',
    placed_at: '2024-03-02T12:30:00Z',
    status: 'paid',
    items: 1,
    net_revenue: '10.01',
    net_profit: '-2.50',
  },
  {
    id: 'o-5',
    placed_day: '2024-03-03',
    placed_at: '2024-03-03T23:59:59Z',
    status: 'refunded',
    items: 2,
    net_revenue: '0',
    net_profit: '-5.00',
  },
];

/** The staged page: o-2 refunded in part (replaced), o-6 new. */
export const STAGED: Order[] = [
  {
    id: 'o-2',
    placed_day: '2024-03-01',
    placed_at: '2024-03-01T17:40:00Z',
    status: 'partially_refunded',
    items: 1,
    net_revenue: '20.00',
    net_profit: '-1.75',
  },
  {
    id: 'o-6',
    placed_day: '2024-03-03',
    placed_at: '2024-03-03T10:00:00Z',
    status: 'paid',
    items: 4,
    net_revenue: '250.00',
    net_profit: '80.00',
  },
];

export const ndjson = (orders: Order[]): string[] => orders.map((o) => JSON.stringify(o));

export function ordersRef(tableId = 'orders'): { projectId: string; datasetId: string; tableId: string } {
  return { projectId: PROJECT, datasetId: DATASET, tableId };
}

export function loadJob(tableId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    configuration: {
      load: { sourceFormat: 'NEWLINE_DELIMITED_JSON', destinationTable: ordersRef(tableId), ...extra },
    },
  };
}

export function queryJob(query: string, options: Record<string, unknown> = {}): Record<string, unknown> {
  return { configuration: { query: { query, useLegacySql: false, ...options } } };
}

export const MERGE_STAGED = `MERGE \`${PROJECT}.${DATASET}.orders\` AS t
USING \`${PROJECT}.${DATASET}.orders_stage\` AS s
ON t.id = s.id
WHEN MATCHED THEN UPDATE SET placed_day = s.placed_day, placed_at = s.placed_at, status = s.status,
  items = s.items, net_revenue = s.net_revenue, net_profit = s.net_profit
WHEN NOT MATCHED THEN INSERT (id, placed_day, placed_at, status, items, net_revenue, net_profit)
  VALUES (s.id, s.placed_day, s.placed_at, s.status, s.items, s.net_revenue, s.net_profit)`;

/** A dataset and the partitioned, clustered orders table. */
export async function createOrdersTable(runtime: GasRuntime): Promise<Answer> {
  await call(runtime, 'bq', 'Datasets', 'insert', [
    { datasetReference: { projectId: PROJECT, datasetId: DATASET } },
    PROJECT,
  ]);
  return call(runtime, 'bq', 'Tables', 'insert', [
    {
      tableReference: ordersRef(),
      schema: ORDERS_SCHEMA,
      timePartitioning: { type: 'DAY', field: 'placed_day' },
      clustering: { fields: ['placed_day', 'id'] },
    },
    PROJECT,
    DATASET,
  ]);
}

/** The file's runtime with the dataset and the orders table, made before its tests and closed after them. */
export function ordersRuntimeForFile(): () => GasRuntime {
  let runtime: GasRuntime | undefined;
  beforeAll(async () => {
    runtime = await bigQueryRuntime();
    await createOrdersTable(runtime);
  });
  afterAll(async () => {
    await runtime?.close();
  });
  return () => {
    if (!runtime) throw new Error('the runtime is made before the tests run');
    return runtime;
  };
}

/** The orders table as GoogleSQL names it. */
export const ORDERS_PATH = `\`${PROJECT}.${DATASET}.orders\``;

/** `id placed_day status` of the orders rows whose id starts with `prefix`, in `orderBy` order. */
export async function orderRowsOf(runtime: GasRuntime, prefix: string, orderBy = 'id, status'): Promise<string[]> {
  const answer = await call(runtime, 'bq', 'Jobs', 'query', [
    {
      query: `SELECT CONCAT(id, ' ', CAST(placed_day AS STRING), ' ', status) AS r FROM ${ORDERS_PATH} WHERE STARTS_WITH(id, '${prefix}') ORDER BY ${orderBy}`,
      useLegacySql: false,
    },
    PROJECT,
  ]);
  return (answer.rows ?? []).map((r) => String(r.f[0].v));
}
