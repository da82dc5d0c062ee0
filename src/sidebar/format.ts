import type {
  CellsView,
  FailureNoticeView,
  ConnectionView,
  FreshnessView,
  JobView,
  PlanView,
  ProblemView,
  ScheduleView,
  SidebarState,
  UserAction,
} from '../contract/sidebar';

import { countsText } from '../contract/counts-text';
import { noticeOwnerText } from '../contract/notice-owner-text';

export { countsText };

export type Tone = 'ok' | 'warn' | 'bad' | 'none';

/**
 * Every time the sidebar shows is in the spreadsheet's time zone (as in the sheets and the Sync
 * log), never the viewer's; renderState sets it from the state (null: the browser's, said so).
 */
let displayZone: string | null = null;

export function setDisplayTimeZone(zone: string | null): void {
  displayZone = zone;
}

export function displayTimeZone(): string | null {
  return displayZone;
}

/** "2026-11-21 17:04", the sheets' own order of date and time, in the spreadsheet's zone; the raw text when it is not a date. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  if (isNaN(date.getTime())) return iso;
  const options: Intl.DateTimeFormatOptions = {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  };
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat(
      'en-US',
      displayZone ? { ...options, timeZone: displayZone } : options,
    ).formatToParts(date);
  } catch {
    parts = new Intl.DateTimeFormat('en-US', options).formatToParts(date);
  }
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`;
}

/** The one line that names the zone of every time shown. */
export function timeZoneText(zone: string | null): string {
  return zone
    ? `Times are in ${zone} time, the spreadsheet's time zone (File → Settings).`
    : "Times are in your computer's time zone.";
}

