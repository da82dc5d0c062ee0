/** How a run that did not reach its end ends: busy, the store changed, paused, or failed. */
import { storeTag } from '../auth';
import { clipText } from '../platform/property-size';
import { emptyCounts } from '../../contract/counts-text';
import { pauseMessage, type PauseCause, type RunFailure } from './failures';
import { emptyTally, type JobName } from './job-context';
import type { RunOptions, RunOutcome } from './run-options';
import { describeSchedule, suspendSchedule } from './schedule';
import type { SyncStateStore } from '../state/sync-state';
import { CHECK_JOB, type LogEntry } from './sync-log';

/** How a run that did not reach its end ended. */
export type Ending = Omit<RunOutcome, 'job' | 'tally' | 'counts'>;

/** A run that did nothing: another held the document, or the day's trigger time is spent. */
export function idleOutcome(message: string, outcome: 'busy' | 'partial'): RunOutcome {
  return {
    done: false,
    job: null,
    tally: emptyTally(),
    message,
    outcome,
    failureCode: null,
    position: null,
    counts: emptyCounts(),
    pausedUntil: null,
  };
}

/** A run stopped by the hourly reserve, a rate limit or Google's Sheets quota has not failed: it is partial and continues. */
export function pausedEnding(failure: RunFailure, timeZone: string): Ending {
  const pausedUntil = failure.pausedUntil ?? null;
  const cause: PauseCause | undefined = failure.pauseFor;
  const message =
    failure.code === 'sheets_quota' ? failure.userMessage : pauseMessage(pausedUntil, timeZone, Date.now(), cause);
  return {
    done: false,
    message,
    outcome: 'partial',
    failureCode: null,
    position: null,
    pausedUntil,
    ...(cause ? { pauseFor: cause } : {}),
  };
}

/**
 * The connection moved to another store (the same merchant user connected a different one): both
 * stores named as the service names them, and what to do about each.
 */
export function storeChangedMessage(
  sheetsStoreName: string | null,
  sheetsStoreId: string | null,
  account: { store: { id: string; name?: string | null; shop_domain?: string | null } },
): string {
  const held = sheetsStoreName
    ? `${sheetsStoreName} (${sheetsStoreId ?? 'unknown id'})`
    : `store ${sheetsStoreId ?? 'unknown'}`;
  const now = account.store.name
    ? `${clipText(String(account.store.name), 100)}${account.store.shop_domain ? ` (${clipText(String(account.store.shop_domain), 100)})` : ''}`
    : `store ${account.store.id}`;
  return (
    `This spreadsheet holds the data of ${held}, but the connection now reads another store: ${now}. Nothing was written. ` +
    `To keep syncing ${sheetsStoreName ?? 'the original store'} here, Reconnect and choose it; to sync ${account.store.name ?? 'the other store'}, use a new spreadsheet.`
  );
}

export function failedEnding(failure: RunFailure, state: SyncStateStore): Ending {
  let message = failure.userMessage;
  if (failure.connectionLost) message += pauseNote(storeTag());
  // The sidebar offers a created_after window while this stands (cleared by a window or a complete run).
  if (failure.code === 'cell_limit' || failure.code === 'backfill_too_large')
    state.update('capacity', { stoppedAt: Date.now() });
  return {
    done: true,
    message,
    outcome: 'error',
    failureCode: failure.code,
    failurePlace: failure.place,
    position: null,
    pausedUntil: null,
  };
}

/** Pauses the schedule of a lost connection (remembering it for the reconnect) and says so. */
export function pauseNote(sheetsStoreId: string | null): string {
  const paused = suspendSchedule(sheetsStoreId, Date.now());
  return paused
    ? ` Automatic sync is off until you reconnect this store; then it resumes ${describeSchedule(paused.schedule, paused.timeZone)}.`
    : '';
}

/** The Sync log's job: the jobs run, or "check" for the on-demand tie-out, which syncs nothing. */
export function runLabel(jobs: readonly JobName[], options: RunOptions): string {
  return jobs.length === 0 && options.tieOut === true ? CHECK_JOB : jobs.join(', ');
}

export function blankEntry(startedAt: number, job: string): LogEntry {
  return {
    startedAt,
    endedAt: null,
    job,
    pages: 0,
    counts: emptyCounts(),
    requests: 0,
    rateLimitWaits: 0,
    outcome: 'running',
    message: '',
  };
}
