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
import { forgetPartitions, partitionsProcessed } from './partition-reads.js';
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
  /** ARRAY parameters of a scalar type; their value is the elements' texts as JSON. */
  arrays: Record<string, FieldType>;
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
      fields.map((f) => [
        f.name,
        parameterValue(`${name}.${f.name}`, f.type, scalarOf(`${name}.${f.name}`, values[f.name])),
      ]),
    );
  });
  return { fields, json: JSON.stringify(elements) };
}

/**
 * An ARRAY of a scalar type (REST QueryParameterType arrayType, QueryParameterValue arrayValues[]
 * each {value}), read with `x IN UNNEST(@name)`. GoogleSQL lets a query hold NULL elements but not
 * return them ("Data types", Array type); Google does not say what a parameter's NULL element
 * does, so the runtime takes the stricter reading and refuses it.
 */
function scalarArray(name: string, type: Json, raw: Json | undefined): { type: FieldType; json: string } {
  const typeName = String(((type.arrayType ?? {}) as Json).type ?? '');
  const element = PARAMETER_TYPES[typeName];
  if (!element) throw unsupported(`query parameter ${name} of type ARRAY<${typeName}>`);
  const values = ((raw?.arrayValues ?? []) as Json[]).map((v, i) => {
    const text = parameterValue(`${name}[${i}]`, element, scalarOf(`${name}[${i}]`, v));
    if (text === null)
      throw new JobFailure('invalidQuery', `Invalid NULL element ${i} of the ARRAY query parameter ${name}`);
    return text;
  });
  return { type: element, json: JSON.stringify(values) };
}

/**
 * A scalar's QueryParameterValue (REST reference, QueryParameterValue: `value`, "the value of this
 * value, if a simple scalar type"; a STRUCT's `structValues`, "the struct field values"): a NULL is
 * a QueryParameterValue without `value`. The page shows no `"value": null` and no STRUCT element
 * that leaves a field out; the runtime takes the stricter reading and refuses both, so a NULL is
 * sent one way only. Undefined for NULL.
 */
