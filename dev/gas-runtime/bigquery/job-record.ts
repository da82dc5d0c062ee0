/** A job of the stand-in, from jobs.insert or jobs.query until it is DONE (jobs.ts runs it). */
import type { JobFailure } from './errors.js';
import type { TableRef } from './dialect.js';
import type { FieldType } from './field-types.js';

export interface ResultColumn {
  name: string;
  type: FieldType;
}

export interface JobOutcome {
  failure?: JobFailure;
  /** A query's result. */
  columns?: ResultColumn[];
  rows?: Array<Array<string | null>>;
  statementType?: string;
  numDmlAffectedRows?: number;
  /** A DML statement's rows by action (JobStatistics2.dmlStats): a MERGE's inserted and updated rows apart. */
  dmlStats?: { insertedRowCount: number; updatedRowCount: number; deletedRowCount: number };
  /** The partitions (days; "*" for an unpartitioned table) a DML statement changed: the runtime's own record, not in the job resource. */
  modifiedPartitions?: string[];
  /** The partitions a query read from its partitioned tables (partition-reads.ts). */
  totalPartitionsProcessed?: number;
  /** A load's rows written. */
  outputRows?: number;
}

export interface JobRecord {
  projectId: string;
  jobId: string;
  /** Where it runs (locations.ts). */
  location: string;
  kind: 'LOAD' | 'QUERY';
  configuration: Record<string, unknown>;
  userEmail: string;
  creationTime: number;
  /** When the job is DONE on the runtime clock (its modelled duration after creation). */
  endsAt: number;
  /** The table a load or a mutating DML statement writes. */
  target?: TableRef;
  mutatingDml: boolean;
  /** A load's media, in bytes (JobStatistics3.inputFileBytes). */
  mediaBytes?: number;
  /** The work, run once when the clock passes endsAt (jobs.ts settle). */
  execute: (self: JobRecord) => Promise<JobOutcome>;
  settled?: Promise<void>;
  outcome?: JobOutcome;
}
