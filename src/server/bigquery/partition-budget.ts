/**
 * BigQuery's "Number of partition modifications per column-partitioned table per day: 30,000"
 * ("Quotas and limits", Partitioned tables, https://cloud.google.com/bigquery/quotas: load, copy
 * and query jobs all count). A flush's MERGE modifies one partition of orders and of line_items per
 * day of its orders, up to 4,000 (partition-limits.ts), and the feed reads by updated_at: a
 * backfill's flush of about 9 MB (some 8,000 orders) can span every day of the store's history. A
 * store of 406 days at 1,000 orders a day: the backfill's 51 flushes and the day's 24 hourly runs,
 * their changed orders spread over its history, modify 75 × 406 = 30,450 partitions a table.
 *
 * So the add-on keeps the day's budget itself: before a flush it counts the days the flush
 * modifies against what its flushes modified over the last 24 hours (a document property, by the
 * hour), and when the flush would pass 30,000 the run pauses before it, until enough of the
 * counted hours have left the window. BigQuery's own refusal (another spreadsheet writing into the
 * same dataset's tables) pauses it for 24 hours, as the load quota does.
 */
import { documentProperties } from '../platform/properties';
import type { DestinationPause } from '../sync/destination-pause';
import type { JobContext } from '../sync/job-context';
import { pauseUntil, refuseWhilePaused, type QuotaPause } from './quota-pause';
import { BigQueryJobError } from './service';

export const PARTITION_MODIFICATIONS_PER_DAY = 30_000;
/** The partitions the flushes modified, by the hour they ran in: {"<hours since the epoch>": partitions}. */
export const PARTITION_MODIFICATIONS_KEY = 'ma.sync.bigqueryPartitionModifications';
export const PARTITIONS_PAUSED_KEY = 'ma.sync.bigqueryPartitionsPausedUntil';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

const PARTITIONS: QuotaPause = {
  key: PARTITIONS_PAUSED_KEY,
  message:
    "BigQuery allows 30,000 partition modifications a day to each table, and the next write into this spreadsheet's orders and line_items tables (one partition a day of its orders) would pass it. Nothing was lost and no order was written twice",
  cause: 'bigquery_partitions',
};

/** An hour's partitions count until 24 hours after the hour ends (the add-on keeps no finer time). */
const countedUntil = (hour: number): number => (hour + 1) * HOUR_MS + DAY_MS;

function readLedger(text: string | undefined): Map<number, number> {
  const ledger = new Map<number, number>();
  let stored: unknown = null;
  try {
    stored = JSON.parse(text ?? 'null');
  } catch {
    stored = null;
  }
  if (stored && typeof stored === 'object')
    for (const [hour, n] of Object.entries(stored as Record<string, unknown>))
      if (Number.isInteger(Number(hour)) && typeof n === 'number') ledger.set(Number(hour), n);
  return ledger;
}

export interface PartitionBudget {
  /** Counts a flush that modifies `partitions` partitions of each table, or throws the run's pause. */
  spend(partitions: number, now: number): void;
}

/** The budget as the run found it (the state read at its start), kept in step with its flushes. */
export function partitionBudget(ctx: Pick<JobContext, 'state'>): PartitionBudget {
  let ledger: Map<number, number> | null = null;
  return {
    spend(partitions, now) {
      if (ledger === null) ledger = readLedger(ctx.state.readAtStart[PARTITION_MODIFICATIONS_KEY]);
      const counted = ledger;
      counted.forEach((_, h) => {
        if (countedUntil(h) <= now) counted.delete(h);
      });
      const hours = [...counted.keys()].sort((a, b) => a - b);
      let total = hours.reduce((n, h) => n + counted.get(h)!, 0);
      if (total + partitions > PARTITION_MODIFICATIONS_PER_DAY) {
        // Resumes when the oldest hours that must leave for this flush to fit have left.
        const last = hours.find((h) => (total -= counted.get(h)!) + partitions <= PARTITION_MODIFICATIONS_PER_DAY);
        throw pauseUntil(PARTITIONS, countedUntil(last ?? Math.floor(now / HOUR_MS)));
      }
      const hour = Math.floor(now / HOUR_MS);
      counted.set(hour, (counted.get(hour) ?? 0) + partitions);
      documentProperties().setProperty(PARTITION_MODIFICATIONS_KEY, JSON.stringify(Object.fromEntries(counted)));
    },
  };
}

/** True for BigQuery's refusal of a job under the table's daily partition modifications. */
export function partitionQuotaExceeded(e: unknown): boolean {
  const message = String((e as Error)?.message ?? e);
  const quota = /Quota exceeded: Your table exceeded quota for Number of partition modifications/.test(message);
  return quota && (!(e instanceof BigQueryJobError) || e.reason === 'quotaExceeded');
}

/** BigQuery's refusal as the run's pause: 24 hours, the add-on cannot see when the table's oldest modifications leave. */
export function pauseForPartitionQuota(now: number): DestinationPause {
  return pauseUntil(PARTITIONS, now + DAY_MS);
}

/** Before a run's first page: still within the pause, the run stops here. */
export function refuseWhilePartitionsPaused(ctx: Pick<JobContext, 'state'>, now: number): void {
  refuseWhilePaused(PARTITIONS, ctx, now);
}
