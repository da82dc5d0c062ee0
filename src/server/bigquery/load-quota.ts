/**
 * BigQuery's load jobs per table per day: 1,500, failed loads included, refilled over a rolling
 * 24 hours ("Quotas and limits", Load jobs: https://cloud.google.com/bigquery/quotas#load_jobs;
 * "Optimize load jobs": the quota "gradually refills over the next 24 hours"). When a load is
 * refused for it, every further load that day is refused too and still spends the day's requests
 * to the API for pages it cannot write: the sync pauses instead, its checkpoint where the last
 * MERGE left it, and sends nothing to the API or BigQuery until 24 hours after the refusal (the
 * add-on cannot see when the quota's oldest load leaves the window; by then every load counted at
 * the refusal has). The next run after that reads the pages again from the checkpoint.
 */
import type { JobContext } from '../sync/job-context';
import type { DestinationPause } from '../sync/destination-pause';
import { pauseUntil, refuseWhilePaused, type QuotaPause } from './quota-pause';
import { BigQueryJobError } from './service';

export const LOADS_PAUSED_KEY = 'ma.sync.bigqueryLoadsPausedUntil';
const DAY_MS = 24 * 60 * 60 * 1000;

const LOADS: QuotaPause = {
  key: LOADS_PAUSED_KEY,
  message:
    "BigQuery refused a load: this spreadsheet's tables used up BigQuery's daily quota of load jobs (1,500 a table in 24 hours, failed loads included). Nothing was lost and no order was written twice",
  cause: 'bigquery_loads',
};

/** True for BigQuery's refusal of a load under the daily per-table quota (an API error or a job's errorResult). */
export function loadQuotaExceeded(e: unknown): boolean {
  const message = String((e as Error)?.message ?? e);
  const quota = /Quota exceeded: Your table exceeded quota for imports/.test(message);
  return quota && (!(e instanceof BigQueryJobError) || e.reason === 'quotaExceeded');
}

/** The refusal as the run's pause, remembered so that the runs until then send nothing. */
export function pauseForLoadQuota(now: number): DestinationPause {
  return pauseUntil(LOADS, now + DAY_MS);
}

/** Before a run's first page: still within the pause, the run stops here; past it, the pause is forgotten. */
export function refuseWhileLoadsPaused(ctx: Pick<JobContext, 'state'>, now: number): void {
  refuseWhilePaused(LOADS, ctx, now);
}
