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
  return parseRecord(store().getProperty(PROPERTY), now);
}

function parseRecord(text: string | null, now: number): AllowanceRecord {
  let parsed: Partial<AllowanceRecord> = {};
  try {
    parsed = JSON.parse(text ?? '{}') as Partial<AllowanceRecord>;
  } catch {
    parsed = {};
  }
  const runs = Array.isArray(parsed.runs) ? parsed.runs.filter(isRun).filter((r) => r[0] > now - DAY_MS) : [];
  return { runs, skipNotedAt: typeof parsed.skipNotedAt === 'number' ? parsed.skipNotedAt : null };
}

function recordText(record: AllowanceRecord): string {
  return JSON.stringify({ runs: record.runs.slice(-MAX_ENTRIES), skipNotedAt: record.skipNotedAt });
}

function write(record: AllowanceRecord): void {
  store().setProperty(PROPERTY, recordText(record));
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

/**
 * What is left of a run after the owner's copy is written (the release's state write, the stamp, the
 * lock: about 0.1 s, apps-script-cost-model.md), counted ahead with room to spare. A longer rest is
 * recorded at the end (recordRestOfRun): the ledger never holds less than the run took.
 */
export const REST_OF_RUN_MS = 1_000;

/** This execution's scheduled run, when it may ride with the owner's copy: its start, and what rode. */
let riding: { startedAt: number; recordedMs: number | null } | null = null;

/** The scheduled run that started at `startedAt` may be recorded with a user-properties write it makes anyway. */
export function rideWithOwnerCopy(startedAt: number): void {
  riding = { startedAt, recordedMs: null };
}

/**
 * The ledger with this run in it, as `stored` (the user's properties, read whole moments ago) has it
 * plus this run, counted to its end (REST_OF_RUN_MS ahead): for the owner's copy's write, which saves
 * the ledger's own read and write. Empty when no run rides. `written()` once the values are stored.
 */
export function ledgerRiding(
  stored: Readonly<Record<string, string>>,
  now: number,
): { values: Record<string, string>; written: () => void } {
  const run = riding;
  if (!run || run.recordedMs !== null) return { values: {}, written: () => undefined };
  const ms = Math.max(0, Math.round(now - run.startedAt)) + REST_OF_RUN_MS;
  const record = parseRecord(stored[PROPERTY] ?? null, now);
  record.runs.push([now + REST_OF_RUN_MS, ms]);
  return { values: { [PROPERTY]: recordText(record) }, written: () => (run.recordedMs = ms) };
}

/** At the run's end: records it, or what it took beyond what rode with the owner's copy. */
export function recordRestOfRun(now: number, startedAt: number): void {
  const recorded = riding && riding.startedAt === startedAt ? riding.recordedMs : null;
  riding = null;
  const ms = now - startedAt;
  if (recorded === null) recordScheduledRun(now, ms);
  else if (ms > recorded) recordScheduledRun(now, ms - recorded);
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
