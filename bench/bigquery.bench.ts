/**
 * The scale BigQuery is for: a store of 1,000,000 orders synced into BigQuery through the add-on on the
 * strict runtime (Google's quotas on, BigQuery's load, DML and request limits enforced by the
 * stand-in), the clocks moving by modelled time only. Same seed and instant as sync-costs.
 *   backfill   "Sync now" in the sidebar, step after step; when the API's hourly allowance pauses
 *              it, Sync now again after the time the sidebar names (as the sidebar tells the user);
 *              then orders and line_items against /_emulator/truth/orders row for row, a slice of
 *              ids at a time, through queries on the stand-in.
 *   hourly_1pct 1 % of the orders change over the hour, then the hourly trigger until caught up.
 * Each beside its lower bound from the limits alone (bigquery-bound.ts). Writes the `bigquery`
 * section of results.json (the rest kept as it is); never passes or fails on time.
 * Usage: npx tsx bench/bigquery.bench.ts [--orders 1000000] [--out FILE]
 *   (npm run bench runs it at BIGQUERY_BENCH_ORDERS orders, 1,000,000 when not set)
 */
import http from 'node:http';
import path from 'node:path';
import type { ExecutionResult } from '../dev/gas-runtime/index';
import type { JobRecord } from '../dev/gas-runtime/bigquery/job-record';
import { LOAD_JOBS_PER_TABLE_PER_DAY } from '../dev/gas-runtime/bigquery/limits';
import type { Stack } from '../dev/harness/index';
import { compareTablesWithTruth, DATASET, PROJECT, type QueryAnswer } from '../test/integration/bigquery-support';
import { ensureHourlySchedule, hourlyTrigger } from './drivers';
import { figuresOf } from './figures';
import { bigQueryBound, type BigQueryBoundInput } from './bigquery-bound';
import { type BigQueryEntry, type BigQueryResults, bigQueryTable, writeBigQueryResults } from './bigquery-report';
import { BENCH_NOW, startBenchStack } from './stack';

const HOUR_MS = 3_600_000;
const DESTINATION = { kind: 'bigquery', projectId: PROJECT, datasetId: DATASET };
/** Orders compared with the truth at a time: a slice's rows stay well within memory. */
const SLICE = 5_000;

type Json = Record<string, unknown>;

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const benchStarted = Date.now();
function phase(text: string): void {
  process.stderr.write(`[bigquery bench ${Math.round((Date.now() - benchStarted) / 1000)} s] ${text}\n`);
}

/**
 * Sync now as the sidebar runs it: runSyncStep({start}) then runSyncStep while not done; a step
 * that answers a pause ends that Sync now, and the user presses it again after the time it names.
 */
async function syncNowUntilCaughtUp(stack: Stack): Promise<{ results: ExecutionResult[]; sessions: number }> {
  const results: ExecutionResult[] = [];
  let sessions = 1;
  let start = true;
  for (let i = 0; i < 20_000; i++) {
    const result = await stack.runtime.run('runSyncStep', start ? [{ start: true }] : []);
    start = false;
    results.push(result);
    if (!result.ok) throw new Error(`sidebar step failed: ${result.error?.message ?? ''}`);
    const reply = result.value as {
      done?: boolean;
      phase?: string;
      pausedUntil?: string | null;
      problem?: { userMessage?: string } | null;
    };
    if (reply.problem) throw new Error(`Sync now stopped: ${reply.problem.userMessage ?? ''}`);
    if (reply.done) return { results, sessions };
    if (reply.pausedUntil) {
      const wait = Date.parse(reply.pausedUntil) - stack.runtime.clock.now();
      phase(`paused (${reply.phase ?? ''}); Sync now again in ${Math.round(wait / 60_000)} min`);
      await stack.advanceClocks(Math.max(0, wait) + 1_000);
      sessions++;
      start = true;
    }
  }
  throw new Error('Sync now did not catch up in 20,000 steps');
}

