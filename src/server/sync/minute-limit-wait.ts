/**
 * A Sync now step stopped by one of the API's per-minute limits is not a pause of the sync: the
 * window frees within the minute, so the step waits it out and the next step goes on. Only the
 * hourly and daily allowance (and the add-on's reserve of it) end a Sync now until later.
 */
import type { PauseCause } from './failures';
import type { RunOutcome } from './run-options';

/**
 * Spec 8.1: burst (60 requests a minute per store), client_global (200 a minute across stores) and
 * concurrency (2 in flight) free within a minute; their Retry-After never says more.
 */
const PER_MINUTE_LIMITS: readonly PauseCause[] = ['burst', 'client_global', 'concurrency'];
const MINUTE_MS = 60_000;

/** How long to wait before the next step when the run stopped on a per-minute limit; null when it did not. */
export function minuteLimitWaitMs(outcome: RunOutcome, now: number): number | null {
  if (outcome.pausedUntil === null || outcome.pauseFor === undefined) return null;
  if (!PER_MINUTE_LIMITS.includes(outcome.pauseFor)) return null;
  const wait = outcome.pausedUntil - now;
  // A longer Retry-After than the window is not a per-minute wait: it stays a pause.
  return wait > MINUTE_MS ? null : Math.max(0, wait);
}
