/**
 * Why a sync paused, in the user's words: one vocabulary for the Sync log, Last sync, Sync now and
 * the check for vanished orders. Pure.
 */

/**
 * What a pause waits for: the limit a 429 named (spec 8.1's X-RateLimit-Reason: burst, hour, day,
 * concurrency, client_global), a 429 that named none, the add-on's own reserve of the hourly
 * allowance, or BigQuery's daily quotas per table (orders in BigQuery): load jobs, partition modifications.
 */
export type PauseCause =
  | 'reserve'
  | 'burst'
  | 'hour'
  | 'day'
  | 'concurrency'
  | 'client_global'
  | 'unnamed'
  | 'bigquery_loads'
  | 'bigquery_partitions';

/** Requests of each hour a sync leaves for the sidebar and formulas: it pauses before fewer remain. */
export const HOURLY_RESERVE_REQUESTS = 20;

const CAUSE_TEXT: Record<PauseCause, string> = {
  reserve: `Paused to keep the hourly request allowance (fewer than ${HOURLY_RESERVE_REQUESTS} requests left)`,
  hour: "Paused: this store's hourly request limit at Merchant Analytics is used up",
  day: "Paused: this store's daily request limit at Merchant Analytics is used up",
  burst: 'Paused: Merchant Analytics asked for fewer requests a minute',
  concurrency: 'Paused: Merchant Analytics had too many requests in progress for this store',
  client_global: 'Paused: Merchant Analytics is limiting this add-on across all stores for a moment',
  unnamed: 'Paused: Merchant Analytics asked us to slow down',
  bigquery_loads: "Paused: BigQuery's daily quota of load jobs into this spreadsheet's tables is used up",
  bigquery_partitions:
    "Paused: BigQuery's daily limit of 30,000 partition modifications to each of this spreadsheet's tables is used up",
};

/** A run recorded before runs kept their cause: the pause is known, its cause is not. */
const UNKNOWN_CAUSE = 'Paused by a request limit of Merchant Analytics';

export function isPauseCause(value: unknown): value is PauseCause {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(CAUSE_TEXT, value);
}

/** "Paused: …", one clause without a full stop, for the caller to add when it resumes. */
export function pauseCauseText(cause: PauseCause | null | undefined): string {
  return cause ? CAUSE_TEXT[cause] : UNKNOWN_CAUSE;
}
