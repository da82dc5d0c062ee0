/**
 * Automatic sync: the schedule in force, what happened to it, and what the sidebar asks to set.
 * Part of the sidebar contract: JSON-safe, as everything crossing google.script.run.
 */

export type ScheduleMode = 'off' | 'hourly' | 'daily';

export interface ScheduleView {
  mode: ScheduleMode;
  /** Hour of day (0–23) for 'daily', else null, in `timeZone`. */
  hour: number | null;
  /**
   * The time zone of `hour`: the spreadsheet's (File → Settings), which the trigger is pinned to
   * (a clock trigger's atHour is otherwise in the script's zone). Null when it cannot be read.
   */
  timeZone: string | null;
  /** What happened to the schedule, when there is something to say; null otherwise. */
  note: ScheduleNote | null;
  /**
   * Who set the schedule in force (its trigger runs as them; other editors cannot see or change
   * it); null when off or unknown.
   */
  owner?: string | null;
  /** False when the schedule is another editor's: only they can change or turn it off. */
  yours?: boolean;
  /** "Next run: today between 14:00 and 15:00." in `timeZone`; null when off (nextRunText). */
  nextRun?: string | null;
}

/**
 * 'paused': the connection was lost, the schedule is kept and resumes after reconnecting the sheets'
 * store (automatic sync is off until then). 'resumed': it has just been restored after a reconnect.
 * 'removed': its trigger could not open the spreadsheet for hours and removed itself (off since then).
 */
export interface ScheduleNote {
  kind: 'paused' | 'resumed' | 'removed';
  /** A sentence a finance person understands, naming the schedule and its time zone. */
  message: string;
}

export type ScheduleRequest = { mode: 'off' } | { mode: 'hourly' } | { mode: 'daily'; hour: number };
