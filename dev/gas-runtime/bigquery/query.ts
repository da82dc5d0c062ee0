/**
 * A query job's work: GoogleSQL translated (dialect.ts) and run by DuckDB, with named parameters
 * ("Running parameterized queries": parameterMode NAMED, values as strings), every table it names
 * checked first ("Not found: Table … was not found in location US").
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { translate, type StructField, type TableRef, type TranslateOptions, type Translation } from './dialect.js';
import { JobFailure, tableNotFound, unsupported } from './errors.js';
import { cellText, checkValue, fieldTypeOfDuck, type FieldType } from './field-types.js';
import type { JobOutcome } from './job-record.js';
import { LOCATION } from './limits.js';
import { checkMerge, mergeChecks, partitionsLeft } from './merge-checks.js';
import { countPartitionModifications } from './partition-quota.js';
import { columnSql, tableKey, tableSql, type Warehouse } from './warehouse.js';

const PARAMETER_TYPES: Record<string, FieldType> = {
  STRING: 'STRING',
  INT64: 'INTEGER',
  FLOAT64: 'FLOAT',
  NUMERIC: 'NUMERIC',
  BIGNUMERIC: 'BIGNUMERIC',
  BOOL: 'BOOLEAN',
  DATE: 'DATE',
  TIMESTAMP: 'TIMESTAMP',
};

export interface QuerySpec {
  projectId: string;
  query: string;
  parameterMode?: unknown;
  queryParameters?: unknown;
  useLegacySql?: unknown;
  useInt64Timestamp: boolean;
}

interface Parameters {
  types: Record<string, FieldType>;
  values: Record<string, string | null>;
  /** ARRAY<STRUCT<…>> parameters' fields; their value is the elements as JSON text (field → value text or null). */
  structs: Record<string, StructField[]>;
}

type Json = Record<string, unknown>;

/**
 * An ARRAY of STRUCTs of scalar fields ("Running parameterized queries", "Using arrays" and "Using
 * structs"; REST QueryParameterType arrayType.structTypes, QueryParameterValue
 * arrayValues[].structValues): each element's field checked as a scalar parameter of its type.
 */
function structArray(name: string, type: Json, raw: Json | undefined): { fields: StructField[]; json: string } {
  const element = (type.arrayType ?? {}) as Json;
  if (element.type !== 'STRUCT') throw unsupported(`query parameter ${name} of type ARRAY<${String(element.type)}>`);
  const fields = ((element.structTypes ?? []) as Json[]).map((f) => {
    const typeName = String(((f.type ?? {}) as Json).type ?? '');
    const fieldType = PARAMETER_TYPES[typeName];
    if (!fieldType) throw unsupported(`query parameter ${name} with a STRUCT field of type ${typeName}`);
    return { name: String(f.name ?? ''), type: fieldType };
  });
  if (fields.length === 0 || fields.some((f) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(f.name)))
    throw new JobFailure('invalidQuery', `Invalid STRUCT field names for query parameter ${name}`);
  const elements = ((raw?.arrayValues ?? []) as Json[]).map((v) => {
    const values = (v.structValues ?? {}) as Record<string, Json | undefined>;
    return Object.fromEntries(
      fields.map((f) => [f.name, parameterValue(`${name}.${f.name}`, f.type, values[f.name]?.value)]),
    );
  });
  return { fields, json: JSON.stringify(elements) };
}

function parameterValue(name: string, type: FieldType, raw: unknown): string | null {
  if (raw === null || raw === undefined) return null;
  const text = String(raw);
  const field = { name, type, mode: 'NULLABLE' as const };
  const probe =
    type === 'FLOAT' ? Number(text) : type === 'BOOLEAN' ? { true: true, false: false }[text.toLowerCase()] : text;
  const bad = checkValue(field, probe);
  if (bad) throw new JobFailure('invalidQuery', `Invalid ${type} value for query parameter ${name}: ${text}`);
  return type === 'BOOLEAN' ? String(probe) : text;
}

function parameters(spec: QuerySpec): Parameters {
  const list = spec.queryParameters;
  if (list === undefined || (Array.isArray(list) && list.length === 0)) return { types: {}, values: {}, structs: {} };
  if (!Array.isArray(list)) throw new JobFailure('invalid', 'Invalid value for queryParameters: it must be a list');
  if (spec.parameterMode !== 'NAMED') throw unsupported(`parameterMode ${String(spec.parameterMode)} (only NAMED)`);
  const out: Parameters = { types: {}, values: {}, structs: {} };
  for (const p of list as Array<Record<string, unknown>>) {
    const name = String(p.name ?? '');
    const typeName = String((p.parameterType as { type?: unknown } | undefined)?.type ?? '');
    if (typeName === 'ARRAY') {
      const { fields, json } = structArray(name, p.parameterType as Json, p.parameterValue as Json | undefined);
      out.structs[name] = fields;
      out.values[name] = json;
      continue;
    }
    const type = PARAMETER_TYPES[typeName];
    if (!type) throw unsupported(`query parameter ${name} of type ${typeName}`);
    out.types[name] = type;
    out.values[name] = parameterValue(name, type, (p.parameterValue as { value?: unknown } | undefined)?.value);
  }
  return out;
}

