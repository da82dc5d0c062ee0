/**
 * datasets.insert/get and tables.insert/get/patch/delete (BigQuery REST reference v2), with the
 * checks the API makes: names, existence, schema, time partitioning (Introduction to partitioned
 * tables: "the partitioning column must be a top-level DATE, TIMESTAMP or DATETIME field"), and
 * clustering ("up to four clustering columns", top-level, not FLOAT: Introduction to clustered tables).
 */
import type { TableRef } from './dialect.js';
import { BigQueryApiError } from './errors.js';
import { duckTypeOf, parseSchema, schemaResource, type TableField } from './field-types.js';
import { LOCATION } from './limits.js';
import { locationOf } from './locations.js';
import { columnSql, datasetKey, schemaSql, tableKey, tableSql, type TableRecord, type Warehouse } from './warehouse.js';

const DATASET_ID = /^[A-Za-z0-9_]{1,1024}$/;
const TABLE_ID = /^[\p{L}\p{M}\p{N}\p{Pc}\p{Pd} ]{1,1024}$/u;
const PROJECT_ID = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;
const MAX_CLUSTERING_FIELDS = 4;

export function checkProject(method: string, projectId: unknown): string {
  if (typeof projectId !== 'string' || !PROJECT_ID.test(projectId))
    throw new BigQueryApiError(method, `Invalid project ID '${String(projectId)}'.`, 400);
  return projectId;
}

export function requireDataset(warehouse: Warehouse, method: string, projectId: string, datasetId: string): void {
  if (!warehouse.datasets.has(datasetKey(projectId, datasetId)))
    throw new BigQueryApiError(method, `Not found: Dataset ${projectId}:${datasetId}`, 404);
}

export function requireTable(warehouse: Warehouse, method: string, ref: TableRef): TableRecord {
  requireDataset(warehouse, method, ref.projectId, ref.datasetId);
  const table = warehouse.table(ref);
  if (!table) throw new BigQueryApiError(method, `Not found: Table ${tableKey(ref)}`, 404);
  return table;
}

export async function insertDataset(
  warehouse: Warehouse,
  resource: Record<string, unknown>,
  projectId: string,
  now: number,
): Promise<Record<string, unknown>> {
  const method = 'datasets.insert';
  checkProject(method, projectId);
  const reference = (resource?.datasetReference ?? {}) as Record<string, unknown>;
  const datasetId = reference.datasetId;
  if (typeof datasetId !== 'string' || !DATASET_ID.test(datasetId))
    throw new BigQueryApiError(
      method,
      `Invalid dataset ID "${String(datasetId)}". Dataset IDs must be alphanumeric (plus underscores) and must be at most 1024 characters long.`,
      400,
    );
  if (reference.projectId !== undefined && reference.projectId !== projectId)
    throw new BigQueryApiError(
      method,
      `Invalid value for datasetReference.projectId: ${String(reference.projectId)} does not match the project ${projectId}`,
      400,
    );
  const location = locationOf(method, resource.location);
  const key = datasetKey(projectId, datasetId);
  if (warehouse.datasets.has(key)) throw new BigQueryApiError(method, `Already Exists: Dataset ${key}`, 409);
  await warehouse.exclusive((c) => c.run(`CREATE SCHEMA ${schemaSql(projectId, datasetId)}`));
  const stored = {
    ...resource,
    kind: 'bigquery#dataset',
    id: key,
    datasetReference: { projectId, datasetId },
    location,
    creationTime: String(now),
    lastModifiedTime: String(now),
  };
  warehouse.datasets.set(key, { projectId, datasetId, location, resource: stored, creationTime: now });
  return stored;
}

export function getDataset(warehouse: Warehouse, projectId: string, datasetId: string): Record<string, unknown> {
  requireDataset(warehouse, 'datasets.get', projectId, datasetId);
  return warehouse.datasets.get(datasetKey(projectId, datasetId))!.resource;
}

function partitioning(method: string, raw: unknown, schema: TableField[]): TableRecord['timePartitioning'] {
  if (raw === undefined || raw === null) return undefined;
  const spec = raw as Record<string, unknown>;
  if (spec.type !== 'DAY')
    throw new BigQueryApiError(
      method,
      `Unsupported by the local BigQuery stand-in: timePartitioning.type ${String(spec.type)} (only DAY)`,
      400,
    );
  if (typeof spec.field !== 'string')
    throw new BigQueryApiError(
      method,
      'Unsupported by the local BigQuery stand-in: ingestion-time partitioning (give timePartitioning.field)',
      400,
    );
  const field = schema.find((f) => f.name.toLowerCase() === String(spec.field).toLowerCase());
  if (!field)
    throw new BigQueryApiError(method, `The field specified for partitioning cannot be found in the schema`, 400);
  if (field.type !== 'DATE' && field.type !== 'TIMESTAMP')
    throw new BigQueryApiError(
      method,
      `The field specified for time partitioning can only be of type TIMESTAMP, DATE or DATETIME. The type found is: ${field.type}.`,
      400,
    );
  for (const key of Object.keys(spec))
    if (!['type', 'field'].includes(key))
      throw new BigQueryApiError(method, `Unsupported by the local BigQuery stand-in: timePartitioning.${key}`, 400);
  return { type: 'DAY', field: field.name };
}

