/**
 * Google gives each user 90 minutes of trigger runtime a day (6 h on Workspace), summed over
 * every script and spreadsheet of that user; past it none of the user's triggers run until the
 * next day (apps-script-facts.md, guides/services/quotas). Sidebar executions do not count.
 * Scheduled syncs therefore take a small share: each run stops after SCHEDULED_RUN_MS, and all
 * scheduled runs of the user together stop at DAILY_SHARE_MS in any 24 hours. A large backfill is
 * the sidebar's job ("Sync now"); a run cut short says so.
 *
 * The use is kept in the user's properties (the allowance is the user's, across spreadsheets),
 * bounded to the runs of the last 24 hours (at most MAX_ENTRIES: well under 9 KB).
 */

/** One scheduled run's budget: enough for an hour's new orders, little of the day's allowance. */
export const SCHEDULED_RUN_MS = 60_000;
/**
 * What all scheduled runs of the user may spend in 24 hours: a third of Google's 90 minutes, so the
 * user's other scripts keep two thirds, and a user with several scheduled spreadsheets (up to 20
 * triggers) still syncs each hourly (about 6 s a run for a small store).
 */
export const DAILY_SHARE_MS = 30 * 60_000;
/** A run with less than this left would do nothing useful. */
const MIN_RUN_MS = 15_000;
const DAY_MS = 86_400_000;
const PROPERTY = 'scheduledRuntime';
export const MAX_ENTRIES = 200;

interface AllowanceRecord {
  /** [ended at (epoch ms), runtime ms] of the user's scheduled runs in the last 24 hours. */
  runs: Array<[number, number]>;
  /** When a skipped run last wrote its note to the Sync log (once a day is enough). */
  skipNotedAt: number | null;
}

function store(): GoogleAppsScript.Properties.Properties {
  return PropertiesService.getUserProperties();
}

function isRun(x: unknown): x is [number, number] {
  return Array.isArray(x) && x.length === 2 && typeof x[0] === 'number' && typeof x[1] === 'number';
}

function read(now: number): AllowanceRecord {
  let parsed: Partial<AllowanceRecord> = {};
  try {
    parsed = JSON.parse(store().getProperty(PROPERTY) ?? '{}') as Partial<AllowanceRecord>;
  } catch {
    parsed = {};
  }
  const runs = Array.isArray(parsed.runs) ? parsed.runs.filter(isRun).filter((r) => r[0] > now - DAY_MS) : [];
  return { runs, skipNotedAt: typeof parsed.skipNotedAt === 'number' ? parsed.skipNotedAt : null };
}

function write(record: AllowanceRecord): void {
  store().setProperty(
    PROPERTY,
    JSON.stringify({ runs: record.runs.slice(-MAX_ENTRIES), skipNotedAt: record.skipNotedAt }),
  );
}

export interface ScheduledAllowance {
  /** The budget this run may use (0: skip the run). */
  budgetMs: number;
  usedMs: number;
  /** When the oldest counted run leaves the 24-hour window (when a skipped schedule can run again). */
  freesAt: number | null;
}

export function scheduledAllowance(now: number): ScheduledAllowance {
  const { runs } = read(now);
  const usedMs = runs.reduce((n, r) => n + r[1], 0);
  const left = DAILY_SHARE_MS - usedMs;
  const freesAt = runs.length > 0 ? runs[0][0] + DAY_MS : null;
  return { budgetMs: left < MIN_RUN_MS ? 0 : Math.min(SCHEDULED_RUN_MS, left), usedMs, freesAt };
}

export function recordScheduledRun(now: number, ms: number): void {
  const record = read(now);
  record.runs.push([now, Math.max(0, Math.round(ms))]);
  write(record);
}

/** When this user's last scheduled run started (its end less its runtime), in the last 24 hours; else null. */
export function lastScheduledRunStart(now: number): number | null {
  const runs = read(now).runs;
  const last = runs.length > 0 ? runs[runs.length - 1] : undefined;
  return last ? last[0] - last[1] : null;
}

/** True (and remembered) when a skipped run should write its note: at most once a day. */
export function claimSkipNote(now: number): boolean {
  const record = read(now);
  if (record.skipNotedAt !== null && record.skipNotedAt > now - DAY_MS) return false;
  record.skipNotedAt = now;
  write(record);
  return true;
}

/** Said in the Sync log when a scheduled run stopped at its budget with work left. */
export const CUT_SHORT_NOTE =
  "Scheduled runs stop after about a minute to stay well inside Google's 90 minutes a day of trigger time; the next run continues. To finish a large backfill now, open the sidebar and use Sync now (it does not count against that allowance).";

/** Said when a scheduled run of a first backfill paused at the API's limits. */
export const BACKFILL_SOONER_NOTE =
  'The first sync of a large store takes several scheduled runs; to finish it sooner, open the sidebar and use Sync now.';

export function skippedMessage(usedMs: number, freesAt: number | null, when: (at: number) => string): string {
  const minutes = Math.round(usedMs / 60_000);
  const resume = freesAt === null ? 'later today' : `after ${when(freesAt)}`;
  return `Scheduled sync skipped: scheduled runs used their ${minutes}-minute share of Google's daily trigger time (90 minutes a day for all your triggers). They continue ${resume}; use Sync now in the sidebar to sync sooner.`;
}