/** The add-on's BigQuery jobs since `before` (the bench's own comparison queries run as another user). */
function addOnJobs(stack: Stack, before: ReadonlySet<JobRecord>): JobRecord[] {
  return [...stack.runtime.bigquery.jobs.values()].filter((j) => !before.has(j) && j.userEmail !== 'test@example.com');
}

/** The most loads any one table took in any 24 hours (the daily quota's rolling window). */
function peakLoadsPerTableDay(jobs: readonly JobRecord[]): number {
  const byTable = new Map<string, number[]>();
  for (const j of jobs)
    if (j.kind === 'LOAD' && j.target) {
      const key = j.target.tableId;
      byTable.set(key, [...(byTable.get(key) ?? []), j.creationTime]);
    }
  let peak = 0;
  for (const times of byTable.values()) {
    times.sort((a, b) => a - b);
    let from = 0;
    for (let i = 0; i < times.length; i++) {
      while (times[i] - times[from] >= 24 * HOUR_MS) from++;
      peak = Math.max(peak, i - from + 1);
    }
  }
  return peak;
}

function jobFigures(jobs: readonly JobRecord[]): Json {
  const loads = jobs.filter((j) => j.kind === 'LOAD');
  const stageOf = (j: JobRecord): string => (j.target?.tableId ?? '?').replace(/_stage_.*$/, '');
  const named: Record<string, number> = {};
  for (const j of loads) named[stageOf(j)] = (named[stageOf(j)] ?? 0) + 1;
  const dml = jobs.filter((j) => j.kind === 'QUERY' && /^\s*(MERGE|DELETE|UPDATE|INSERT)\b/i.test(queryText(j)));
  return {
    load_jobs: loads.length,
    load_jobs_named: named,
    dml_jobs: dml.length,
    select_jobs: jobs.filter((j) => j.kind === 'QUERY').length - dml.length,
    bytes_loaded: loads.reduce((n, j) => n + (j.mediaBytes ?? 0), 0),
    failed_jobs: jobs.filter((j) => j.outcome?.failure).length,
    peak_loads_per_table_per_day: peakLoadsPerTableDay(jobs),
    load_quota_per_table_per_day: LOAD_JOBS_PER_TABLE_PER_DAY,
  };
}

function queryText(j: JobRecord): string {
  const q = (j.configuration.query ?? {}) as { query?: unknown };
  return typeof q.query === 'string' ? q.query : '';
}

function entry(
  results: ExecutionResult[],
  orders: number,
  jobs: readonly JobRecord[],
  elapsedMs: number,
  bound: BigQueryBoundInput,
  extra: Json,
): BigQueryEntry {
  const f = figuresOf({ results, sheetsWritesPerMinuteMax: 0, orders });
  const bigQueryMs = results.reduce((n, r) => n + (r.counts.modelledMsByService.BigQuery ?? 0), 0);
  const figures = {
    executions: f.executions,
    api_requests: f.api_requests,
    api_requests_by_endpoint: f.api_requests_by_endpoint,
    api_429s: f.api_429s,
    timed_out: f.timed_out,
    bigquery_calls: results.reduce(
      (n, r) => n + Object.entries(r.counts.byMethod).reduce((m, [k, c]) => m + (k.startsWith('BigQuery.') ? c : 0), 0),
      0,
    ),
    ...jobFigures(jobs),
    modelled_seconds: f.modelled_seconds,
    bigquery_seconds: Math.round(bigQueryMs / 100) / 10,
    waiting_seconds: f.time_split_seconds.waiting,
    elapsed_seconds: Math.round(elapsedMs / 100) / 10,
    peak_heap_mb: f.peak_heap_mb,
    ...extra,
  };
  return { figures, lower_bound: bigQueryBound(bound) };
}

