/**
 * A load job's work: newline-delimited JSON (sourceFormat NEWLINE_DELIMITED_JSON, the media of
 * jobs.insert) into a table, all or nothing (maxBadRecords 0, the default: "Loading JSON data from
 * Cloud Storage" / JobConfigurationLoad). Each row is checked against the table's schema: an unknown
 * field, a value of the wrong type, a missing REQUIRED field fail the job with the loader's
 * messages. A row of a DAY-partitioned table without its partitioning column fails too: BigQuery
 * would put it in the __NULL__ partition, the stand-in takes the stricter reading so that no order
 * falls out of every day's query.
 */
import type { TableRef } from './dialect.js';
import { JobFailure, type ErrorProto } from './errors.js';
import { castText, checkValue, duckTypeOf, parseSchema, type TableField } from './field-types.js';
import { createTable } from './catalog.js';
import { countPartitionModifications } from './partition-quota.js';
import { forgetPartitions } from './partition-reads.js';
import { columnSql, tableKey, tableSql, type TableRecord, type Warehouse } from './warehouse.js';

/**
 * The rows go in as text through DuckDB's appender into a scratch table, then one INSERT … SELECT
 * casts them to the columns' types: a million rows as SQL literals took minutes to parse.
 */
const TEXT_TABLE = '__load_text';

export interface LoadSpec {
  destination: TableRef;
  schema?: unknown;
  writeDisposition: 'WRITE_APPEND' | 'WRITE_TRUNCATE' | 'WRITE_EMPTY';
  createDisposition: 'CREATE_IF_NEEDED' | 'CREATE_NEVER';
  timePartitioning?: unknown;
  clustering?: unknown;
  media: string;
}

/** A provided schema must equal the table's (names, types, modes): "Provided Schema does not match Table …". */
function compareSchema(table: TableRecord, provided: TableField[]): void {
  const name = tableKey(table.ref);
  for (const f of provided) {
    const old = table.schema.find((o) => o.name.toLowerCase() === f.name.toLowerCase());
    if (!old)
      throw new JobFailure(
        'invalid',
        `Provided Schema does not match Table ${name}. Cannot add fields (field: ${f.name})`,
      );
    if (old.type !== f.type)
      throw new JobFailure(
        'invalid',
        `Provided Schema does not match Table ${name}. Field ${f.name} has changed type from ${old.type} to ${f.type}`,
      );
    if (old.mode !== f.mode)
      throw new JobFailure(
        'invalid',
        `Provided Schema does not match Table ${name}. Field ${f.name} has changed mode from ${old.mode} to ${f.mode}`,
      );
  }
}

function rowErrors(table: TableRecord, media: string): { rows: Array<Record<string, unknown>>; errors: ErrorProto[] } {
  const rows: Array<Record<string, unknown>> = [];
  const errors: ErrorProto[] = [];
  const partitionField = table.timePartitioning?.field;
  const known = new Set(table.schema.map((f) => f.name.toLowerCase()));
  let position = 0;
  for (const line of media.split('\n')) {
    const start = position;
    position += Buffer.byteLength(line, 'utf8') + 1;
    if (line.trim() === '') continue;
    const fail = (message: string): void => {
      errors.push({
        reason: 'invalid',
        message: `Error while reading data, error message: JSON parsing error in row starting at position ${start}: ${message}`,
      });
    };
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      fail('Parser terminated before end of string');
      continue;
    }
    if (row === null || typeof row !== 'object' || Array.isArray(row)) {
      fail('Only JSON objects are allowed at the top level of a row');
      continue;
    }
    const record = row as Record<string, unknown>;
    // Each field's key, matched without case: the first of the row's keys that names it.
    const keys = new Map<string, string>();
    for (const k of Object.keys(record)) if (!keys.has(k.toLowerCase())) keys.set(k.toLowerCase(), k);
    const unknown = Object.keys(record).find((k) => !known.has(k.toLowerCase()));
    if (unknown !== undefined) {
      fail(`No such field: ${unknown}.`);
      continue;
    }
    const values: Record<string, unknown> = {};
    let bad: string | null = null;
    for (const field of table.schema) {
      const key = keys.get(field.name.toLowerCase());
      const value = key === undefined ? null : record[key];
      bad ??= checkValue(field, value);
      if (!bad && field.name === partitionField && (value === null || value === undefined))
        bad = `Missing value for the partitioning column ${field.name} (the local stand-in refuses the __NULL__ partition).`;
      values[field.name] = value;
    }
    if (bad) fail(bad);
    else rows.push(values);
  }
  return { rows, errors };
}

