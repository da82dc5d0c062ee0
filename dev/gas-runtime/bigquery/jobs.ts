/**
 * jobs.insert (load with media, query), jobs.get, jobs.query, jobs.getQueryResults and
 * tabledata.list (BigQuery REST reference v2). A job is RUNNING from its creation until its modelled
 * duration (timing.ts) has passed on the runtime clock, then DONE: its work runs then, in the order
 * jobs end, so what a job writes is seen by jobs that end after it. jobs.query and getQueryResults
 * wait for the job up to timeoutMs (10 s by default), and say how long they waited (the cost model
 * charges it).
 */
import { BigQueryApiError, JobFailure } from './errors.js';
import { checkProject, dropExpiredTables, requireTable } from './catalog.js';
import { cellText } from './field-types.js';
import type { JobOutcome, JobRecord } from './job-record.js';
import {
  CONCURRENT_MUTATING_DML_PER_TABLE,
  DEFAULT_QUERY_TIMEOUT_MS,
  LOAD_JOBS_PER_TABLE_PER_DAY,
  LOAD_QUOTA_MESSAGE,
  MAX_LOAD_REQUEST_BYTES,
  MAX_QUERY_CHARS,
  MAX_QUERY_PARAMETERS,
  QUERY_TOO_LONG_MESSAGE,
  REQUEST_TOO_LARGE_MESSAGE,
  dmlOutstandingMessage,
} from './limits.js';
import { runLoad, type LoadSpec } from './load.js';
import { jobFoundAt, jobLocation } from './locations.js';
import { describeStatement, runQuery, type QuerySpec } from './query.js';
import { maxResultsOf, page, pageStart, schemaOf, type PageRequest } from './results.js';
import { DML_JOB_MS, LOAD_JOB_MS, LOAD_JOB_MS_PER_MB, QUERY_JOB_MS } from './timing.js';
import { tableKey, tableSql, type Warehouse } from './warehouse.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const MUTATING = new Set(['UPDATE', 'DELETE', 'MERGE']);

export interface Waited<T> {
  result: T;
  waitedMs: number;
}

const jobKey = (projectId: string, jobId: string): string => `${projectId}:${jobId}`;

