/**
 * GoogleSQL the add-on emits, answered as BigQuery answers it although DuckDB runs it: each
 * expectation is GoogleSQL's documented result (GoogleSQL reference: "Lexical structure", "Date
 * functions", "Mathematical functions", "Conversion functions", "Query syntax"), or the runtime
 * clock for CURRENT_DATE.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GasRuntime } from '../../dev/gas-runtime/index.js';
import { bigQueryRuntime, call, createOrdersTable, DATASET, PROJECT, values, type Answer } from './bigquery-support.js';

let runtime: GasRuntime;

beforeAll(async () => {
  runtime = await bigQueryRuntime();
  await createOrdersTable(runtime);
});

afterAll(async () => {
  await runtime?.close();
});

async function row(query: string): Promise<Array<string | null>> {
  const answer = await call<Answer>(runtime, 'bq', 'Jobs', 'query', [{ query, useLegacySql: false }, PROJECT]);
  return values(answer.rows[0]);
}

describe('GoogleSQL translated for DuckDB', () => {
  it('reads GoogleSQL string literals: double quotes are strings, backslash escapes', async () => {
    expect(await row(String.raw`SELECT "it's" AS a, 'back\'slash' AS b, r'\d+' AS c`)).toEqual([
      "it's",
      "back'slash",
      '\\d+',
    ]);
  });

  it('truncates dates to DATEs, ISO weeks starting on Monday', async () => {
    expect(
      await row(
        "SELECT DATE_TRUNC(DATE '2024-03-17', MONTH) AS m, DATE_TRUNC(DATE '2024-03-17', ISOWEEK) AS w, DATE_TRUNC(DATE '2024-05-17', QUARTER) AS q",
      ),
    ).toEqual(['2024-03-01', '2024-03-11', '2024-04-01']);
  });

  it('formats dates, divides safely, casts and safe-casts', async () => {
    expect(
      await row(
        "SELECT FORMAT_DATE('%F %b %Y', DATE '2024-03-05'), SAFE_DIVIDE(1, 0), SAFE_DIVIDE(3, 4), CAST('12.50' AS NUMERIC), SAFE_CAST('x' AS INT64), CAST(7 AS STRING)",
      ),
    ).toEqual(['2024-03-05 Mar 2024', null, '0.75', '12.5', null, '7']);
  });

  it('reads a TIMESTAMP literal with its zone as the UTC instant', async () => {
    // 2024-03-01 10:00 at +02:00 is 08:00 UTC: 1,709,280,000 s.
    expect(await row("SELECT TIMESTAMP '2024-03-01 10:00:00+02:00'")).toEqual(['1.70928E9']);
  });

  it('takes CURRENT_DATE() from the runtime clock, not the host', async () => {
    const today = new Date(runtime.clock.now()).toISOString().slice(0, 10);
    expect(await row('SELECT CURRENT_DATE()')).toEqual([today]);
  });

  it('keeps SELECT * EXCEPT and a dataset.table path in the job’s project', async () => {
    const answer = await call<Answer>(runtime, 'bq', 'Jobs', 'query', [
      { query: `SELECT * EXCEPT (placed_at, status) FROM \`${DATASET}.orders\``, useLegacySql: false },
      PROJECT,
    ]);
    expect(answer.schema.fields.map((f) => f.name)).toEqual(['id', 'placed_day', 'items', 'net_revenue', 'net_profit']);
  });

  it('refuses legacy SQL, which is the API’s default', async () => {
    const answer = await call<Answer>(runtime, 'tryBq', 'Jobs', 'query', [{ query: 'SELECT 1' }, PROJECT]);
    expect(answer.error).toBe(
      'API call to bigquery.jobs.query failed with error: Unsupported by the local BigQuery stand-in: legacy SQL (set useLegacySql: false)',
    );
  });
});