function scalarOf(name: string, raw: Json | undefined): unknown {
  if (raw === undefined || raw === null)
    throw new JobFailure(
      'invalidQuery',
      `No value for query parameter ${name} (a NULL is a parameter value without "value")`,
    );
  if ('value' in raw && raw.value === null)
    throw new JobFailure(
      'invalidQuery',
      `Invalid value for query parameter ${name}: null (a NULL is a parameter value without "value")`,
    );
  return raw.value;
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
  if (list === undefined || (Array.isArray(list) && list.length === 0))
    return { types: {}, values: {}, structs: {}, arrays: {} };
  if (!Array.isArray(list)) throw new JobFailure('invalid', 'Invalid value for queryParameters: it must be a list');
  if (spec.parameterMode !== 'NAMED') throw unsupported(`parameterMode ${String(spec.parameterMode)} (only NAMED)`);
  const out: Parameters = { types: {}, values: {}, structs: {}, arrays: {} };
  for (const p of list as Array<Record<string, unknown>>) {
    const name = String(p.name ?? '');
    const typeName = String((p.parameterType as { type?: unknown } | undefined)?.type ?? '');
    if (typeName === 'ARRAY' && ((p.parameterType as Json).arrayType as Json | undefined)?.type !== 'STRUCT') {
      const { type, json } = scalarArray(name, p.parameterType as Json, p.parameterValue as Json | undefined);
      out.arrays[name] = type;
      out.values[name] = json;
      continue;
    }
    if (typeName === 'ARRAY') {
      const { fields, json } = structArray(name, p.parameterType as Json, p.parameterValue as Json | undefined);
      out.structs[name] = fields;
      out.values[name] = json;
      continue;
    }
    const type = PARAMETER_TYPES[typeName];
    if (!type) throw unsupported(`query parameter ${name} of type ${typeName}`);
    out.types[name] = type;
    out.values[name] = parameterValue(name, type, scalarOf(name, p.parameterValue as Json | undefined));
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

/**
 * Runs the job's statement at its end. `conflicts`, for mutating DML, is asked with the partitions
 * the statement changed before it commits; a failure it returns is the job's, with nothing kept.
 */
export async function runQuery(
  warehouse: Warehouse,
  spec: QuerySpec,
  now: number,
  conflicts?: (partitions: string[]) => JobFailure | undefined,
): Promise<JobOutcome> {
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
    scalarArrayTypes: params.arrays,
    now,
  };
  const translation = translate(spec.query, options);
  const values = Object.fromEntries(translation.parameters.map((name) => [name, params.values[name]]));
  return warehouse.exclusive(async (c) => {
    try {
      const partitions = await partitionsProcessed(
        c,
        spec.query,
        translation.statementType,
        (ref) => warehouse.table(ref),
        spec.projectId,
        params,
      );
      return { ...(await execute(c)), totalPartitionsProcessed: partitions };
    } catch (e) {
      if (e instanceof JobFailure) throw e;
      // DuckDB's own message: the query is wrong in a way the translator let through.
      throw new JobFailure('invalidQuery', (e as Error).message.split('\n')[0]);
    }
  });

  async function execute(c: DuckDBConnection): Promise<JobOutcome> {
    if (translation.statementType === 'SELECT') {
      const reader = await c.runAndReadAll(translation.sql, values);
      const columns = reader.columnTypes().map((type, i) => ({
        name: columnName(reader.columnNames()[i], i),
        type: fieldTypeOfDuck(type),
      }));
      const rows = reader
        .getRows()
        .map((row) => row.map((value, i) => cellText(columns[i].type, value, spec.useInt64Timestamp)));
      return { statementType: 'SELECT', columns, rows };
    }
    const statementType = translation.statementType;
    const target = translation.target && warehouse.table(translation.target);
    const partition = target?.timePartitioning?.field;
    const merge = statementType === 'MERGE';
    const checks = merge ? mergeChecks(spec.query, options, partition) : null;
    if (checks) await checkMerge(c, checks, params.values);
    // The day each changed row is on; a row of an unpartitioned table is in its one partition.
    const day = partition === undefined ? "'*'" : `CAST(CAST(${columnSql(partition)} AS DATE) AS VARCHAR)`;
    await c.run('BEGIN TRANSACTION');
    try {
      // A MERGE's rows by action (JobStatistics2.dmlStats, REST reference "Job": insertedRowCount,
      // updatedRowCount, deletedRowCount), counted from DuckDB's RETURNING merge_action.
      const returning = `${merge ? 'merge_action, ' : ''}${day}`;
      const sql = `${translation.sql.replace(/;\s*$/, '')} RETURNING ${returning}`;
      const rows = (await c.runAndReadAll(sql, values)).getRows();
      const modified = new Set(rows.filter((r) => r[r.length - 1] !== null).map((r) => String(r[r.length - 1])));
      // A MERGE's updates also modify the partitions they move rows out of.
      if (checks && partition !== undefined)
        for (const d of await partitionsLeft(c, checks, partition)) modified.add(d);
      const days = [...modified];
      // The partitions it modifies; refused past a limit, with nothing kept.
      if (partition !== undefined) countPartitionModifications(warehouse, target!, days.length, now);
      const conflict = conflicts?.(days);
      if (conflict) throw conflict;
      await c.run('COMMIT');
      if (target) target.lastModifiedTime = now;
      const outcome: JobOutcome = { statementType, numDmlAffectedRows: rows.length, modifiedPartitions: days };
      if (!merge) return outcome;
      const count = (action: string) => rows.filter((row) => row[0] === action).length;
      return {
        ...outcome,
        dmlStats: {
          insertedRowCount: count('INSERT'),
          updatedRowCount: count('UPDATE'),
          deletedRowCount: count('DELETE'),
        },
      };
    } catch (e) {
      await c.run('ROLLBACK');
      throw e;
    } finally {
      forgetPartitions(target);
    }
  }
}
