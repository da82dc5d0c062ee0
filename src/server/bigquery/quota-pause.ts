/**
 * A BigQuery quota the sync waits out (load jobs, partition modifications): the run pauses with
 * its checkpoint where the last MERGE left it, remembers until when in a document property, and
 * the runs until then stop before their first page: no page is read from the API that could not
 * be written. The first run after it forgets the pause and reads the pages again.
 */
import type { PauseCause } from '../../contract/pause-text';
import { documentProperties } from '../platform/properties';
import { DestinationPause } from '../sync/destination-pause';
import type { JobContext } from '../sync/job-context';

export interface QuotaPause {
  /** The document property that holds until when (ms since the epoch). */
  key: string;
  message: string;
  cause: PauseCause;
}

/** The run's pause until `until`, remembered for the runs after it. */
export function pauseUntil(quota: QuotaPause, until: number): DestinationPause {
  documentProperties().setProperty(quota.key, String(until));
  return new DestinationPause(quota.message, until, quota.cause);
}

/** Before a run's first page: still within the pause, the run stops here; past it, the pause is forgotten. */
export function refuseWhilePaused(quota: QuotaPause, ctx: Pick<JobContext, 'state'>, now: number): void {
  const stored = ctx.state.readAtStart[quota.key];
  if (stored === undefined) return;
  const until = Number(stored);
  if (Number.isFinite(until) && until > now) throw new DestinationPause(quota.message, until, quota.cause);
  documentProperties().deleteProperty(quota.key);
}
