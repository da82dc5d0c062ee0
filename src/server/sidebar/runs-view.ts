/** "Last sync" in the sidebar: the recent runs of the Sync log as the sidebar lists them. Pure. */
import type { JobView } from '../../contract/sidebar';
import { pauseCauseText } from '../../contract/pause-text';
import { resumeTimeText } from '../platform/local-time';
import { CHECK_JOB, type LoggedRun } from '../sync/sync-log';

/** How many recent runs the sidebar lists under "Last sync". */
export const RUNS_SHOWN = 3;

function outcomeOf(record: LoggedRun): string {
  if (record.outcome === 'ok' || record.outcome === 'error') return record.outcome;
  return 'partial';
}

/**
 * The recent runs as the sidebar lists them (newest first). A failure is history once a later run
 * succeeded, or, when the connection was lost, once it works again: then it is shown neutral with
 * a short reason, never with the call to action it had.
 */
export function jobViewsOf(runs: readonly LoggedRun[], connected: boolean, timeZone: string, now: number): JobView[] {
  return runs.map((record, index) => {
    const laterSuccess = runs.slice(0, index).some((r) => r.outcome === 'ok' || r.outcome === 'partial');
    const past = record.outcome === 'error' && (laterSuccess || (record.connectionLost && connected));
    // A tie-out check's message is its result.
    let message: string | null = record.outcome === 'ok' && record.job !== CHECK_JOB ? null : record.message;
    if (past)
      message =
        record.connectionLost && connected
          ? 'Stopped: the connection was lost. It works again.'
          : 'Stopped; a later sync succeeded.';
    else if (record.outcome === 'partial' && record.pausedUntil !== null) {
      message = `${pauseCauseText(record.pauseFor)}; resumes after ${resumeTimeText(record.pausedUntil, timeZone, now)}.`;
    } else if (record.outcome !== 'error' && record.job !== CHECK_JOB) message = null;
    const label =
      record.job === CHECK_JOB
        ? 'Tie-out check'
        : record.job
          ? record.job.charAt(0).toUpperCase() + record.job.slice(1)
          : 'Sync';
    return {
      job: record.job,
      label,
      lastRunAt: new Date(record.endedAt ?? record.startedAt).toISOString(),
      outcome: outcomeOf(record),
      rows: record.rows,
      counts: record.job === CHECK_JOB ? null : record.counts,
      message,
      past,
    };
  });
}
