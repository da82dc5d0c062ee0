import { closedMonthText } from '../../contract/closed-month-text';
import type { JobView, ScheduleNote, ScheduleView, UserAction } from '../../contract/sidebar';
import { connectionStatus, currentUserEmail, storeTag } from '../auth';
import { setOrdersWindow } from '../sync/orders-window';
import { instantToLocalDate } from '../platform/calendar';
import { runSync } from '../sync/runner';
import {
  describeSchedule,
  getSchedule,
  scheduleOwnership,
  scheduleTimeZone,
  setSchedule,
  suspendedSchedule,
  suspendSchedule,
  type Schedule,
} from '../sync/schedule';
import { currentSpreadsheet } from '../platform/context';
import { resumeScheduleAfterReconnect, resumeTimeText } from '../sync';
import { SyncStateStore } from '../state/sync-state';
import { nextRunText } from '../sync/next-run';
import { lastScheduledRunStart } from '../sync/trigger-allowance';
import { CHECK_JOB, loggedRuns, type LoggedRun } from '../sync/sync-log';
import type { SyncPort } from './ports';
import { documentProperties } from '../platform/properties';
import { failureNoticeView } from '../sync/failure-notice';
import { columnsView } from './columns-view';

/**
 * Sync failures the user fixes in the spreadsheet, not by retrying: room (the sidebar's window
 * offer is the way out) and a managed column moved or renamed (the message names the column and the fix).
 */
const FIX_CODES: readonly string[] = ['cell_limit', 'backfill_too_large', 'sheet_layout', 'sheet_owner'];

/** How many recent runs the sidebar lists under "Last sync". */
const RUNS_SHOWN = 3;

/** A sync run that ended on a problem, carried to the sidebar with what to do about it. */
export class SyncStoppedError extends Error {
  constructor(
    readonly code: string,
    readonly userMessage: string,
    readonly action: UserAction,
  ) {
    super(userMessage);
    this.name = 'SyncStoppedError';
  }
}

/** What the user does about a run that stopped on `failureCode`, given the connection state after it. */
export function stopActionOf(
  failureCode: string,
  connection: { state: string; action: UserAction | null },
): { code: string; action: UserAction } {
  if (connection.state !== 'connected') return { code: connection.state, action: connection.action ?? 'retry_later' };
  return { code: failureCode, action: FIX_CODES.indexOf(failureCode) >= 0 ? 'fix_request' : 'retry_later' };
}

function scheduleView(schedule: Schedule, timeZone: string | null, note: ScheduleNote | null): ScheduleView {
  const hour = schedule.kind === 'daily' ? schedule.hour : null;
  const owner = schedule.kind === 'off' ? null : scheduleOwnership().owner;
  const yours = owner === null || owner === currentUserEmail();
  // The last run's start is in the owner's own record (trigger-allowance.ts): another editor gets "within the hour".
  const lastRun = yours && schedule.kind !== 'off' ? lastScheduledRunStart(Date.now()) : null;
  const nextRun = timeZone ? nextRunText(schedule, timeZone, Date.now(), lastRun) : null;
  return { mode: schedule.kind, hour, timeZone, note, owner, yours, nextRun };
}

/** The schedule in force, or off with what a lost connection paused. */
function currentSchedule(): ScheduleView {
  const schedule = getSchedule();
  const paused = schedule.kind === 'off' ? suspendedSchedule() : null;
  if (!paused) return scheduleView(schedule, scheduleTimeZone(), null);
  const message = `Automatic sync is off until you reconnect the store these sheets hold; then it resumes ${describeSchedule(paused.schedule, paused.timeZone)}.`;
  return scheduleView({ kind: 'off' }, scheduleTimeZone(), { kind: 'paused', message });
}

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
      message = `Paused for the hourly request allowance; resumes after ${resumeTimeText(record.pausedUntil, timeZone, now)}.`;
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

function spreadsheetZone(): string {
  return currentSpreadsheet('reading the time zone').getSpreadsheetTimeZone();
}

