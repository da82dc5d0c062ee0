/**
 * The BigQuery advanced service (`BigQuery` with serviceId "bigquery", v2, in the manifest's
 * enabledAdvancedServices): Datasets, Tables, Jobs and Tabledata with the REST reference's
 * signatures as Apps Script maps them ("How method signatures are determined": the request body
 * first, then the path parameters, then optional arguments; jobs.insert takes the media as a Blob
 * after the project). The work is done by the runtime's Warehouse (../bigquery/).
 *
 * Like every advanced service it needs full authorization: refused in custom functions and
 * LIMITED/NONE ("You do not have permission to call BigQuery.Jobs.query"; custom functions cannot
 * call services that need authorization: guides/sheets/functions). With explicit oauthScopes the
 * manifest must list bigquery (or cloud-platform), else Google answers every call "Request had
 * insufficient authentication scopes." (the API's 403 for a token without the scope).
 */
import type { RuntimeClock } from '../clock.js';
import {
  getDataset,
  insertDataset,
  insertTable,
  patchTable,
  removeTable,
  requireTable,
  rowCount,
  tableResource,
} from '../bigquery/catalog.js';
import type { TableRef } from '../bigquery/dialect.js';
import { BigQueryApiError } from '../bigquery/errors.js';
import { findJob, getQueryResults, insertJob, jobResource, listTableData, query, settle } from '../bigquery/jobs.js';
import type { Warehouse } from '../bigquery/warehouse.js';
import { permissionDenied, type ExecutionServiceContext } from '../types.js';
import { Blob } from './blob.js';
import { chargeWait } from './bigquery-cost.js';

export const BIGQUERY_SCOPES = [
  'https://www.googleapis.com/auth/bigquery',
  'https://www.googleapis.com/auth/cloud-platform',
];

export interface BigQueryScope {
  warehouse: Warehouse;
  ctx: ExecutionServiceContext;
  clock: RuntimeClock;
  userEmail: string;
  /** The manifest's oauthScopes; null when it lists none (Google then detects them). */
  oauthScopes: string[] | null;
}

function checkAccess(scope: BigQueryScope, className: string, method: string, apiMethod: string): void {
  if (scope.ctx.authMode !== 'FULL') throw permissionDenied(`${className}.${method}`);
  if (scope.oauthScopes && !scope.oauthScopes.some((s) => BIGQUERY_SCOPES.includes(s)))
    throw new BigQueryApiError(apiMethod, 'Request had insufficient authentication scopes.', 403);
}

function ref(projectId: unknown, datasetId: unknown, tableId: unknown): TableRef {
  return { projectId: String(projectId), datasetId: String(datasetId), tableId: String(tableId) };
}

export class BigQueryDatasets {
  static gasName = 'BigQuery.Datasets';
  constructor(private readonly scope: BigQueryScope) {}

  insert(resource: Record<string, unknown>, projectId: string): Promise<Record<string, unknown>> {
    checkAccess(this.scope, 'BigQuery.Datasets', 'insert', 'datasets.insert');
    return insertDataset(this.scope.warehouse, resource, projectId, this.scope.clock.now());
  }

  get(projectId: string, datasetId: string): Record<string, unknown> {
    checkAccess(this.scope, 'BigQuery.Datasets', 'get', 'datasets.get');
    return getDataset(this.scope.warehouse, String(projectId), String(datasetId));
  }
}

export class BigQueryTables {
  static gasName = 'BigQuery.Tables';
  constructor(private readonly scope: BigQueryScope) {}

  async insert(
    resource: Record<string, unknown>,
    projectId: string,
    datasetId: string,
  ): Promise<Record<string, unknown>> {
    checkAccess(this.scope, 'BigQuery.Tables', 'insert', 'tables.insert');
    const now = this.scope.clock.now();
    // A table past its expirationTime is gone: inserting its name again makes a new one.
    await settle(this.scope.warehouse, now);
    return insertTable(this.scope.warehouse, resource, projectId, String(datasetId), now);
  }

  async get(projectId: string, datasetId: string, tableId: string): Promise<Record<string, unknown>> {
    checkAccess(this.scope, 'BigQuery.Tables', 'get', 'tables.get');
    const { warehouse } = this.scope;
    await settle(warehouse, this.scope.clock.now());
    const table = requireTable(warehouse, 'tables.get', ref(projectId, datasetId, tableId));
    return tableResource(table, await rowCount(warehouse, table.ref));
  }

