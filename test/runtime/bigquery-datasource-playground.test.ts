/**
 * The playground's grid over Connected Sheets: it shows a data source sheet's preview and a data
 * source pivot's cells as BigQuery answered (a refresh appears once it has run on the runtime clock),
 * and keeps a data source sheet read-only, as Sheets does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlayground, type Playground } from '../../dev/playground/app';
import type { PlaygroundStack } from '../../dev/playground/types';
import type { GasRuntime } from '../../dev/gas-runtime/index.js';
import {
  BIGQUERY_DIST,
  bigQueryRuntime,
  call,
  createOrdersTable,
  DATASET,
  loadJob,
  ndjson,
  PAGE_1,
  PAGE_2,
  PROJECT,
  queryJob,
} from './bigquery-support.js';

const MONTHLY_QUERY = `SELECT DATE_TRUNC(placed_day, MONTH) AS month, net_revenue, net_profit FROM \`${PROJECT}.${DATASET}.orders\``;
const PIVOT_SHEET = 'Monthly (BigQuery)';

interface Cell {
  t: string;
}

let runtime: GasRuntime;
let playground: Playground;

async function cells(sheet: string): Promise<string[][]> {
  const response = await fetch(`${playground.url}playground/cells?sheet=${encodeURIComponent(sheet)}&from=1&count=20`);
  const body = (await response.json()) as { rows: Array<Array<Cell | null>> };
  return body.rows.filter((r) => r.length > 0).map((r) => r.map((c) => c?.t ?? ''));
}

async function post(route: string, body: unknown): Promise<{ status: number; message?: string }> {
  const response = await fetch(`${playground.url}playground/${route}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { error?: { message: string } };
  return { status: response.status, message: answer.error?.message };
}

beforeAll(async () => {
  runtime = await bigQueryRuntime();
  await createOrdersTable(runtime);
  await call(runtime, 'runJobs', PROJECT, [{ job: loadJob('orders'), lines: ndjson([...PAGE_1, ...PAGE_2]) }]);
  await call(runtime, 'connectOrders', PROJECT, DATASET, MONTHLY_QUERY, PIVOT_SHEET);
  const stack = {
    runtime,
    apiUrl: '',
    control: () => Promise.resolve(null),
    advanceClocks: (ms: number) => Promise.resolve(runtime.clock.advance(ms)),
    close: () => Promise.resolve(),
  } as unknown as PlaygroundStack;
  playground = await startPlayground({ stack, distDir: BIGQUERY_DIST, port: 0 });
});

afterAll(async () => {
  await playground?.close();
  await runtime?.close();
});

/** The data source sheet over the orders table: the sheet whose first header is `id`. */
function ordersSheetName(): string {
  const sheet = runtime.workbook!.sheets.find((s) => s.value(1, 1) === 'id');
  if (!sheet) throw new Error('no data source sheet over the orders table');
  return sheet.name;
}

describe('playground grid over Connected Sheets', () => {
  it('shows the data source sheet’s preview rows and refuses edits to it', async () => {
    const grid = await cells(ordersSheetName());
    expect(grid[0].slice(0, 3)).toEqual(['id', 'placed_day', 'placed_at']);
    expect(
      grid
        .slice(1)
        .map((r) => r[0])
        .sort(),
    ).toEqual([...PAGE_1, ...PAGE_2].map((o) => o.id).sort());
    const typed = await post('cell', { sheet: ordersSheetName(), row: 2, column: 1, input: 'x' });
    expect(typed.status).toBe(400);
    expect(typed.message).toBe(
      `${ordersSheetName()} is a data source sheet: its cells are BigQuery's and cannot be edited.`,
    );
    const deleted = await post('grid', { sheet: ordersSheetName(), edit: 'delete-row', row: 2 });
    expect(deleted.status).toBe(400);
    expect((await cells(ordersSheetName())).length).toBe(1 + PAGE_1.length + PAGE_2.length);
  });

  it('shows a refreshed pivot once its execution has run on the runtime clock', async () => {
    const march = [...PAGE_1, ...PAGE_2];
    const profit = (extra: number): string =>
      String((march.reduce((s, o) => s + Math.round(Number(o.net_profit) * 100), 0) + extra) / 100);
    expect((await cells(PIVOT_SHEET))[1].slice(0, 1)).toEqual(['2024-03-01']);
    expect((await cells(PIVOT_SHEET))[1][2]).toBe(profit(0));
    const bump = `UPDATE \`${PROJECT}.${DATASET}.orders\` SET net_profit = net_profit + 1 WHERE id = 'o-1'`;
    await call(runtime, 'runJobs', PROJECT, [{ job: queryJob(bump) }]);
    await call(runtime, 'refreshOnly');
    expect((await cells(PIVOT_SHEET))[1][2]).toBe(profit(0));
    runtime.clock.advance(2_000);
    expect((await cells(PIVOT_SHEET))[1][2]).toBe(profit(100));
  });
});
