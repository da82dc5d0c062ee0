/**
 * Column-partitioned tables' limits ("Quotas and limits", https://cloud.google.com/bigquery/quotas,
 * "Partitioned tables"): "Number of partitions modified by a single job: 4,000" (each job
 * operation, query or load, can affect up to 4,000 partitions; BigQuery rejects any that tries to
 * modify more) and "Number of partition modifications per column-partitioned table per day:
 * 30,000" (every partition a job modifies counts, whatever the job). The stand-in counts the
 * partitions a DML statement or a load writes, refuses the job that goes past either limit (its
 * changes are rolled back: a failed job changes nothing), and counts the modifications of the jobs
 * that succeed over the last 24 hours. The messages are those "Troubleshoot quota and limit errors"
 * quotes.
 */
import { JobFailure } from './errors.js';
import { tableKey, type TableRecord, type Warehouse } from './warehouse.js';

export const MAX_PARTITIONS_PER_JOB = 4_000;
export const PARTITION_MODIFICATIONS_PER_TABLE_PER_DAY = 30_000;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Per warehouse, per table ("project:dataset.table"): each successful job's time and partitions modified. */
const modifications = new WeakMap<Warehouse, Map<string, Array<{ at: number; partitions: number }>>>();

function history(warehouse: Warehouse, table: TableRecord, now: number): Array<{ at: number; partitions: number }> {
  let tables = modifications.get(warehouse);
  if (!tables) modifications.set(warehouse, (tables = new Map()));
  const kept = (tables.get(tableKey(table.ref)) ?? []).filter((m) => m.at > now - DAY_MS);
  tables.set(tableKey(table.ref), kept);
  return kept;
}

/**
 * Checks a job that modifies `partitions` partitions of `table` (a column-partitioned one; others
 * are not counted here) and counts them; throws the job's failure when it goes past a limit.
 */
export function countPartitionModifications(
  warehouse: Warehouse,
  table: TableRecord | undefined,
  partitions: number,
  now: number,
): void {
  if (!table?.timePartitioning || partitions === 0) return;
  if (partitions > MAX_PARTITIONS_PER_JOB)
    throw new JobFailure(
      'invalid',
      `Too many partitions produced by query, allowed ${MAX_PARTITIONS_PER_JOB}, query produces at least ${partitions} partitions`,
    );
  const kept = history(warehouse, table, now);
  const today = kept.reduce((n, m) => n + m.partitions, 0);
  if (today + partitions > PARTITION_MODIFICATIONS_PER_TABLE_PER_DAY)
    throw new JobFailure(
      'quotaExceeded',
      'Quota exceeded: Your table exceeded quota for Number of partition modifications to a column partitioned table. For more information, see https://cloud.google.com/bigquery/docs/troubleshoot-quotas',
    );
  kept.push({ at: now, partitions });
}