/** The tables against the truth a slice of ids at a time; the rows' least text counted on the way (the bound's bytes). */
async function compareAll(
  stack: Stack,
): Promise<{ mismatches: number; rows: Record<string, number>; bytes: Record<string, number> }> {
  let mismatches = 0;
  const rows: Record<string, number> = { orders: 0, line_items: 0 };
  const bytes: Record<string, number> = { orders: 0, line_items: 0 };
  const count = (tableId: string, answer: QueryAnswer): void => {
    rows[tableId] += answer.rows.length;
    bytes[tableId] += leastCsvBytes(answer);
  };
  const total = ((await stack.truth('orders?offset=0&limit=0')) as { total: number }).total;
  for (let offset = 0; offset < total; offset += SLICE) {
    const orders = ((await stack.truth(`orders?offset=${offset}&limit=${SLICE}`)) as { data: Json[] }).data;
    const slice = { orders, firstId: String(orders[0].id), lastId: String(orders[orders.length - 1].id) };
    const c = await compareTablesWithTruth(stack, slice, count);
    mismatches += c.mismatches.length + c.missing.length + c.unexpected.length + c.duplicates.length;
    if (offset % (SLICE * 40) === 0) phase(`compared ${offset + orders.length} of ${total} orders`);
  }
  return { mismatches, rows, bytes };
}

/**
 * The least text that loads these rows: CSV, values only (no field names, NULL empty), a comma
 * between values and a line end; instants as "YYYY-MM-DD HH:MM:SS" with their fraction, if any.
 * (Compressed binary formats could be smaller still: this bound is for the text formats a script sends.)
 */
function leastCsvBytes(answer: QueryAnswer): number {
  const types = answer.schema.fields.map((f) => f.type);
  const names = answer.schema.fields.map((f) => f.name);
  let bytes = 0;
  for (const row of answer.rows) {
    bytes += names.length; // the commas and the line end
    names.forEach((name, i) => {
      const v = row[name];
      if (v === null || v === undefined) return;
      if (types[i] === 'TIMESTAMP') {
        const micros = Number(v) % 1_000_000;
        bytes += 19 + (micros === 0 ? 0 : 1 + String(micros).padStart(6, '0').replace(/0+$/, '').length);
      } else bytes += Buffer.byteLength(v);
    });
  }
  return bytes;
}