export async function runLoad(warehouse: Warehouse, spec: LoadSpec, now: number): Promise<number> {
  const { destination } = spec;
  const name = tableKey(destination);
  if (!warehouse.datasets.has(`${destination.projectId}:${destination.datasetId}`))
    throw new JobFailure('notFound', `Not found: Dataset ${destination.projectId}:${destination.datasetId}`);
  let provided: TableField[] | undefined;
  try {
    provided = spec.schema === undefined ? undefined : parseSchema(spec.schema);
  } catch (e) {
    throw new JobFailure('invalid', (e as Error).message);
  }
  let table = warehouse.table(destination);
  if (!table) {
    if (spec.createDisposition === 'CREATE_NEVER') throw new JobFailure('notFound', `Not found: Table ${name}`);
    if (!provided) throw new JobFailure('invalid', 'No schema specified on job or table.');
    try {
      table = await createTable(warehouse, 'jobs.insert', destination, spec, now);
    } catch (e) {
      throw new JobFailure(
        'invalid',
        (e as Error).message.replace(/^API call to bigquery\.jobs\.insert failed with error: /, ''),
      );
    }
  } else if (provided) compareSchema(table, provided);
  const { rows, errors } = rowErrors(table, spec.media);
  if (errors.length > 0) {
    throw new JobFailure(
      'invalid',
      `Error while reading data, error message: JSON table encountered too many errors, giving up. Rows: ${rows.length + errors.length}; errors: ${errors.length}. Please look into the errors[] collection for more details.`,
      errors,
    );
  }
  const target = table;
  const partition = target.timePartitioning?.field;
  if (partition !== undefined)
    countPartitionModifications(warehouse, target, new Set(rows.map((r) => String(r[partition]))).size, now);
  await warehouse.exclusive(async (c) => {
    if (spec.writeDisposition === 'WRITE_EMPTY') {
      const count = await c.runAndReadAll(`SELECT count(*) FROM ${tableSql(destination)}`);
      if (Number(count.getRows()[0][0]) > 0) throw new JobFailure('duplicate', `Already Exists: Table ${name}`);
    }
    const text = `main.${columnSql(TEXT_TABLE)}`;
    await c.run(`CREATE OR REPLACE TABLE ${text} (${target.schema.map((_, i) => `c${i} VARCHAR`).join(', ')})`);
    try {
      const appender = await c.createAppender(TEXT_TABLE, 'main');
      for (const row of rows) {
        for (const f of target.schema) {
          const value = castText(f, row[f.name]);
          if (value === null) appender.appendNull();
          else appender.appendVarchar(value);
        }
        appender.endRow();
      }
      appender.closeSync();
      const columns = target.schema.map((f) => columnSql(f.name)).join(', ');
      const casts = target.schema.map((f, i) =>
        f.type === 'STRING' ? `c${i}` : `CAST(c${i} AS ${duckTypeOf(f.type)})`,
      );
      await c.run('BEGIN TRANSACTION');
      try {
        if (spec.writeDisposition === 'WRITE_TRUNCATE') await c.run(`DELETE FROM ${tableSql(destination)}`);
        await c.run(`INSERT INTO ${tableSql(destination)} (${columns}) SELECT ${casts.join(', ')} FROM ${text}`);
        await c.run('COMMIT');
      } catch (e) {
        await c.run('ROLLBACK');
        throw e;
      } finally {
        forgetPartitions(target);
      }
    } finally {
      await c.run(`DROP TABLE IF EXISTS ${text}`);
    }
  });
  target.lastModifiedTime = now;
  return rows.length;
}