function object(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

function tableRef(raw: unknown, projectId: string): { projectId: string; datasetId: string; tableId: string } {
  const r = object(raw);
  return {
    projectId: String(r.projectId ?? projectId),
    datasetId: String(r.datasetId ?? ''),
    tableId: String(r.tableId ?? ''),
  };
}

/** Runs every job whose end has come, in the order they end, each after the tables expired by then. */
export async function settle(warehouse: Warehouse, now: number): Promise<void> {
  // A job with its outcome has run: only those still to run (or running) are waited for.
  const due = [...warehouse.jobs.values()]
    .filter((j) => j.endsAt <= now && j.outcome === undefined)
    .sort((a, b) => a.endsAt - b.endsAt);
  for (const job of due) {
    if (!job.settled) await dropExpiredTables(warehouse, job.endsAt);
    job.settled ??= job.execute(job).then(
      (outcome) => {
        job.outcome = outcome;
      },
      (error: unknown) => {
        job.outcome = {
          failure: error instanceof JobFailure ? error : new JobFailure('internalError', (error as Error).message),
        };
      },
    );
    await job.settled;
  }
  await dropExpiredTables(warehouse, now);
}

function loadJob(
  warehouse: Warehouse,
  method: string,
  projectId: string,
  config: Record<string, unknown>,
  media: Buffer | undefined,
  now: number,
) {
  if (config.sourceUris !== undefined)
    throw new BigQueryApiError(
      method,
      'Unsupported by the local BigQuery stand-in: sourceUris (load from the request media)',
      400,
    );
  if (!media)
    throw new BigQueryApiError(method, 'Unsupported by the local BigQuery stand-in: a load without media', 400);
  const format = String(config.sourceFormat ?? 'CSV');
  if (format !== 'NEWLINE_DELIMITED_JSON')
    throw new BigQueryApiError(
      method,
      `Unsupported by the local BigQuery stand-in: sourceFormat ${format} (only NEWLINE_DELIMITED_JSON)`,
      400,
    );
  if (media.length > MAX_LOAD_REQUEST_BYTES) throw new BigQueryApiError(method, REQUEST_TOO_LARGE_MESSAGE, 413);
  if (config.destinationTable === undefined)
    throw new BigQueryApiError(method, 'Required parameter is missing: destinationTable', 400);
  const destination = tableRef(config.destinationTable, projectId);
  for (const key of Object.keys(config))
    if (
      ![
        'sourceFormat',
        'destinationTable',
        'schema',
        'writeDisposition',
        'createDisposition',
        'timePartitioning',
        'clustering',
      ].includes(key)
    )
      throw new BigQueryApiError(method, `Unsupported by the local BigQuery stand-in: configuration.load.${key}`, 400);
  const times = (warehouse.loadTimes.get(tableKey(destination)) ?? []).filter((t) => t > now - DAY_MS);
  if (times.length >= LOAD_JOBS_PER_TABLE_PER_DAY) throw new BigQueryApiError(method, LOAD_QUOTA_MESSAGE, 403);
  warehouse.loadTimes.set(tableKey(destination), [...times, now]);
  const spec: LoadSpec = {
    destination,
    schema: config.schema,
    writeDisposition: (config.writeDisposition ?? 'WRITE_APPEND') as LoadSpec['writeDisposition'],
    createDisposition: (config.createDisposition ?? 'CREATE_IF_NEEDED') as LoadSpec['createDisposition'],
    timePartitioning: config.timePartitioning,
    clustering: config.clustering,
    media: media.toString('utf8'),
  };
  if (!['WRITE_APPEND', 'WRITE_TRUNCATE', 'WRITE_EMPTY'].includes(spec.writeDisposition))
    throw new BigQueryApiError(method, `Invalid value for writeDisposition: ${spec.writeDisposition}`, 400);
  return {
    target: destination,
    durationMs: LOAD_JOB_MS + (media.length / (1024 * 1024)) * LOAD_JOB_MS_PER_MB,
    execute: async (): Promise<JobOutcome> => ({ outputRows: await runLoad(warehouse, spec, now) }),
  };
}

function querySpec(method: string, projectId: string, config: Record<string, unknown>): QuerySpec {
  if (typeof config.query !== 'string') throw new BigQueryApiError(method, 'Required parameter is missing: query', 400);
  for (const key of Object.keys(config))
    if (
      ![
        'query',
        'useLegacySql',
        'parameterMode',
        'queryParameters',
        'formatOptions',
        'timeoutMs',
        'maxResults',
        'kind',
        'location',
        'useQueryCache',
      ].includes(key)
    )
      throw new BigQueryApiError(method, `Unsupported by the local BigQuery stand-in: ${key}`, 400);
  if (Buffer.byteLength(JSON.stringify(config), 'utf8') > MAX_LOAD_REQUEST_BYTES)
    throw new BigQueryApiError(method, REQUEST_TOO_LARGE_MESSAGE, 413);
  if (config.query.length > MAX_QUERY_CHARS) throw new BigQueryApiError(method, QUERY_TOO_LONG_MESSAGE, 400);
  if (Array.isArray(config.queryParameters) && config.queryParameters.length > MAX_QUERY_PARAMETERS)
    throw new BigQueryApiError(
      method,
      `Too many query parameters: ${config.queryParameters.length}; the limit is ${MAX_QUERY_PARAMETERS}.`,
      400,
    );
  return {
    projectId,
    query: config.query,
    parameterMode: config.parameterMode,
    queryParameters: config.queryParameters,
    useLegacySql: config.useLegacySql,
    useInt64Timestamp: object(config.formatOptions).useInt64Timestamp === true,
  };
}

function queryJob(warehouse: Warehouse, spec: QuerySpec, now: number) {
  let statement: string = 'SELECT';
  let target: ReturnType<typeof tableRef> | undefined;
  let tables: ReturnType<typeof tableRef>[] = [];
  try {
    const described = describeStatement(spec, now);
    statement = described.statementType;
    target = described.target;
    tables = described.tables;
  } catch {
    // The job fails when it runs, with the translator's message.
  }
  const mutating = MUTATING.has(statement);
  let refusal: JobFailure | undefined;
  if (mutating && target) {
    const key = tableKey(target);
    const running = [...warehouse.jobs.values()].filter(
      (j) => j.mutatingDml && j.target && tableKey(j.target) === key && j.endsAt > now && !j.outcome?.failure,
    );
    if (running.length >= CONCURRENT_MUTATING_DML_PER_TABLE)
      refusal = new JobFailure(
        'resourcesExceeded',
        dmlOutstandingMessage(`${target.projectId}:${target.datasetId}.${target.tableId}`),
      );
  }
  return {
    target,
    tables,
    mutating: mutating && !refusal,
    durationMs: statement === 'SELECT' ? QUERY_JOB_MS : DML_JOB_MS,
    execute: async (self: JobRecord): Promise<JobOutcome> => {
      if (refusal) throw refusal;
      return runQuery(warehouse, spec, now, mutating ? (days) => concurrentUpdate(warehouse, self, days) : undefined);
    },
  };
}

/**
 * "Transform data with DML", UPDATE, DELETE, MERGE DML concurrency: mutating statements that run on
 * a table at the same time conflict when they mutate the same partition, and the later to commit
 * fails "Could not serialize access to table … due to concurrent update" (reason invalidQuery, as
 * public reports of the error quote it). BigQuery reruns a conflicting statement up to three times
 * before failing it; the runtime, stricter, fails it at once: another mutating job on the table that
 * committed while this one ran (ended after its start, by its end) and changed one of its partitions.
 */
function concurrentUpdate(warehouse: Warehouse, self: JobRecord, days: string[]): JobFailure | undefined {
  if (!self.target || days.length === 0) return undefined;
  const key = tableKey(self.target);
  const mine = new Set(days);
  for (const other of warehouse.jobs.values()) {
    if (other === self || !other.mutatingDml || !other.target || tableKey(other.target) !== key) continue;
    if (!other.outcome || other.outcome.failure || other.endsAt <= self.creationTime || other.endsAt > self.endsAt)
      continue;
    if ((other.outcome.modifiedPartitions ?? []).some((day) => mine.has(day)))
      return new JobFailure('invalidQuery', `Could not serialize access to table ${key} due to concurrent update`);
  }
  return undefined;
}

export interface InsertContext {
  now: number;
  userEmail: string;
}

export function insertJob(
  warehouse: Warehouse,
  method: string,
  projectId: string,
  resource: Record<string, unknown>,
  media: Buffer | undefined,
  context: InsertContext,
): JobRecord {
  checkProject(method, projectId);
  const configuration = object(resource?.configuration);
  const kinds = Object.keys(configuration).filter((k) => !['labels', 'jobTimeoutMs', 'dryRun'].includes(k));
  if (configuration.dryRun === true)
    throw new BigQueryApiError(method, 'Unsupported by the local BigQuery stand-in: dryRun', 400);
  if (kinds.length !== 1 || !['load', 'query'].includes(kinds[0]))
    throw new BigQueryApiError(
      method,
      `Unsupported by the local BigQuery stand-in: a job of ${kinds.join(', ') || 'no'} configuration (load or query)`,
      400,
    );
  const requested = object(resource?.jobReference).jobId;
  const jobId = typeof requested === 'string' ? requested : warehouse.nextJobId();
  if (!/^[A-Za-z0-9_-]{1,1024}$/.test(jobId)) throw new BigQueryApiError(method, `Invalid job ID "${jobId}".`, 400);
  const held = warehouse.jobs.get(jobKey(projectId, jobId));
  if (held) throw new BigQueryApiError(method, `Already Exists: Job ${projectId}:${held.location}.${jobId}`, 409);
  const { now } = context;
  const work =
    kinds[0] === 'load'
      ? { ...loadJob(warehouse, method, projectId, object(configuration.load), media, now), mutating: false }
      : queryJob(warehouse, querySpec(method, projectId, object(configuration.query)), now);
  const datasets = 'tables' in work ? work.tables : work.target ? [work.target] : [];
  const named = object(resource?.jobReference).location ?? object(configuration.query).location;
  const location = jobLocation(warehouse, method, named, datasets);
  const job: JobRecord = {
    projectId,
    jobId,
    location,
    kind: kinds[0] === 'load' ? 'LOAD' : 'QUERY',
    configuration,
    userEmail: context.userEmail,
    creationTime: now,
    endsAt: now + Math.round(work.durationMs),
    target: work.target,
    mutatingDml: work.mutating,
    ...(kinds[0] === 'load' && media ? { mediaBytes: media.length } : {}),
    execute: work.execute,
  };
  warehouse.jobs.set(jobKey(projectId, jobId), job);
  return job;
}

export function jobResource(job: JobRecord, now: number): Record<string, unknown> {
  const done = job.outcome !== undefined && job.endsAt <= now;
  const status: Record<string, unknown> = { state: done ? 'DONE' : 'RUNNING' };
  const statistics: Record<string, unknown> = {
    creationTime: String(job.creationTime),
    startTime: String(job.creationTime),
  };
  if (done) {
    const outcome = job.outcome!;
    statistics.endTime = String(job.endsAt);
    if (outcome.failure) {
      status.errorResult = outcome.failure.errorResult;
      status.errors = outcome.failure.details.length > 0 ? outcome.failure.details : [outcome.failure.errorResult];
    } else if (job.kind === 'LOAD')
      // REST reference v2, JobStatistics3: inputFiles, inputFileBytes, outputRows (int64 as strings).
      statistics.load = {
        inputFiles: '1',
        inputFileBytes: String(job.mediaBytes ?? 0),
        outputRows: String(outcome.outputRows ?? 0),
      };
    else {
      const query: Record<string, unknown> = { statementType: outcome.statementType };
      if (outcome.totalPartitionsProcessed !== undefined)
        query.totalPartitionsProcessed = String(outcome.totalPartitionsProcessed);
      if (outcome.numDmlAffectedRows !== undefined) query.numDmlAffectedRows = String(outcome.numDmlAffectedRows);
      if (outcome.dmlStats)
        query.dmlStats = {
          insertedRowCount: String(outcome.dmlStats.insertedRowCount),
          updatedRowCount: String(outcome.dmlStats.updatedRowCount),
          deletedRowCount: String(outcome.dmlStats.deletedRowCount),
        };
      statistics.query = query;
    }
  }
  return {
    kind: 'bigquery#job',
    id: `${job.projectId}:${job.location}.${job.jobId}`,
    jobReference: { projectId: job.projectId, jobId: job.jobId, location: job.location },
    configuration: job.configuration,
    status,
    statistics,
    user_email: job.userEmail,
  };
}

/** jobs.get and getQueryResults: a job in a single region is found only when `location` names it (locations.ts). */
export function findJob(
  warehouse: Warehouse,
  method: string,
  projectId: string,
  jobId: unknown,
  location?: unknown,
): JobRecord {
  const job = warehouse.jobs.get(jobKey(projectId, String(jobId)));
  if (!job || !jobFoundAt(job.location, location))
    throw new BigQueryApiError(
      method,
      `Not found: Job ${projectId}:${typeof location === 'string' && location !== '' ? location : 'US'}.${String(jobId)}`,
      404,
    );
  return job;
}

function timeoutOf(value: unknown): number {
  const n = value === undefined || value === null ? DEFAULT_QUERY_TIMEOUT_MS : Number(value);
  return Number.isFinite(n) && n >= 0 ? n : DEFAULT_QUERY_TIMEOUT_MS;
}

/** The query response of a job: complete with its first page (from `request`), or jobComplete false. */
async function queryResponse(
  warehouse: Warehouse,
  method: string,
  job: JobRecord,
  request: PageRequest & { timeoutMs?: unknown },
  now: number,
): Promise<Waited<Record<string, unknown>>> {
  const waitedMs = Math.min(timeoutOf(request.timeoutMs), Math.max(0, job.endsAt - now));
  const at = now + waitedMs;
  await settle(warehouse, at);
  const reference = { projectId: job.projectId, jobId: job.jobId, location: job.location };
  if (job.endsAt > at || !job.outcome)
    return {
      result: { kind: 'bigquery#getQueryResultsResponse', jobReference: reference, jobComplete: false },
      waitedMs,
    };
  const outcome = job.outcome;
  if (outcome.failure) throw new BigQueryApiError(method, outcome.failure.message, 400);
  if (job.kind !== 'QUERY')
    throw new BigQueryApiError(method, `Job ${job.projectId}:${job.location}.${job.jobId} is not a query job.`, 400);
  const base = {
    kind: 'bigquery#getQueryResultsResponse',
    jobReference: reference,
    jobComplete: true,
    cacheHit: false,
  };
  if (outcome.numDmlAffectedRows !== undefined)
    return { result: { ...base, numDmlAffectedRows: String(outcome.numDmlAffectedRows), totalRows: '0' }, waitedMs };
  const rows = outcome.rows ?? [];
  const scope = `${job.projectId}:${job.jobId}`;
  const start = pageStart(method, scope, request);
  const result = page(scope, start, rows.length, rows.slice(start), maxResultsOf(method, request));
  return { result: { ...base, schema: schemaOf(outcome.columns ?? []), ...result }, waitedMs };
}

export async function query(
  warehouse: Warehouse,
  projectId: string,
  request: Record<string, unknown>,
  context: InsertContext,
): Promise<Waited<Record<string, unknown>>> {
  const method = 'jobs.query';
  const { maxResults, timeoutMs, ...config } = object(request);
  if (config.defaultDataset !== undefined)
    throw new BigQueryApiError(
      method,
      'Unsupported by the local BigQuery stand-in: defaultDataset (name tables in full)',
      400,
    );
  const job = insertJob(warehouse, method, projectId, { configuration: { query: config } }, undefined, context);
  const answer = await queryResponse(warehouse, method, job, { maxResults, timeoutMs }, context.now);
  answer.result.kind = 'bigquery#queryResponse';
  return answer;
}

export function getQueryResults(
  warehouse: Warehouse,
  projectId: string,
  jobId: unknown,
  options: Record<string, unknown>,
  now: number,
): Promise<Waited<Record<string, unknown>>> {
  const method = 'jobs.getQueryResults';
  const request = object(options);
  const job = findJob(warehouse, method, projectId, jobId, request.location);
  return queryResponse(warehouse, method, job, request, now);
}

export async function listTableData(
  warehouse: Warehouse,
  ref: { projectId: string; datasetId: string; tableId: string },
  options: Record<string, unknown>,
  now: number,
): Promise<Record<string, unknown>> {
  const method = 'tabledata.list';
  await settle(warehouse, now);
  const table = requireTable(warehouse, method, ref);
  const request = object(options);
  if (request.selectedFields !== undefined)
    throw new BigQueryApiError(method, 'Unsupported by the local BigQuery stand-in: selectedFields', 400);
  const scope = tableKey(ref);
  const start = pageStart(method, scope, request);
  const max = maxResultsOf(method, request);
  const useInt64Timestamp = object(request.formatOptions).useInt64Timestamp === true;
  const { total, rows } = await warehouse.exclusive(async (c) => {
    const count = Number((await c.runAndReadAll(`SELECT count(*) FROM ${tableSql(ref)}`)).getRows()[0][0]);
    const limit = Number.isFinite(max) ? max : 100_000;
    const reader = await c.runAndReadAll(
      `SELECT * FROM ${tableSql(ref)} ORDER BY rowid LIMIT ${limit} OFFSET ${start}`,
    );
    return { total: count, rows: reader.getRows() };
  });
  const cells = rows.map((row) => row.map((v, i) => cellText(table.schema[i].type, v, useInt64Timestamp)));
  return { kind: 'bigquery#tableDataList', ...page(scope, start, total, cells, max) };
}
