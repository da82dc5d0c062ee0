/**
 * Connected Sheets through the runtime as the add-on will drive it: orders loaded with BigQuery.Jobs,
 * a data source sheet over the orders table, a pivot of SUM(net_revenue) and SUM(net_profit) by
 * month (a query spec's month column: the runtime refuses a date-time grouping rule on a data source
 * pivot), refreshed after a MERGE. Expected sums are computed here from the loaded orders.
 */
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type GasRuntime } from '../../dev/gas-runtime/index.js';
import {
  BIGQUERY_DIST,
  bigQueryRuntime,
  call,
  createOrdersTable,
  DATASET,
  loadJob,
  MERGE_STAGED,
  ndjson,
  ORDERS_SCHEMA,
  PAGE_1,
  PAGE_2,
  PROJECT,
  queryJob,
  STAGED,
  type Order,
} from './bigquery-support.js';
import { QUERY_JOB_MS } from '../../dev/gas-runtime/bigquery/timing.js';
import { DATA_EXECUTION_REQUEST_MS, DATA_SOURCE_READ_MS } from '../../dev/gas-runtime/spreadsheet/data-source-cost.js';

const APRIL: Order[] = [
  {
    id: 'o-7',
    placed_day: '2024-04-01',
    placed_at: '2024-04-01T04:00:00Z',
    status: 'paid',
    items: 1,
    net_revenue: '70.10',
    net_profit: '21.05',
  },
  {
    id: 'o-8',
    placed_day: '2024-04-30',
    placed_at: '2024-04-30T22:00:00Z',
    status: 'paid',
    items: 5,
    net_revenue: '410.99',
    net_profit: '-12.34',
  },
];

const MONTHLY_QUERY = `SELECT DATE_TRUNC(placed_day, MONTH) AS month, net_revenue, net_profit FROM \`${PROJECT}.${DATASET}.orders\``;
const PIVOT_SHEET = 'Monthly (BigQuery)';
const BIGQUERY_SCOPE = 'https://www.googleapis.com/auth/bigquery';
const USER = 'finance@example.com';

interface PivotGrid {
  display: string[][];
  values: unknown[][];
}

interface Connected {
  runningAtInsert: string;
  ordersState: string;
  ordersType: string;
  ordersTypeByName: string;
  pivotSheetType: string;
  ids: string[];
  truncated: boolean;
  pivotState: string;
  dataSourceSheets: number;
  pivot: PivotGrid;
}

interface TableStatus {
  error?: string;
  state: string;
  code: string;
  message: string;
  truncated: boolean;
  rows: number;
}

const cents = (amount: string): number => Math.round(Number(amount) * 100);

/** The pivot as the orders say it should read: header, [month, revenue, profit] by month, Grand Total. */
function expectedPivot(orders: Order[]): Array<Array<string | number>> {
  const months = [...new Set(orders.map((o) => `${o.placed_day.slice(0, 7)}-01`))].sort();
  const sums = (list: Order[]): number[] => [
    list.reduce((s, o) => s + cents(o.net_revenue), 0) / 100,
    list.reduce((s, o) => s + cents(o.net_profit), 0) / 100,
  ];
  return [
    ['month', 'SUM of net_revenue', 'SUM of net_profit'],
    ...months.map((m) => [m, ...sums(orders.filter((o) => o.placed_day.startsWith(m.slice(0, 7))))]),
    ['Grand Total', ...sums(orders)],
  ];
}

/** The pivot grid read back: month text from the display, sums as the cells' numbers. */
function pivotRows(grid: PivotGrid): Array<Array<string | number>> {
  return grid.display.map((row, r) =>
    r === 0 ? row : [row[0], ...grid.values[r].slice(1).map((v) => Math.round(Number(v) * 100) / 100)],
  );
}

function mergedOrders(): Order[] {
  const byId = new Map([...PAGE_1, ...PAGE_2, ...APRIL].map((o) => [o.id, o]));
  for (const o of STAGED) byId.set(o.id, o);
  return [...byId.values()];
}

let runtime: GasRuntime;

beforeAll(async () => {
  runtime = await bigQueryRuntime();
  await createOrdersTable(runtime);
  await call(runtime, 'runJobs', PROJECT, [
    { job: loadJob('orders'), lines: ndjson(PAGE_1) },
    { job: loadJob('orders'), lines: ndjson([...PAGE_2, ...APRIL]) },
  ]);
});

afterAll(async () => {
  await runtime?.close();
});