function clustering(method: string, raw: unknown, schema: TableField[]): TableRecord['clustering'] {
  if (raw === undefined || raw === null) return undefined;
  const fields = (raw as { fields?: unknown }).fields;
  if (!Array.isArray(fields) || fields.length === 0)
    throw new BigQueryApiError(method, 'Clustering fields cannot be empty.', 400);
  if (fields.length > MAX_CLUSTERING_FIELDS)
    throw new BigQueryApiError(
      method,
      `Too many clustering fields: ${fields.length}, only ${MAX_CLUSTERING_FIELDS} are allowed.`,
      400,
    );
  return {
    fields: fields.map((name) => {
      const field = schema.find((f) => f.name.toLowerCase() === String(name).toLowerCase());
      if (!field)
        throw new BigQueryApiError(
          method,
          `The field specified for clustering cannot be found in the schema.  Invalid field: ${String(name)}.`,
          400,
        );
      if (field.type === 'FLOAT')
        throw new BigQueryApiError(
          method,
          `Field ${field.name} is of type FLOAT which is not supported for clustering.`,
          400,
        );
      return field.name;
    }),
  };
}

function schemaOrThrow(method: string, schema: unknown): TableField[] {
  try {
    return parseSchema(schema);
  } catch (e) {
    throw new BigQueryApiError(method, (e as Error).message, 400);
  }
}

/** Creates a table (tables.insert, or a load with CREATE_IF_NEEDED). */
export async function createTable(
  warehouse: Warehouse,
  method: string,
  ref: TableRef,
  spec: { schema?: unknown; timePartitioning?: unknown; clustering?: unknown; description?: unknown },
  now: number,
): Promise<TableRecord> {
  requireDataset(warehouse, method, ref.projectId, ref.datasetId);
  if (!TABLE_ID.test(ref.tableId)) throw new BigQueryApiError(method, `Invalid table ID "${ref.tableId}".`, 400);
  if (warehouse.table(ref)) throw new BigQueryApiError(method, `Already Exists: Table ${tableKey(ref)}`, 409);
  const schema = schemaOrThrow(method, spec.schema);
  const record: TableRecord = {
    ref,
    schema,
    timePartitioning: partitioning(method, spec.timePartitioning, schema),
    clustering: clustering(method, spec.clustering, schema),
    creationTime: now,
    lastModifiedTime: now,
  };
  if (typeof spec.description === 'string') record.description = spec.description;
  const columns = schema.map(
    (f) => `${columnSql(f.name)} ${duckTypeOf(f.type)}${f.mode === 'REQUIRED' ? ' NOT NULL' : ''}`,
  );
  await warehouse.exclusive((c) => c.run(`CREATE TABLE ${tableSql(ref)} (${columns.join(', ')})`));
  warehouse.tables.set(tableKey(ref), record);
  return record;
}

export async function insertTable(
  warehouse: Warehouse,
  resource: Record<string, unknown>,
  projectId: string,
  datasetId: string,
  now: number,
): Promise<Record<string, unknown>> {
  const method = 'tables.insert';
  checkProject(method, projectId);
  const reference = (resource?.tableReference ?? {}) as Record<string, unknown>;
  if (reference.projectId !== undefined && reference.projectId !== projectId)
    throw new BigQueryApiError(
      method,
      'Invalid value for tableReference.projectId: it must match the project in the request',
      400,
    );
  if (reference.datasetId !== undefined && reference.datasetId !== datasetId)
    throw new BigQueryApiError(
      method,
      'Invalid value for tableReference.datasetId: it must match the dataset in the request',
      400,
    );
  for (const key of ['view', 'materializedView', 'externalDataConfiguration', 'rangePartitioning'])
    if (resource[key] !== undefined)
      throw new BigQueryApiError(method, `Unsupported by the local BigQuery stand-in: ${key}`, 400);
  const expiration = expirationOf(method, resource.expirationTime, now);
  const ref = { projectId, datasetId, tableId: String(reference.tableId ?? '') };
  const record = await createTable(warehouse, method, ref, resource, now);
  if (expiration !== undefined) record.expirationTime = expiration;
  return tableResource(record, 0);
}

/**
 * Table.expirationTime (REST reference "tables": int64 milliseconds since the epoch, as a string;
 * "Expired tables will be deleted and their storage reclaimed"). Google does not say what it does
 * with a time already past; the runtime takes the stricter reading and refuses it.
 */