/** The sync module (runner, schedule, state) as the sidebar sees it. */
export function syncModulePort(): SyncPort {
  return {
    runStep(budgetMs) {
      const ordersFrom = new SyncStateStore(documentProperties()).get('orders').watermark;
      const outcome = runSync({
        jobs: ['orders', 'products', 'daily'],
        budgetMs,
        addDueReconciliation: true,
        cancellable: true,
        refetchFailedDays: true,
      });
      if (outcome.outcome === 'error') {
        // The runner has already recorded connection failures; the connection state says what to do.
        const stop = stopActionOf(outcome.failureCode ?? 'sync_failed', connectionStatus());
        throw new SyncStoppedError(stop.code, outcome.message, stop.action);
      }
      const orders = new SyncStateStore(documentProperties()).get('orders');
      const paused = outcome.pausedUntil;
      return {
        done: outcome.done,
        busy: outcome.outcome === 'busy',
        job: outcome.job,
        written: outcome.counts,
        // A first sync had no watermark before its first page: the feed's time runs from that page's oldest order.
        ordersFrom: ordersFrom ?? orders.feedFrom ?? null,
        ordersMark: orders.watermark,
        position: outcome.position,
        pausedUntil: paused === null ? null : new Date(paused).toISOString(),
        pauseText: paused === null ? null : resumeTimeText(paused, spreadsheetZone(), Date.now()),
      };
    },
    capacity() {
      const state = new SyncStateStore(documentProperties());
      const capacity = state.get('capacity');
      const zone = state.get('meta').storeTimeZone ?? spreadsheetZone();
      return {
        ordersWindow: state.get('orders').createdAfter,
        stopped: capacity.stoppedAt !== null,
        estimate: capacity.estimate,
        today: instantToLocalDate(Date.now(), zone),
      };
    },
    setOrdersWindow,
    failureNotices: failureNoticeView,
    columns() {
      const state = new SyncStateStore(documentProperties());
      return columnsView(state.get('columns'), state.get('orders').rowCounts);
    },
    closedMonths() {
      const views = new SyncStateStore(documentProperties()).get('closedMonths');
      return views.map((view) => ({ ...view, text: closedMonthText(view, views) }));
    },
    costGaps() {
      const state = new SyncStateStore(documentProperties());
      const gaps = state.get('costGaps');
      if (gaps.checkedAt === null) return null;
      return {
        orders: gaps.orders,
        ordersCounted: gaps.ordersCounted,
        netRevenue: gaps.netRevenue,
        currency: state.get('meta').storeCurrency,
        otherCurrencies: gaps.otherCurrencies.slice(),
      };
    },
    tieout() {
      const t = new SyncStateStore(documentProperties()).get('tieout');
      if (t.checkedAt === null) return null;
      return {
        checkedAt: new Date(t.checkedAt).toISOString(),
        days: t.days,
        failedDays: t.failedDays.slice(),
        failedCount: t.failedCount,
        cutFrom: t.cutFrom,
        provenFrom: t.provenFrom ?? null,
        ordersFrom: t.ordersFrom ?? null,
      };
    },
    skipped() {
      const { orders, products, days } = new SyncStateStore(documentProperties()).get('skipped');
      if (orders.length === 0 && products.length === 0 && days.length === 0) return null;
      const named = days.flatMap((d) => (d.day === null ? [] : [{ day: d.day, reason: d.reason }]));
      return {
        orders: orders.map((o) => ({ ...o })),
        products: products.map((p) => ({ id: p.id, reason: p.reason })),
        days: named,
      };
    },
    latestRunStamp() {
      const state = new SyncStateStore(documentProperties());
      const run = state.get('lastRuns')[0];
      return `${state.get('openLogRow') ?? ''}/${run ? `${run.startedAt}/${run.endedAt ?? ''}/${run.outcome}` : ''}`;
    },
    jobs(connected) {
      const runs = loggedRuns(new SyncStateStore(documentProperties()));
      // Newest first, as the Sync log keeps them; a later success is looked for among all kept runs.
      return jobViewsOf(runs, connected, spreadsheetZone(), Date.now()).slice(0, RUNS_SHOWN);
    },
    schedule: currentSchedule,
    setSchedule: (request) => {
      const saved = setSchedule(
        request.mode === 'daily' ? { kind: 'daily', hour: request.hour } : { kind: request.mode },
      );
      return scheduleView(saved, scheduleTimeZone(), null);
    },
    resumeSchedule(storeId) {
      const resumed = resumeScheduleAfterReconnect(storeId);
      return resumed
        ? scheduleView(resumed.schedule, scheduleTimeZone(), { kind: 'resumed', message: resumed.message })
        : null;
    },
    pauseSchedule() {
      suspendSchedule(storeTag(), Date.now());
      return currentSchedule();
    },
    handOverSchedule() {
      const { owner } = scheduleOwnership();
      if (owner && owner !== currentUserEmail() && getSchedule().kind !== 'off')
        suspendSchedule(storeTag(), Date.now());
    },
  };
}
