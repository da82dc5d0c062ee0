/**
 * Consecutive runs in which a scheduled trigger could not open its spreadsheet, per trigger, in
 * the user's properties (the trigger runs as them, without its document). A spreadsheet deleted or
 * no longer shared with the user keeps its trigger on Google's side: it would fire every hour for
 * ever and hold one of the user's 20 triggers. The same "Document … is missing" error also shows
 * up for a passing outage (public Apps Script scripts retry on it), so one failure proves nothing:
 * the trigger gives up only after GIVE_UP_AFTER_RUNS failed runs spanning GIVE_UP_AFTER_MS.
 * Bounded: one entry per trigger of the user (at most 20).
 */
import { numbersEntry, userRecordMap } from '../platform/user-record-map';

const PROPERTY = 'ma.scheduleOpenFailures';
export const GIVE_UP_AFTER_RUNS = 3;
export const GIVE_UP_AFTER_MS = 2 * 3_600_000;

interface Failures {
  /** When the first of the consecutive failures happened (epoch ms). */
  since: number;
  runs: number;
}

const openFailures = userRecordMap<Failures>(PROPERTY, numbersEntry(['since', 'runs']));

/**
 * Counts one more failed open; true when the trigger should give up. The count stays until the
 * trigger is gone (clearOpenFailures): a delete that fails (script.scriptapp withheld) gives up
 * again at the next run.
 */
export function recordOpenFailure(triggerUid: string, now: number): { runs: number; since: number; giveUp: boolean } {
  const map = openFailures.read();
  const previous = map[triggerUid];
  const failures = { since: previous?.since ?? now, runs: (previous?.runs ?? 0) + 1 };
  const giveUp = failures.runs >= GIVE_UP_AFTER_RUNS && now - failures.since >= GIVE_UP_AFTER_MS;
  map[triggerUid] = failures;
  openFailures.write(map);
  return { ...failures, giveUp };
}

/** The spreadsheet opened, or the trigger was removed: the count starts again. */
export function clearOpenFailures(triggerUid: string): void {
  openFailures.forget(triggerUid);
}
