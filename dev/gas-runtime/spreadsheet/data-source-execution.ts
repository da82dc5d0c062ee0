/**
 * Data execution for Connected Sheets: a BigQuery data source's spec runs as a query on the
 * runtime's warehouse (the DuckDB the BigQuery advanced service writes), so a data source sheet or
 * pivot shows what BigQuery holds. An execution reads the tables as they are when it starts
 * (BigQuery reads a snapshot at a query's start) and its result is visible once it has run for a
 * query job's modelled time (bigquery/timing.ts QUERY_JOB_MS) on the runtime clock.
 */
import { JobFailure } from '../bigquery/errors.js';
import type { ResultColumn } from '../bigquery/job-record.js';
import { QUERY_JOB_MS } from '../bigquery/timing.js';
import type { Warehouse } from '../bigquery/warehouse.js';
import type { ExecutionServiceContext } from '../types.js';
import type { BigQuerySpecRecord } from './data-source-spec.js';

/** What an execution's SpreadsheetApp needs of the BigQuery side (wired by services/index.ts). */
export interface BigQueryLink {
  warehouse: Warehouse;
  now: () => number;
  /** The manifest's oauthScopes; null when it lists none (Google then detects them). */
  oauthScopes: string[] | null;
}

export interface QueryResult {
  columns: ResultColumn[];
  rows: Array<Array<string | null>>;
}

export interface ExecutionRecord {
  startedAt: number;
  endsAt: number;
  result?: QueryResult;
  errorCode?: string;
  errorMessage?: string;
  /** Set once its result is drawn on the grid. */
  applied?: boolean;
}

const links = new WeakMap<ExecutionServiceContext, BigQueryLink>();
const enabled = new WeakMap<ExecutionServiceContext, Set<string>>();

export function linkBigQuery(ctx: ExecutionServiceContext, link: BigQueryLink): void {
  links.set(ctx, link);
}

export function linkOf(ctx: ExecutionServiceContext): BigQueryLink | undefined {
  return links.get(ctx);
}

/** SpreadsheetApp.enableBigQueryExecution / enableAllDataSourcesExecution: for this execution only. */
export function enableExecution(ctx: ExecutionServiceContext, type: string): void {
  let set = enabled.get(ctx);
  if (!set) enabled.set(ctx, (set = new Set()));
  set.add(type);
}

export function executionEnabled(ctx: ExecutionServiceContext, type: string): boolean {
  const set = enabled.get(ctx);
  return set !== undefined && (set.has(type) || set.has('ALL'));
}

/** The GoogleSQL a spec runs: its raw query, or every column of its table. */
export function specQuery(spec: BigQuerySpecRecord): string {
  if (spec.rawQuery) return spec.rawQuery;
  return `SELECT * FROM \`${spec.tableProjectId}.${spec.datasetId}.${spec.tableId}\``;
}

/**
 * Runs the spec now. A table that does not exist is DATA_NOT_FOUND ("The database referenced by the
 * data source is not found", DataExecutionErrorCode); any other BigQuery failure is ENGINE with
 * BigQuery's message (DataExecutionErrorCode.ENGINE: "Use DataExecutionStatus.getErrorMessage()").
 */
export async function startExecution(link: BigQueryLink, spec: BigQuerySpecRecord): Promise<ExecutionRecord> {
  const now = link.now();
  const record: ExecutionRecord = { startedAt: now, endsAt: now + QUERY_JOB_MS };
  // Loaded here, not at the top: the spreadsheet model stays free of DuckDB for tools that never query.
  const [{ settle }, { runQuery }] = await Promise.all([import('../bigquery/jobs.js'), import('../bigquery/query.js')]);
  await settle(link.warehouse, now);
  try {
    const outcome = await runQuery(
      link.warehouse,
      { projectId: spec.projectId, query: specQuery(spec), useLegacySql: false, useInt64Timestamp: false },
      now,
    );
    record.result = { columns: outcome.columns ?? [], rows: outcome.rows ?? [] };
  } catch (error) {
    const failure = error instanceof JobFailure ? error : new JobFailure('internalError', (error as Error).message);
    record.errorCode = failure.reason === 'notFound' ? 'DATA_NOT_FOUND' : 'ENGINE';
    record.errorMessage = failure.message;
  }
  return record;
}

/** NOT_STARTED, RUNNING until its modelled end, then SUCCESS or ERROR (DataExecutionState). */
export function executionState(execution: ExecutionRecord | null, now: number): string {
  if (!execution) return 'NOT_STARTED';
  if (now < execution.endsAt) return 'RUNNING';
  return execution.errorCode ? 'ERROR' : 'SUCCESS';
}