function expirationOf(method: string, raw: unknown, now: number): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  const text = String(raw);
  if (!/^\d+$/.test(text)) throw new BigQueryApiError(method, `Invalid value for expirationTime: ${text}`, 400);
  const ms = Number(text);
  if (ms <= now) throw new BigQueryApiError(method, `Invalid value for expirationTime: ${text} is in the past`, 400);
  return ms;
}

/**
 * Drops the tables whose expirationTime has come ("Managing tables", "Update a table's expiration
 * time": when it passes, the table is deleted with its data): from then on every call and job finds
 * it missing, as a table deleted by hand.
 */
export async function dropExpiredTables(warehouse: Warehouse, now: number): Promise<void> {
  for (const table of [...warehouse.tables.values()])
    if (table.expirationTime !== undefined && table.expirationTime <= now) await removeTable(warehouse, table.ref);
}

export function tableResource(record: TableRecord, numRows: number): Record<string, unknown> {
  const resource: Record<string, unknown> = {
    kind: 'bigquery#table',
    id: tableKey(record.ref),
    tableReference: { ...record.ref },
    schema: schemaResource(record.schema),
    type: 'TABLE',
    location: LOCATION,
    numRows: String(numRows),
    creationTime: String(record.creationTime),
    lastModifiedTime: String(record.lastModifiedTime),
  };
  if (record.timePartitioning) resource.timePartitioning = { ...record.timePartitioning };
  if (record.clustering) resource.clustering = { fields: [...record.clustering.fields] };
  if (record.description !== undefined) resource.description = record.description;
  if (record.expirationTime !== undefined) resource.expirationTime = String(record.expirationTime);
  return resource;
}

export async function rowCount(warehouse: Warehouse, ref: TableRef): Promise<number> {
  const reader = await warehouse.exclusive((c) => c.runAndReadAll(`SELECT count(*) FROM ${tableSql(ref)}`));
  return Number(reader.getRows()[0][0]);
}

/**
 * tables.patch: description, clustering, and new NULLABLE columns at the end of the schema (the
 * schema changes BigQuery allows: "Modifying table schemas"); any other change is refused as
 * BigQuery refuses it.
 */
export async function patchTable(
  warehouse: Warehouse,
  resource: Record<string, unknown>,
  ref: TableRef,
  now: number,
): Promise<TableRecord> {
  const method = 'tables.patch';
  const table = requireTable(warehouse, method, ref);
  for (const key of Object.keys(resource ?? {}))
    if (!['schema', 'clustering', 'description', 'tableReference', 'timePartitioning'].includes(key))
      throw new BigQueryApiError(method, `Unsupported by the local BigQuery stand-in: patching ${key}`, 400);
  if (
    resource.timePartitioning !== undefined &&
    JSON.stringify(resource.timePartitioning) !== JSON.stringify(table.timePartitioning)
  )
    throw new BigQueryApiError(method, 'Cannot change partitioning spec for a partitioned table.', 400);
  let added: TableField[] = [];
  if (resource.schema !== undefined) {
    const next = schemaOrThrow(method, resource.schema);
    table.schema.forEach((old) => {
      const same = next.find((f) => f.name === old.name);
      if (!same)
        throw new BigQueryApiError(
          method,
          `Provided Schema does not match Table ${tableKey(ref)}. Field ${old.name} is missing in new schema`,
          400,
        );
      if (same.type !== old.type)
        throw new BigQueryApiError(
          method,
          `Provided Schema does not match Table ${tableKey(ref)}. Field ${old.name} has changed type from ${old.type} to ${same.type}`,
          400,
        );
      if (same.mode === 'REQUIRED' && old.mode === 'NULLABLE')
        throw new BigQueryApiError(
          method,
          `Provided Schema does not match Table ${tableKey(ref)}. Field ${old.name} has changed mode from NULLABLE to REQUIRED`,
          400,
        );
    });
    added = next.filter((f) => !table.schema.some((old) => old.name === f.name));
    const required = added.find((f) => f.mode === 'REQUIRED');
    if (required)
      throw new BigQueryApiError(
        method,
        `Provided Schema does not match Table ${tableKey(ref)}. Cannot add required fields to an existing schema. (field: ${required.name})`,
        400,
      );
    for (const f of added)
      await warehouse.exclusive((c) =>
        c.run(`ALTER TABLE ${tableSql(ref)} ADD COLUMN ${columnSql(f.name)} ${duckTypeOf(f.type)}`),
      );
    table.schema = next.map((f) => table.schema.find((old) => old.name === f.name && f.mode === old.mode) ?? f);
  }
  if (resource.clustering !== undefined) table.clustering = clustering(method, resource.clustering, table.schema);
  if (typeof resource.description === 'string') table.description = resource.description;
  table.lastModifiedTime = now;
  return table;
}

export async function removeTable(warehouse: Warehouse, ref: TableRef): Promise<void> {
  requireTable(warehouse, 'tables.delete', ref);
  await warehouse.exclusive((c) => c.run(`DROP TABLE ${tableSql(ref)}`));
  warehouse.tables.delete(tableKey(ref));
}