  async patch(
    resource: Record<string, unknown>,
    projectId: string,
    datasetId: string,
    tableId: string,
  ): Promise<Record<string, unknown>> {
    checkAccess(this.scope, 'BigQuery.Tables', 'patch', 'tables.patch');
    const { warehouse } = this.scope;
    const now = this.scope.clock.now();
    await settle(warehouse, now);
    const table = await patchTable(warehouse, resource ?? {}, ref(projectId, datasetId, tableId), now);
    return tableResource(table, await rowCount(warehouse, table.ref));
  }

  /** tables.delete: `remove` in Apps Script (delete is a reserved word). */
  async remove(projectId: string, datasetId: string, tableId: string): Promise<void> {
    checkAccess(this.scope, 'BigQuery.Tables', 'remove', 'tables.delete');
    await settle(this.scope.warehouse, this.scope.clock.now());
    await removeTable(this.scope.warehouse, ref(projectId, datasetId, tableId));
  }
}

export class BigQueryJobs {
  static gasName = 'BigQuery.Jobs';
  constructor(private readonly scope: BigQueryScope) {}

  /** jobs.insert; a load's newline-delimited JSON is the media: `BigQuery.Jobs.insert(job, projectId, blob)`. */
  async insert(
    resource: Record<string, unknown>,
    projectId: string,
    media?: unknown,
  ): Promise<Record<string, unknown>> {
    checkAccess(this.scope, 'BigQuery.Jobs', 'insert', 'jobs.insert');
    if (media !== undefined && media !== null && !(media instanceof Blob))
      throw new Error('Invalid argument: mediaData');
    const { warehouse, clock, userEmail } = this.scope;
    const now = clock.now();
    await settle(warehouse, now);
    const job = insertJob(
      warehouse,
      'jobs.insert',
      projectId,
      resource ?? {},
      media instanceof Blob ? media._buffer() : undefined,
      { now, userEmail },
    );
    return jobResource(job, now);
  }

  /** jobs.get; `optionalArgs.location` names a job's location (needed for one in a single region). */
  async get(
    projectId: string,
    jobId: string,
    optionalArgs?: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    checkAccess(this.scope, 'BigQuery.Jobs', 'get', 'jobs.get');
    const { warehouse, clock } = this.scope;
    const now = clock.now();
    await settle(warehouse, now);
    return jobResource(findJob(warehouse, 'jobs.get', projectId, jobId, optionalArgs?.location), now);
  }

  async query(request: Record<string, unknown>, projectId: string): Promise<Record<string, unknown>> {
    checkAccess(this.scope, 'BigQuery.Jobs', 'query', 'jobs.query');
    const { warehouse, clock, userEmail } = this.scope;
    const now = clock.now();
    await settle(warehouse, now);
    const { result, waitedMs } = await query(warehouse, projectId, request ?? {}, { now, userEmail });
    return chargeWait(result, waitedMs);
  }

  async getQueryResults(
    projectId: string,
    jobId: string,
    optionalArgs?: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    checkAccess(this.scope, 'BigQuery.Jobs', 'getQueryResults', 'jobs.getQueryResults');
    const { result, waitedMs } = await getQueryResults(
      this.scope.warehouse,
      projectId,
      jobId,
      optionalArgs ?? {},
      this.scope.clock.now(),
    );
    return chargeWait(result, waitedMs);
  }
}

export class BigQueryTabledata {
  static gasName = 'BigQuery.Tabledata';
  constructor(private readonly scope: BigQueryScope) {}

  list(
    projectId: string,
    datasetId: string,
    tableId: string,
    optionalArgs?: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    checkAccess(this.scope, 'BigQuery.Tabledata', 'list', 'tabledata.list');
    return listTableData(
      this.scope.warehouse,
      ref(projectId, datasetId, tableId),
      optionalArgs ?? {},
      this.scope.clock.now(),
    );
  }
}

export class BigQueryAdvancedService {
  static gasName = 'BigQuery';
  readonly Datasets: BigQueryDatasets;
  readonly Tables: BigQueryTables;
  readonly Jobs: BigQueryJobs;
  readonly Tabledata: BigQueryTabledata;

  constructor(scope: BigQueryScope) {
    this.Datasets = new BigQueryDatasets(scope);
    this.Tables = new BigQueryTables(scope);
    this.Jobs = new BigQueryJobs(scope);
    this.Tabledata = new BigQueryTabledata(scope);
  }
}
