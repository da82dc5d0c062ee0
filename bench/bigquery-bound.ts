/**
 * What syncing orders into BigQuery costs at least, from the limits alone, each part named:
 * - the API (spec 8.1): 250 orders a page, 60 requests a minute, 1,000 an hour;
 * - the 6-minute execution, so at most 360 requests an execution under the minute's limit;
 * - BigQuery ("Quotas and limits", https://cloud.google.com/bigquery/quotas): a load's request
 *   holds at most 10 MB, so the tables' rows (as CSV, values only: the least text a load takes)
 *   need at least ceil(bytes / 10 MB) loads a table;
 *   loading into an empty table needs no DML, replacing changed rows needs one statement a table
 *   (a MERGE that also deletes what the source no longer lists), and that statement can carry rows
 *   of up to the same 10 MB a table as its query parameters, with no load at all ("Running
 *   parameterized queries"; the query request's own 10 MB);
 * - the runtime's modelled durations (dev/gas-runtime/bigquery/timing.ts): a REST call 0.3 s, a
 *   load 3 s + 1 s a MB, a DML statement 3 s; jobs on different tables at best run together, so
 *   the jobs' own time is at least one load of the largest table's share plus one statement;
 * - a fetch 60 ms (apps-script-cost-model.md).
 * Whatever loads, merges or reads more than the rows that changed is above it.
 */
import { MAX_LOAD_REQUEST_BYTES } from '../dev/gas-runtime/bigquery/limits';
import { DML_JOB_MS, LOAD_JOB_MS, LOAD_JOB_MS_PER_MB, REQUEST_MS } from '../dev/gas-runtime/bigquery/timing';
import { PAGE_SIZE } from './lower-bound';

const API_PER_MINUTE = 60;
const API_PER_HOUR = 1_000;
const EXECUTION_S = 360;
const FETCH_S = 0.06;
const MB = 1024 * 1024;

export interface BigQueryBoundInput {
  /** Orders that must be fetched (paged at 250). */
  records: number;
  /** Other requests the workload cannot do without, by name. */
  fixedRequests: Record<string, number>;
  /** The rows that must reach each table, as the least text that loads them (bytes: CSV, values only). */
  tableBytes: Record<string, number>;
  /** DML statements each table needs at least: 0 when loading into an empty table, 1 when rows are replaced. */
  dmlPerTable: number;
}

export interface BigQueryBound {
  api_requests: number;
  api_requests_named: Record<string, number>;
  load_jobs: number;
  load_jobs_named: Record<string, number>;
  dml_jobs: number;
  bytes_loaded: number;
  /** The executions' own time: fetches, BigQuery calls and the jobs' critical path. */
  modelled_seconds: number;
  /** From the first execution's start to the last one's end: the API's hour and minute limits alone. */
  elapsed_seconds: number;
  executions: number;
}

const round = (x: number): number => Math.round(x * 10) / 10;

export function bigQueryBound(input: BigQueryBoundInput): BigQueryBound {
  const pages = input.records > 0 ? Math.ceil(input.records / PAGE_SIZE) : 0;
  const fixed = Object.values(input.fixedRequests).reduce((a, b) => a + b, 0);
  const requests = pages + fixed;
  // Rows a statement must replace anyway ride in it when they fit one request: no load for them.
  const carried = (bytes: number): boolean => input.dmlPerTable > 0 && bytes <= MAX_LOAD_REQUEST_BYTES;
  const loadsNamed = Object.fromEntries(
    Object.entries(input.tableBytes).map(([t, bytes]) => [
      t,
      bytes > 0 && !carried(bytes) ? Math.ceil(bytes / MAX_LOAD_REQUEST_BYTES) : 0,
    ]),
  );
  const loads = Object.values(loadsNamed).reduce((a, b) => a + b, 0);
  const tablesWritten = Object.values(input.tableBytes).filter((b) => b > 0).length;
  const dml = input.dmlPerTable * tablesWritten;
  const loadedBytes = Object.values(input.tableBytes).filter((b) => b > 0 && !carried(b));
  const largestLoadMb = Math.min(Math.max(0, ...loadedBytes), MAX_LOAD_REQUEST_BYTES) / MB;
  const jobsS =
    (loads > 0 ? (LOAD_JOB_MS + largestLoadMb * LOAD_JOB_MS_PER_MB) / 1000 : 0) + (dml > 0 ? DML_JOB_MS / 1000 : 0);
  const busyS = requests * FETCH_S + (loads + dml) * (REQUEST_MS / 1000) + jobsS;
  const hourS = Math.max(0, Math.ceil(requests / API_PER_HOUR) - 1) * 3600;
  const minuteS = Math.max(0, Math.ceil(requests / API_PER_MINUTE) - 1) * 60;
  return {
    api_requests: requests,
    api_requests_named: { orders_pages: pages, ...input.fixedRequests },
    load_jobs: loads,
    load_jobs_named: loadsNamed,
    dml_jobs: dml,
    bytes_loaded: loadedBytes.reduce((a, b) => a + b, 0),
    modelled_seconds: round(busyS),
    elapsed_seconds: round(Math.max(busyS, Math.max(hourS, minuteS) + FETCH_S)),
    executions: Math.max(
      1,
      Math.ceil(busyS / EXECUTION_S),
      Math.ceil(requests / (API_PER_MINUTE * (EXECUTION_S / 60))),
    ),
  };
}