describe('Connected Sheets over the runtime BigQuery: data source sheet and monthly pivot', () => {
  it('refuses a data source sheet while BigQuery data execution is not enabled', async () => {
    const answer = await call<TableStatus>(runtime, 'connectTable', PROJECT, DATASET, 'orders', false);
    expect(answer.error).toBe(
      'Data execution for BigQuery data sources is not enabled. Call SpreadsheetApp.enableBigQueryExecution() first.',
    );
  });

  it('shows the orders table in a DATASOURCE sheet and the monthly sums in a pivot', async () => {
    const result = await runtime.run('connectOrders', [PROJECT, DATASET, MONTHLY_QUERY, PIVOT_SHEET]);
    expect(result.error).toBeUndefined();
    const connected = result.value as Connected;
    expect(connected.runningAtInsert).toBe('RUNNING');
    expect(connected.ordersState).toBe('SUCCESS');
    expect(connected.ordersType).toBe('DATASOURCE');
    expect(connected.ordersTypeByName).toBe('DATASOURCE');
    expect(connected.pivotSheetType).toBe('GRID');
    expect(connected.dataSourceSheets).toBe(2);
    const loaded = [...PAGE_1, ...PAGE_2, ...APRIL];
    expect([...connected.ids].sort()).toEqual(loaded.map((o) => o.id).sort());
    expect(connected.truncated).toBe(false);
    expect(connected.pivotState).toBe('SUCCESS');
    expect(pivotRows(connected.pivot)).toEqual(expectedPivot(loaded));
    // Each execution runs for a BigQuery query's modelled second, waited for on the runtime clock.
    expect(result.elapsedMs).toBeGreaterThanOrEqual(1_000);
    expect(result.counts.byMethod['DataSourceSheet.waitForCompletion']).toBe(2);
    expect(result.counts.modelledMsByService.SpreadsheetApp).toBeGreaterThanOrEqual(2 * 330);
  });

  it('shows the new monthly sums after a MERGE changes an order and the data sources refresh', async () => {
    await call(runtime, 'runJobs', PROJECT, [
      {
        job: loadJob('orders_stage', { schema: ORDERS_SCHEMA, writeDisposition: 'WRITE_TRUNCATE' }),
        lines: ndjson(STAGED),
      },
      { job: queryJob(MERGE_STAGED) },
    ]);
    const before = await call<PivotGrid>(runtime, 'pivotGrid', PIVOT_SHEET);
    expect(pivotRows(before)).toEqual(expectedPivot([...PAGE_1, ...PAGE_2, ...APRIL]));
    const refreshed = await call<{ states: string[]; pivot: PivotGrid }>(runtime, 'refreshConnected', PIVOT_SHEET);
    expect(refreshed.states).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS']);
    expect(pivotRows(refreshed.pivot)).toEqual(expectedPivot(mergedOrders()));
  });

  it('draws a refresh on the grid only once it has run: the pivot read at once is the old one', async () => {
    const bump = `UPDATE \`${PROJECT}.${DATASET}.orders\` SET net_profit = net_profit + 1 WHERE id = 'o-7'`;
    await call(runtime, 'runJobs', PROJECT, [{ job: queryJob(bump) }]);
    const read = await call<{ during: PivotGrid; after: PivotGrid }>(runtime, 'refreshThenRead', PIVOT_SHEET, 2_000);
    const bumped = mergedOrders().map((o) => (o.id === 'o-7' ? { ...o, net_profit: '22.05' } : o));
    expect(pivotRows(read.during)).toEqual(expectedPivot(mergedOrders()));
    expect(pivotRows(read.after)).toEqual(expectedPivot(bumped));
  });

  it('is refused in a custom function, as every call that needs authorization', async () => {
    const result = await runtime.run('dataSourceCount', [], { authMode: 'CUSTOM_FUNCTION' });
    expect(result.error?.message).toBe('You do not have permission to call Spreadsheet.getDataSources');
  });

  it('ends a data source whose table does not exist in ERROR with DATA_NOT_FOUND and BigQuery’s message', async () => {
    const status = await call<TableStatus>(runtime, 'connectTable', PROJECT, DATASET, 'no_such_table', true);
    expect(status.error).toBeUndefined();
    expect(status.state).toBe('ERROR');
    expect(status.code).toBe('DATA_NOT_FOUND');
    expect(status.message).toBe(`Not found: Table ${PROJECT}:${DATASET}.no_such_table was not found in location US`);
  });

  it('previews 500 rows of a bigger table and says the data is truncated', async () => {
    const many: Order[] = Array.from({ length: 501 }, (_, i) => ({ ...PAGE_1[0], id: `big-${i}` }));
    await call(runtime, 'runJobs', PROJECT, [
      { job: loadJob('orders_big', { schema: ORDERS_SCHEMA }), lines: ndjson(many) },
    ]);
    const status = await call<TableStatus>(runtime, 'connectTable', PROJECT, DATASET, 'orders_big', true);
    expect(status.state).toBe('SUCCESS');
    expect(status.rows).toBe(500);
    expect(status.truncated).toBe(true);
  });

  it('is RUNNING until its modelled end; waitForCompletion throws when it times out first, and each wait is charged', async () => {
    const result = await runtime.run('refreshAndWait', [0.1]);
    expect(result.error).toBeUndefined();
    const answer = result.value as { running: string; error: string | null; after: string; finally: string };
    expect(answer.running).toBe('RUNNING');
    expect(answer.error).toBe('The data execution did not complete within 0.1 seconds.');
    expect(answer.after).toBe('RUNNING');
    expect(answer.finally).toBe('SUCCESS');
    // The execution lasts QUERY_JOB_MS from refreshData. Calls before the first wait: refreshData, getStatus.
    const toFirstWait = DATA_EXECUTION_REQUEST_MS + DATA_SOURCE_READ_MS;
    const timedOut = 100;
    const secondWait = QUERY_JOB_MS - (toFirstWait + DATA_SOURCE_READ_MS + timedOut + DATA_SOURCE_READ_MS);
    // enableBigQueryExecution, getActive and three getExecutionState: the runtime's 10 ms for other SpreadsheetApp calls.
    const navigation = 5 * 10;
    expect(result.counts.modelledMsByService.SpreadsheetApp).toBe(
      navigation +
        DATA_SOURCE_READ_MS + // getDataSourceSheets
        toFirstWait +
        (DATA_SOURCE_READ_MS + timedOut) +
        DATA_SOURCE_READ_MS + // getStatus after the timeout
        (DATA_SOURCE_READ_MS + Math.max(0, secondWait)),
    );
  });

  it('refuses a date-time grouping rule on a data source pivot group (the add-on groups by a month column)', async () => {
    const answer = await call<{ error: string | null }>(runtime, 'groupByMonthRule', 'Grouping');
    expect(answer.error).toMatch(
      /^Unsupported by the local runtime: a date-time grouping rule on a data source pivot table/,
    );
  });

  it('needs the bigquery scope: a user who withheld it is refused', async () => {
    runtime.consent.withdraw(USER, BIGQUERY_SCOPE);
    try {
      const answer = await call<TableStatus>(runtime, 'connectTable', PROJECT, DATASET, 'orders', true);
      expect(answer.error).toBe(
        `You do not have permission to call Spreadsheet.insertDataSourceSheet. Required permissions: ${BIGQUERY_SCOPE}`,
      );
    } finally {
      runtime.consent.grant(USER);
    }
  });
});

