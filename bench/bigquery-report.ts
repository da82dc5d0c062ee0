/** The BigQuery bench's section of results.json and its table in the bench README. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { BigQueryBound } from './bigquery-bound';

export interface BigQueryEntry {
  figures: Record<string, unknown> & {
    executions: number;
    api_requests: number;
    modelled_seconds: number;
    elapsed_seconds: number;
  };
  lower_bound: BigQueryBound;
}

export interface BigQueryResults {
  machine: Record<string, unknown>;
  workloads: Record<string, BigQueryEntry>;
}

/** Writes `bigquery` into results.json, keeping every other section as the file has it. */
export function writeBigQueryResults(file: string, section: BigQueryResults): void {
  const existing = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  writeFileSync(file, `${JSON.stringify({ ...existing, bigquery: section }, null, 2)}\n`);
}

const n = (v: unknown): string =>
  typeof v === 'number' ? v.toLocaleString('en-US') : v === undefined ? '–' : String(v);
const mb = (bytes: unknown): string => (typeof bytes === 'number' ? (bytes / 1e6).toFixed(1) : '–');

/** One line a workload: each figure beside its lower bound in brackets. */
export function bigQueryTable(results: BigQueryResults | undefined): string {
  if (!results || Object.keys(results.workloads).length === 0) return 'Not run yet: `npx tsx bench/bigquery.bench.ts`.';
  const m = results.machine;
  const lines = [
    `Store of ${n(m.orders)} orders, seed ${n(m.seed)}, emulator data generated at ${n(m.emulator_now)}; run started ${n(m.started_at)}; wall time ${n(m.wall_seconds)} s.`,
    '',
    '| workload | executions (min) | API requests (min) | API 429s | load jobs (min) | peak loads per table in 24 h / quota | DML jobs (min) / SELECT jobs | MB loaded (min) | modelled s (min) | BigQuery s | elapsed modelled s (min) | trigger min/day (min) | rows orders / line items | truth mismatches |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const [name, w] of Object.entries(results.workloads)) {
    const f = w.figures;
    const b = w.lower_bound as BigQueryBound & { trigger_minutes_per_day?: number };
    const rows = f.table_rows as Record<string, number> | undefined;
    const trigger =
      f.trigger_minutes_per_day === undefined
        ? '–'
        : `${n(f.trigger_minutes_per_day)} (${n(b.trigger_minutes_per_day)})`;
    lines.push(
      `| ${name} | ${n(f.executions)} (${n(b.executions)}) | ${n(f.api_requests)} (${n(b.api_requests)}) | ${n(f.api_429s)} | ${n(f.load_jobs)} (${n(b.load_jobs)}) | ${n(f.peak_loads_per_table_per_day)} / ${n(f.load_quota_per_table_per_day)} | ${n(f.dml_jobs)} (${n(b.dml_jobs)}) / ${n(f.select_jobs)} | ${mb(f.bytes_loaded)} (${mb(b.bytes_loaded)}) | ${n(f.modelled_seconds)} (${n(b.modelled_seconds)}) | ${n(f.bigquery_seconds)} | ${n(f.elapsed_seconds)} (${n(b.elapsed_seconds)}) | ${trigger} | ${rows ? `${n(rows.orders)} / ${n(rows.line_items)}` : '–'} | ${n(f.truth_mismatches)} |`,
    );
  }
  return lines.join('\n');
}
