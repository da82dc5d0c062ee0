/** The bench's tables (Markdown, so the bench README can carry the latest run) and writing results.json. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { BigQueryResults } from './bigquery-report';
import type { Figures } from './figures';
import type { LowerBound } from './lower-bound';
import { ratio } from './lower-bound';

export interface AlternativeEntry extends Figures {
  done: boolean;
  note: string;
  /** Its figure over ours (c) for the same workload: requests, Sheets calls, cells, modelled time. */
  ratio_to_ours: Record<string, number | null>;
}

export interface WorkloadEntry {
  figures: Figures & Record<string, unknown>;
  lower_bound: LowerBound & { ours_ratio: Record<string, number | null> };
  alternatives: Record<string, AlternativeEntry>;
}

export interface Results {
  machine: Record<string, unknown>;
  workloads: Record<string, WorkloadEntry>;
  /** bench/bigquery.bench.ts's own section (its run and its machine line). */
  bigquery?: BigQueryResults;
}

export function oursRatio(f: Figures, lb: LowerBound): Record<string, number | null> {
  return {
    api_requests: ratio(f.api_requests, lb.api_requests),
    sheets_write_requests: ratio(f.sheets_write_requests, lb.sheets_write_requests),
    cells_written: ratio(f.cells_written, lb.cells_written),
    modelled_seconds: ratio(f.modelled_seconds, lb.modelled_seconds),
    executions: ratio(f.executions, lb.executions),
  };
}

export function ratioToOurs(alt: Figures, ours: Figures): Record<string, number | null> {
  return {
    api_requests: ratio(alt.api_requests, ours.api_requests),
    sheets_calls: ratio(alt.sheets_calls, ours.sheets_calls),
    cells_written: ratio(alt.cells_written, ours.cells_written),
    modelled_seconds: ratio(alt.modelled_seconds, ours.modelled_seconds),
    executions: ratio(alt.executions, ours.executions),
  };
}

const n = (x: number | null | undefined): string => (x === null || x === undefined ? '–' : x.toLocaleString('en-US'));
const x = (r: number | null | undefined): string => (r === null || r === undefined ? '–' : `${r}×`);

function kinds(f: Figures): string {
  const k = f.sheets_calls_by_kind;
  return `${n(f.sheets_calls)} (API ${k.api_write}w/${k.api_read}r, App ${k.spreadsheetapp_write}w/${k.spreadsheetapp_read}r/${k.spreadsheetapp_flush}f/${k.spreadsheetapp_other}o)`;
}

function split(f: Figures): string {
  const s = f.time_split_seconds;
  return `${n(f.modelled_seconds)} (${s.api} / ${s.sheets} / ${s.waiting} / ${s.javascript} / ${s.storage})`;
}

export function workloadTable(results: Results): string {
  const lines = [
    '| workload | executions (min) | API requests (min) | API 429s / Sheets quota refusals | Sheets calls by kind | Sheets API writes/min max | cells written (min) / read | bytes received | modelled s (API / Sheets / waiting / JS / storage) (min) | JS CPU ms per 1k orders | peak heap MB | hourly API budget | trigger min/day |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const [name, w] of Object.entries(results.workloads)) {
    const f = w.figures;
    const lb = w.lower_bound;
    const trigger = typeof f.trigger_minutes_per_day === 'number' ? n(f.trigger_minutes_per_day as number) : '–';
    lines.push(
      `| ${name} | ${f.executions} (${lb.executions}) | ${n(f.api_requests)} (${n(lb.api_requests)}) | ${f.api_429s} / ${f.sheets_quota_refusals} | ${kinds(f)} | ${f.sheets_writes_per_minute_max} | ${n(f.cells_written)} (${n(lb.cells_written)}) / ${n(f.cells_read)} | ${n(f.bytes_received)} | ${split(f)} (${n(lb.modelled_seconds)}) | ${n(f.js_cpu_ms_per_1000_orders)} | ${f.peak_heap_mb} | ${f.hourly_api_budget_share_pct} % | ${trigger} |`,
    );
  }
  return lines.join('\n');
}

export function ratioTable(results: Results): string {
  const lines = [
    '| workload | API requests | Sheets write requests | cells written | modelled time | executions |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const [name, w] of Object.entries(results.workloads)) {
    const r = w.lower_bound.ours_ratio;
    lines.push(
      `| ${name} | ${x(r.api_requests)} | ${x(r.sheets_write_requests)} | ${x(r.cells_written)} | ${x(r.modelled_seconds)} | ${x(r.executions)} |`,
    );
  }
  return lines.join('\n');
}

export function alternativesTable(results: Results): string {
  const lines = [
    '| workload | approach | executions | API requests | Sheets calls | cells written | modelled s | ratio to (c): requests / Sheets calls / cells / time |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const [name, w] of Object.entries(results.workloads)) {
    if (Object.keys(w.alternatives).length === 0) continue;
    const f = w.figures;
    lines.push(
      `| ${name} | (c) our sync | ${f.executions} | ${n(f.api_requests)} | ${n(f.sheets_calls)} | ${n(f.cells_written)} | ${n(f.modelled_seconds)} | 1× |`,
    );
    for (const [alt, a] of Object.entries(w.alternatives)) {
      const r = a.ratio_to_ours;
      const unfinished = a.done ? '' : ' (did not finish)';
      lines.push(
        `| ${name} | ${alt}${unfinished} | ${a.executions} | ${n(a.api_requests)} | ${n(a.sheets_calls)} | ${n(a.cells_written)} | ${n(a.modelled_seconds)} | ${x(r.api_requests)} / ${x(r.sheets_calls)} / ${x(r.cells_written)} / ${x(r.modelled_seconds)} |`,
      );
    }
  }
  return lines.join('\n');
}

/** Writes `results`, keeping the sections another bench wrote (the BigQuery bench's). */
export function writeResults(file: string, results: Results): void {
  const existing = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  writeFileSync(file, `${JSON.stringify({ ...existing, ...results }, null, 2)}\n`);
}