/** The statement's type and target, without checking that its tables exist (jobs.insert's DML limit). */
export function describeStatement(spec: QuerySpec, now: number): Translation {
  return translate(spec.query, {
    projectId: spec.projectId,
    tableSql: (ref: TableRef) => tableSql(ref),
    parameterTypes: new Proxy({}, { get: () => 'STRING' }) as Record<string, FieldType>,
    now,
  });
}

/** A result column name as BigQuery gives it: an expression without an alias is f0_, f1_, … */
function columnName(name: string, index: number): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `f${index}_`;
}

/** The distinct partitions among RETURNING rows' column `at`. */
const partitionsIn = (rows: unknown[][], at: number): Set<string> => new Set(rows.map((r) => String(r[at])));

/**
 * Runs `sql` (a DML statement with RETURNING) in a transaction and gives its rows to `check`, which
 * may refuse the job (a partition limit): then nothing the statement did is kept.
 */
async function modifying(
  c: DuckDBConnection,
  sql: string,
  values: Record<string, string | null>,
  check: (rows: unknown[][]) => void | Promise<void>,
): Promise<unknown[][]> {
  await c.run('BEGIN TRANSACTION');
  try {
    const rows = (await c.runAndReadAll(sql, values)).getRows() as unknown[][];
    await check(rows);
    await c.run('COMMIT');
    return rows;
  } catch (e) {
    await c.run('ROLLBACK');
    throw e;
  }
}

export async function runQuery(warehouse: Warehouse, spec: QuerySpec, now: number): Promise<JobOutcome> {
  if (spec.useLegacySql !== false) throw unsupported('legacy SQL (set useLegacySql: false)');
  const params = parameters(spec);
  const options: TranslateOptions = {
    projectId: spec.projectId,
    tableSql: (ref) => {
      if (!warehouse.datasets.has(`${ref.projectId}:${ref.datasetId}`))
        throw new JobFailure(
          'notFound',
          `Not found: Dataset ${ref.projectId}:${ref.datasetId} was not found in location ${LOCATION}`,
        );
      if (!warehouse.table(ref)) throw tableNotFound(tableKey(ref));
      return tableSql(ref);
    },
    parameterTypes: params.types,
    structArrayTypes: params.structs,
    now,
  };
  const translation = translate(spec.query, options);
  const values = Object.fromEntries(translation.parameters.map((name) => [name, params.values[name]]));
  const target = translation.target && warehouse.table(translation.target);
  const partition = target?.timePartitioning?.field;
  const sql = translation.sql.replace(/;\s*$/, '');
  return warehouse.exclusive(async (c) => {
    try {
      if (translation.statementType === 'MERGE') {
        const checks = mergeChecks(spec.query, options, partition);
        await checkMerge(c, checks, params.values);
        // A MERGE's rows by action (JobStatistics2.dmlStats, REST reference "Job": insertedRowCount,
        // updatedRowCount, deletedRowCount), counted from DuckDB's RETURNING merge_action; and the
        // partitions its inserted, updated and deleted rows are in, with those its updates moved rows out of.
        const returning = partition === undefined ? '' : `, CAST(${columnSql(partition)} AS VARCHAR)`;
        const actions = await modifying(c, `${sql} RETURNING merge_action${returning}`, values, async (rows) => {
          if (partition === undefined) return;
          const modified = partitionsIn(rows, 1);
          for (const day of await partitionsLeft(c, checks, partition)) modified.add(day);
          countPartitionModifications(warehouse, target, modified.size, now);
        });
        const count = (action: string) => actions.filter((row) => row[0] === action).length;
        if (target) target.lastModifiedTime = now;
        const dmlStats = {
          insertedRowCount: count('INSERT'),
          updatedRowCount: count('UPDATE'),
          deletedRowCount: count('DELETE'),
        };
        return { statementType: 'MERGE', numDmlAffectedRows: actions.length, dmlStats };
      }
      if (translation.statementType !== 'SELECT') {
        let affected: number;
        if (partition === undefined) affected = Number((await c.run(translation.sql, values)).rowsChanged);
        else {
          // The partitions it modifies, from the rows it changes; refused past a limit, with nothing kept.
          const rows = await modifying(c, `${translation.sql} RETURNING ${columnSql(partition)}`, values, (r) =>
            countPartitionModifications(warehouse, target, partitionsIn(r, 0).size, now),
          );
          affected = rows.length;
        }
        if (target) target.lastModifiedTime = now;
        return { statementType: translation.statementType, numDmlAffectedRows: affected };
      }
      const reader = await c.runAndReadAll(translation.sql, values);
      const columns = reader.columnTypes().map((type, i) => ({
        name: columnName(reader.columnNames()[i], i),
        type: fieldTypeOfDuck(type),
      }));
      const rows = reader
        .getRows()
        .map((row) => row.map((value, i) => cellText(columns[i].type, value, spec.useInt64Timestamp)));
      return { statementType: 'SELECT', columns, rows };
    } catch (e) {
      if (e instanceof JobFailure) throw e;
      // DuckDB's own message: the query is wrong in a way the translator let through.
      throw new JobFailure('invalidQuery', (e as Error).message.split('\n')[0]);
    }
  });
}
