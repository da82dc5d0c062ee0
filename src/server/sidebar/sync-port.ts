import type { ScheduleNote, ScheduleView } from '../../contract/sidebar';
import { connectionStatus, currentUserEmail, storeTag } from '../auth';
import { setOrdersWindow } from '../sync/orders-window';
import { ExecutionBudget } from '../platform/budget';
import { instantToLocalDate } from '../platform/calendar';
import { minuteLimitWaitMs } from '../sync/minute-limit-wait';
import { runSync } from '../sync/runner';
import {
  getSchedule,
  removedSchedule,
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
import { lastScheduledRunStart } from '../sync/trigger-allowance';
import { loggedRuns } from '../sync/sync-log';
import type { SyncPort } from './ports';
import { documentProperties } from '../platform/properties';
import { storeFullProblem } from '../platform/document-store-full';
import { failureNoticeView } from '../sync/failure-notice';
import { columnsView } from './columns-view';
import { jobViewsOf, RUNS_SHOWN } from './runs-view';
import { pausedNote, removedNote, scheduleViewOf } from './schedule-view';
import { SyncStoppedError, stopActionOf } from './stopped-run';
import { closedMonthLines, costGapsViewOf, skippedViewOf, tieoutViewOf } from './sync-state-views';
import { readRecheck } from '../finance/recheck-record';

/** The schedule with whose it is and, for its owner, when it last ran (the next run is said from that). */
function scheduleView(schedule: Schedule, timeZone: string | null, note: ScheduleNote | null): ScheduleView {
  const now = Date.now();
  const owner = schedule.kind === 'off' ? null : scheduleOwnership().owner;
  const yours = owner === null || owner === currentUserEmail();
  // The last run's start is in the owner's own record (the trigger allowance): another editor gets "within the hour".
  const lastRun = yours && schedule.kind !== 'off' ? lastScheduledRunStart(now) : null;
  return scheduleViewOf(schedule, timeZone, note, { owner, yours, lastRun }, now);
}

/** The schedule in force, or off with what a lost connection paused or why its trigger removed itself. */
function currentSchedule(): ScheduleView {
  const schedule = getSchedule();
  if (schedule.kind !== 'off') return scheduleView(schedule, scheduleTimeZone(), null);
  const paused = suspendedSchedule();
  if (paused) return scheduleView(schedule, scheduleTimeZone(), pausedNote(paused));
  const removed = removedSchedule();
  const timeZone = scheduleTimeZone();
  const note = removed ? removedNote(removed.schedule, removed.removal, timeZone, Date.now()) : null;
  return scheduleView(schedule, timeZone, note);
}

function spreadsheetZone(): string {
  return currentSpreadsheet('reading the time zone').getSpreadsheetTimeZone();
}

/** The sync module (runner, schedule, state) as the sidebar sees it. */
export function syncModulePort(): SyncPort {
  let lastRun: SyncStateStore | null = null;
  return {
    runStep(budgetMs) {
      // The whole execution's 6 minutes: a wait after the run must leave room to answer the sidebar.
      const execution = new ExecutionBudget();
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
      // Waited out here, after the run let go of the document: the next step continues the sync.
      const wait = minuteLimitWaitMs(outcome, Date.now());
      const minuteWait = wait !== null && execution.canWait(wait) ? wait : null;
      if (minuteWait !== null) Utilities.sleep(minuteWait);
      // The state the run read under its lock and left (a busy run: read now).
      const state = (lastRun = outcome.state ?? new SyncStateStore(documentProperties()));
      const ordersFrom = state.atStart('orders').watermark;
      const orders = state.get('orders');
      const paused = minuteWait === null ? outcome.pausedUntil : null;
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
        ...(paused !== null && outcome.pauseFor ? { pauseFor: outcome.pauseFor } : {}),
        usedCells: outcome.usedCells ?? null,
      };
    },
    capacity() {
      // After a step: the state that step's run left, not a second whole read.
      const state = lastRun ?? new SyncStateStore(documentProperties());
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
    closedMonths: () => closedMonthLines(new SyncStateStore(documentProperties()).get('closedMonths')),
    costGaps() {
      const state = new SyncStateStore(documentProperties());
      return costGapsViewOf(state.get('costGaps'), state.get('meta').storeCurrency);
    },
    tieout() {
      const state = new SyncStateStore(documentProperties());
      return tieoutViewOf(state.get('tieout'), readRecheck(state.readAtStart));
    },
    skipped: () => skippedViewOf(new SyncStateStore(documentProperties()).get('skipped')),
    storeFull: () => storeFullProblem(new SyncStateStore(documentProperties()).readAtStart),
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