/** A calendar day as the sheets show it (YYYY-MM-DD): no zone applies to a day. */
export function formatDate(isoDate: string): string {
  return /^\d{4}-\d{2}-\d{2}/.test(isoDate) ? isoDate.slice(0, 10) : isoDate;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

export function connectionHeadline(view: ConnectionView): { text: string; tone: Tone } {
  switch (view.state) {
    case 'connected':
      return { text: 'Connected', tone: 'ok' };
    case 'not_connected':
      return { text: 'Not connected', tone: 'none' };
    case 'not_configured':
      return { text: 'Not configured', tone: 'bad' };
    case 'revoked':
      return { text: 'Access was revoked', tone: 'bad' };
    case 'store_changed':
      return { text: 'Connection moved to another store', tone: 'bad' };
    case 'invalid_claims':
      return { text: 'Connection is not bound to a store', tone: 'bad' };
    case 'missing_scope':
      return { text: 'Connection lacks a permission', tone: 'bad' };
    case 'lapsed':
      return { text: 'Connection no longer accepted', tone: 'warn' };
    case 'operator_problem':
      return { text: 'The service refused this add-on', tone: 'bad' };
  }
}

/**
 * Which connection buttons make sense in a state. Another editor's connection is theirs to
 * disconnect (the server refuses anyone else): its other editors get Reconnect, which makes it theirs.
 */
export function connectionButtons(view: ConnectionView): { connect: boolean; reconnect: boolean; disconnect: boolean } {
  const theirs = typeof view.connectedBy === 'string' && view.connectedBy !== '' && view.yours === false;
  const buttons = buttonsForState(view);
  return theirs && buttons.disconnect ? { ...buttons, reconnect: true, disconnect: false } : buttons;
}

function buttonsForState(view: ConnectionView): { connect: boolean; reconnect: boolean; disconnect: boolean } {
  switch (view.state) {
    case 'not_connected':
      return { connect: true, reconnect: false, disconnect: false };
    case 'connected':
      return { connect: false, reconnect: false, disconnect: true };
    case 'revoked':
    case 'store_changed':
    case 'invalid_claims':
    case 'missing_scope':
    case 'lapsed':
      return { connect: false, reconnect: true, disconnect: true };
    case 'operator_problem':
      // A Connect that failed at the token endpoint never reached a store: once the operator has
      // fixed the set-up, Connect is the only way to try again ("Check again" has no grant to test).
      return { connect: view.store === null, reconnect: false, disconnect: false };
    case 'not_configured':
      return { connect: false, reconnect: false, disconnect: false };
  }
}

/** The status line when the authorization window closed and the spreadsheet is still not connected. */
export function connectionNotMadeText(state: SidebarState): string {
  // The window may have been closed, or it said why (declined, another store): never guess which.
  if (state.connection.problem ?? state.problem) return 'Not connected: see the message below.';
  return 'Not connected: the authorization window was closed or access was not allowed there. Connect to try again.';
}

export function planText(plan: PlanView): string {
  const name = plan.name ? `${plan.name.charAt(0).toUpperCase()}${plan.name.slice(1)} plan: ` : '';
  if (plan.historyAvailableFrom === null) return `${name}full history`;
  const days = plan.historyDays !== null ? ` (${formatCount(plan.historyDays)} days)` : '';
  return `${name}from ${formatDate(plan.historyAvailableFrom)}${days}`;
}

export function freshnessText(freshness: FreshnessView): string {
  const when = freshness.lastSyncAt ? `Updated ${formatTime(freshness.lastSyncAt)}` : 'Not synced by the service yet';
  return freshness.stale ? `${when} — out of date at the source` : when;
}

/** A run under "Last sync": a current failure with its message; a past one neutral, with its time and a short reason. */
export function jobDetail(job: JobView): string {
  if (!job.lastRunAt) return 'Never';
  const when = formatTime(job.lastRunAt);
  if (job.outcome === 'error' && job.past) return `${when} · ${job.message ?? 'Stopped; fixed since.'}`;
  if (job.outcome === 'error') return `${when} · failed${job.message ? `: ${job.message}` : ''}`;
  // A tie-out check syncs nothing: its result, never "0 new, 0 updated".
  if (job.job === 'check') return `${when} · ${job.message ?? 'checked'}`;
  const partial = job.outcome === 'partial' ? ` · ${job.message ?? 'continues next run'}` : '';
  // The run's own Sync log figures; records of older versions only know their row total.
  const written = job.counts ? countsText(job.counts) : `${formatCount(job.rows)} rows`;
  return `${when} · ${written}${partial}`;
}

/** Red only for a failure that still needs something done. */
export function jobTone(job: JobView): 'error' | 'neutral' {
  return job.outcome === 'error' && !job.past ? 'error' : 'neutral';
}

function hourText(hour: number | null): string {
  return `${String(hour ?? 0).padStart(2, '0')}:00`;
}

/** "Syncs every day at 07:00, Europe/Berlin time (the spreadsheet's time zone)." */
export function scheduleText(schedule: ScheduleView): string {
  if (schedule.mode === 'off') return 'Automatic sync is off.';
  if (schedule.mode === 'hourly') return 'Syncs every hour.';
  const zone = schedule.timeZone ? `, ${schedule.timeZone} time (the spreadsheet's time zone)` : '';
  return `Syncs every day at ${hourText(schedule.hour)}${zone}.`;
}

/** Whose connection it is: only that Google account renews it. Null when nothing is known. */
export function connectedByText(connection: ConnectionView): string | null {
  if (connection.connectedBy === undefined || connection.connectedBy === null) return null;
  if (connection.yours) return 'Connected with your Google account.';
  if (connection.yours === undefined)
    return `Connected by ${connection.connectedBy}. Google has not told the add-on which Google account you use, so it cannot tell whether that is you.`;
  return `Connected by ${connection.connectedBy}: their Google account keeps it working, and only they can disconnect it. Reconnect to use your own.`;
}

/** Whose schedule it is: only they can change or turn it off (other editors cannot see its trigger). */
export function scheduleOwnerText(schedule: ScheduleView): string | null {
  if (schedule.mode === 'off' || !schedule.owner) return null;
  if (schedule.yours !== false) return 'Set by you.';
  return `Set by ${schedule.owner}: only they can change it or turn it off.`;
}

/** Who receives the failure e-mails; another editor's opt-in is theirs alone to change. */
export function failureNoticeText(view: FailureNoticeView): string {
  if (view.on && view.email && view.yours === false) return noticeOwnerText(view.email);
  if (view.on && view.email)
    return `When a scheduled sync stops on something only a person can fix, ${view.email} gets one e-mail a day about it.`;
  return 'Google sends no e-mail when a scheduled sync fails; tick this to get one (at most once a day per problem).';
}

export function cellsText(cells: CellsView): string {
  return `${formatCount(cells.used)} of ${formatCount(cells.limit)} cells (${cells.percent}%)`;
}

export function cellsWarning(cells: CellsView): string | null {
  if (!cells.warn) return null;
  return 'This spreadsheet is filling up. A full order history may not fit: keep the sheets small by syncing a recent window, or move old orders elsewhere.';
}

export function ordersWindowText(createdAfter: string): string {
  return `Syncing orders placed since ${formatDate(createdAfter)}.`;
}

/** Checks the chosen first day before it goes to the server; null when it is acceptable. */
export function windowDateProblem(value: string, latest: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return 'Choose the first day of orders to keep.';
  if (latest && value > latest) return 'Choose today or an earlier day.';
  return null;
}

/** What a problem's button does: connect, check the state again, or run the sync that stopped again. */
export type ActionKind = 'connect' | 'refresh' | 'sync';

/**
 * The button that resolves a problem in the sidebar itself, or null when the user acts elsewhere.
 * `fromSync`: the problem stopped a sync, so "Try again" runs that sync again (not just a reload).
 */
export function actionButton(action: UserAction, fromSync = false): { label: string; kind: ActionKind } | null {
  switch (action) {
    case 'connect':
      return { label: 'Connect', kind: 'connect' };
    case 'reconnect':
      return { label: 'Reconnect', kind: 'connect' };
    case 'retry_later':
    case 'refresh':
    case 'wait':
      return { label: 'Try again', kind: fromSync ? 'sync' : 'refresh' };
    case 'contact_operator':
      // Only the operator can fix it; the sidebar asks the service again once the operator says so.
      return { label: 'Check again', kind: 'refresh' };
    case 'fix_request':
    case 'configure':
      return null;
  }
}

/** The problem's message plus what to do when no button does it. */
export function problemText(problem: ProblemView): string {
  const waitUntil =
    problem.action === 'wait' && problem.retryAt ? ` Try again after ${formatTime(problem.retryAt)}.` : '';
  return `${problem.userMessage}${waitUntil}`;
}
