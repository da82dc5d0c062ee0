/**
 * Schedules whose trigger removed itself because it could not open its spreadsheet (open
 * failures), in the user's properties, by spreadsheet: the trigger ran as that user without its
 * document, so the document cannot say it. When access comes back the owner's sidebar tells why
 * the automatic sync is off and since when, instead of a bare "Off".
 * Bounded: one entry per spreadsheet, at most MAX_KEPT (the newest).
 */
import { numbersEntry, userRecordMap } from '../platform/user-record-map';

const PROPERTY = 'ma.scheduleRemovals';
const MAX_KEPT = 20;

export interface ScheduleRemoval {
  /** When the trigger removed itself (epoch ms). */
  at: number;
  /** When the failed opens began (epoch ms). */
  since: number;
  runs: number;
}

const removals = userRecordMap<ScheduleRemoval>(PROPERTY, numbersEntry(['at', 'since', 'runs']), {
  keep: MAX_KEPT,
  newest: (removal) => removal.at,
});

export function recordScheduleRemoval(spreadsheetId: string, removal: ScheduleRemoval): void {
  removals.write({ ...removals.read(), [spreadsheetId]: removal });
}

export function scheduleRemovalOf(spreadsheetId: string): ScheduleRemoval | null {
  return removals.read()[spreadsheetId] ?? null;
}

/** The user set the schedule again (or turned it off): the removal is no longer news. */
export function forgetScheduleRemoval(spreadsheetId: string): void {
  removals.forget(spreadsheetId);
}
