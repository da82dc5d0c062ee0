/**
 * The runtime's BigQuery: datasets, tables and jobs of every project the script names, kept for the
 * runtime's life (shared by its executions, as a Cloud project is), with the rows in DuckDB
 * (`@duckdb/node-api`, in memory): one DuckDB schema "project.dataset" per dataset. DuckDB work runs
 * one statement at a time (`exclusive`), in the order the calls arrive.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { DIALECT_MACROS, type TableRef } from './dialect.js';
import type { TableField } from './field-types.js';
import type { JobRecord } from './job-record.js';

export interface DatasetRecord {
  projectId: string;
  datasetId: string;
  /** Where it lives (locations.ts): US unless datasets.insert named another. */
  location: string;
  resource: Record<string, unknown>;
  creationTime: number;
}

export interface TableRecord {
  ref: TableRef;
  schema: TableField[];
  timePartitioning?: { type: 'DAY'; field: string };
  clustering?: { fields: string[] };
  description?: string;
  /** When BigQuery deletes it (Table.expirationTime, ms since the epoch); none: it persists. */
  expirationTime?: number;
  creationTime: number;
  lastModifiedTime: number;
}

export const datasetKey = (projectId: string, datasetId: string): string => `${projectId}:${datasetId}`;
export const tableKey = (ref: TableRef): string => `${ref.projectId}:${ref.datasetId}.${ref.tableId}`;

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function schemaSql(projectId: string, datasetId: string): string {
  return quote(`${projectId}.${datasetId}`);
}

export function tableSql(ref: TableRef): string {
  return `${schemaSql(ref.projectId, ref.datasetId)}.${quote(ref.tableId)}`;
}

export function columnSql(name: string): string {
  return quote(name);
}

export class Warehouse {
  readonly datasets = new Map<string, DatasetRecord>();
  readonly tables = new Map<string, TableRecord>();
  /** By "project:jobId". */
  readonly jobs = new Map<string, JobRecord>();
  /** Load jobs' creation times per table ("project:dataset.table"), for the per-day quota. */
  readonly loadTimes = new Map<string, number[]>();
  private connection: Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private jobSeq = 0;

  /** Runs `work` alone on the DuckDB connection (opened on first use). */
  exclusive<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const run = this.queue.then(async () => work((await this.open()).connection));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private open(): Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> {
    this.connection ??= (async () => {
      const instance = await DuckDBInstance.create(':memory:');
      const connection = await instance.connect();
      for (const macro of DIALECT_MACROS) await connection.run(macro);
      return { instance, connection };
    })();
    return this.connection;
  }

  nextJobId(): string {
    this.jobSeq += 1;
    return `job_local_${this.jobSeq.toString().padStart(6, '0')}`;
  }

  table(ref: TableRef): TableRecord | undefined {
    return this.tables.get(tableKey(ref));
  }

  async close(): Promise<void> {
    if (!this.connection) return;
    const { instance, connection } = await this.connection;
    await this.queue;
    connection.closeSync();
    instance.closeSync();
    this.connection = undefined;
  }
}