async function main(): Promise<void> {
  http.globalAgent = new http.Agent({ keepAlive: false });
  const size = Number(option('--orders') ?? process.env.BIGQUERY_BENCH_ORDERS ?? 1_000_000);
  const out = option('--out') ?? path.join(__dirname, 'results.json');
  const label = size >= 1_000_000 ? `${size / 1_000_000}m` : size >= 1000 ? `${size / 1000}k` : String(size);
  phase(`${label}: generating the store and connecting`);
  const bench = await startBenchStack(size);
  const stack = bench.stack;
  const results: BigQueryResults = {
    machine: {
      orders: size,
      seed: 1,
      emulator_now: new Date(BENCH_NOW).toISOString(),
      command: `node --max-old-space-size=12288 --import tsx bench/bigquery.bench.ts --orders ${size}`,
      started_at: new Date().toISOString(),
      wall_seconds: 0,
    },
    workloads: {},
  };
  try {
    const set = await stack.runtime.run('setOrdersDestination', [DESTINATION]);
    if (!set.ok) throw new Error(`setOrdersDestination: ${set.error?.message ?? ''}`);
    const products = ((await stack.truth('products')) as { data: unknown[] }).data.length;

    phase(`${label}: backfill into BigQuery`);
    let before = new Set(stack.runtime.bigquery.jobs.values());
    let startedAt = stack.runtime.clock.now();
    const backfill = await syncNowUntilCaughtUp(stack);
    let elapsed = stack.runtime.clock.now() - startedAt;
    let jobs = addOnJobs(stack, before);
    phase(`${label}: comparing the tables with the truth`);
    const compared = await compareAll(stack);
    const dailyRows = ((await stack.truth('daily')) as { data: unknown[] }).data.length;
    results.workloads[`backfill_${label}`] = entry(
      backfill.results,
      size,
      jobs,
      elapsed,
      {
        records: size,
        fixedRequests: {
          account: 1,
          products_pages: Math.ceil(products / 250),
          daily_pnl_pages: Math.ceil(dailyRows / 400),
        },
        tableBytes: compared.bytes,
        dmlPerTable: 0,
      },
      { sync_now_sessions: backfill.sessions, table_rows: compared.rows, truth_mismatches: compared.mismatches },
    );
    report(`backfill_${label}`, results.workloads[`backfill_${label}`]);
    writeBigQueryResults(out, results);

    await stack.advanceClocks(HOUR_MS);
    const uid = await ensureHourlySchedule(stack);
    phase(`${label}: 1 % of the orders change over the hour`);
    const changedCount = Math.max(1, Math.round(size / 100));
    const total = size;
    const changedIds = new Set<string>();
    let changedLines = 0;
    for (let i = 0; i < changedCount; i++) {
      const at = (i * 97) % total;
      const one = ((await stack.truth(`orders?offset=${at}&limit=1`)) as { data: Json[] }).data[0];
      if (!changedIds.has(String(one.id))) changedLines += (one.line_items as unknown[]).length;
      changedIds.add(String(one.id));
      await stack.control(`orders/${String(one.id)}/change`, { kind: 'cost_correction' });
      await stack.advanceClocks(Math.floor(HOUR_MS / changedCount));
    }
    phase(`${label}: hourly runs`);
    before = new Set(stack.runtime.bigquery.jobs.values());
    startedAt = stack.runtime.clock.now();
    const hourly = await hourlyTrigger(stack, uid);
    elapsed = stack.runtime.clock.now() - startedAt;
    jobs = addOnJobs(stack, before);
    phase(`${label}: comparing the tables with the truth`);
    const after = await compareAll(stack);
    const changedBytes = changedRowsBytes(changedLines, changedIds.size, compared.bytes, compared.rows);
    const hourlyFigures = figuresOf({ results: hourly.results, sheetsWritesPerMinuteMax: 0, orders: size });
    results.workloads[`hourly_1pct_${label}`] = entry(
      hourly.results,
      size,
      jobs,
      elapsed,
      {
        records: changedCount,
        fixedRequests: { account: 1, products_changes: 1, daily_pnl_window: 1 },
        tableBytes: changedBytes,
        dmlPerTable: 1,
      },
      {
        done: hourly.done,
        note: hourly.note,
        changed_orders: changedCount,
        truth_mismatches: after.mismatches,
        trigger_minutes_per_day: Math.round(((24 * hourlyFigures.modelled_seconds) / 60) * 10) / 10,
      },
    );
    const h = results.workloads[`hourly_1pct_${label}`];
    (h.lower_bound as unknown as Json).trigger_minutes_per_day =
      Math.round(((24 * h.lower_bound.modelled_seconds) / 60) * 10) / 10;
    report(`hourly_1pct_${label}`, h);
  } finally {
    await bench.close();
    results.machine.wall_seconds = Math.round((Date.now() - benchStarted) / 1000);
    writeBigQueryResults(out, results);
  }
  console.log(`\n${bigQueryTable(results)}\n\nwrote the bigquery section of ${out}`);
}

/** The changed orders' share of each table's least NDJSON: their rows over all rows (line items counted from the truth). */
function changedRowsBytes(
  changedLines: number,
  changedOrders: number,
  bytes: Record<string, number>,
  rows: Record<string, number>,
): Record<string, number> {
  return {
    orders: Math.floor((bytes.orders * changedOrders) / Math.max(1, rows.orders)),
    line_items: Math.floor((bytes.line_items * changedLines) / Math.max(1, rows.line_items)),
  };
}

function report(name: string, e: BigQueryEntry): void {
  const f = e.figures;
  const b = e.lower_bound;
  console.log(
    `${name.padEnd(20)} executions ${f.executions} (${b.executions}) | API ${f.api_requests} (${b.api_requests}) | loads ${f.load_jobs} (${b.load_jobs}) | DML ${f.dml_jobs} (${b.dml_jobs}) | ` +
      `MB loaded ${Math.round(Number(f.bytes_loaded) / 1e5) / 10} (${Math.round(b.bytes_loaded / 1e5) / 10}) | modelled ${f.modelled_seconds} s (${b.modelled_seconds}) | ` +
      `elapsed ${f.elapsed_seconds} s (${b.elapsed_seconds}) | mismatches ${String(f.truth_mismatches)}`,
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