/** The fixture bundle under a manifest whose oauthScopes are `scopes`. */
async function runtimeWithScopes(scopes: string[]): Promise<{ runtime: GasRuntime; dispose: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bq-datasource-'));
  await copyFile(path.join(BIGQUERY_DIST, 'Code.js'), path.join(dir, 'Code.js'));
  const manifest = JSON.parse(await readFile(path.join(BIGQUERY_DIST, 'appsscript.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  await writeFile(path.join(dir, 'appsscript.json'), JSON.stringify({ ...manifest, oauthScopes: scopes }));
  const scoped = await createRuntime({ distDir: dir, user: { email: USER }, modelledTimeOnly: true });
  return {
    runtime: scoped,
    dispose: async () => {
      await scoped.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

describe('Connected Sheets and the manifest’s scopes', () => {
  const SPREADSHEETS = 'https://www.googleapis.com/auth/spreadsheets';

  it('is refused when the manifest lists no BigQuery scope', async () => {
    const { runtime: scoped, dispose } = await runtimeWithScopes([SPREADSHEETS]);
    try {
      const answer = await call<TableStatus>(scoped, 'connectTable', PROJECT, DATASET, 'orders', true);
      expect(answer.error).toBe(
        `You do not have permission to call Spreadsheet.insertDataSourceSheet. Required permissions: ${BIGQUERY_SCOPE}`,
      );
    } finally {
      await dispose();
    }
  });

  it('executes with bigquery.readonly, the scope enableBigQueryExecution adds (guides/sheets/connected-sheets)', async () => {
    const { runtime: scoped, dispose } = await runtimeWithScopes([
      SPREADSHEETS,
      'https://www.googleapis.com/auth/bigquery.readonly',
    ]);
    try {
      const answer = await call<TableStatus>(scoped, 'connectTable', PROJECT, DATASET, 'orders', true);
      expect(answer.error).toBeUndefined();
      // This runtime's warehouse has no such dataset: the execution ran, and BigQuery answered.
      expect([answer.state, answer.code]).toEqual(['ERROR', 'DATA_NOT_FOUND']);
    } finally {
      await dispose();
    }
  });

  it('DataSource.updateSpec: the linked sheet executes the new spec; a spec without a billing project is refused', async () => {
    const query = `SELECT id FROM \`${PROJECT}.${DATASET}.orders\` WHERE id = '${PAGE_1[0].id}'`;
    const answer = await call<{ refused: string | null; state: string; rawQuery: string; ids: unknown[] }>(
      runtime,
      'updateOrdersSpec',
      PROJECT,
      query,
    );
    expect(answer.refused).toMatch(/lacks/);
    expect(answer.state).toBe('SUCCESS');
    expect(answer.rawQuery).toBe(query);
    expect(answer.ids).toEqual([PAGE_1[0].id]);
  });
});
