import type { JobView, ScheduleView, UserAction } from '../../contract/sidebar';
import { connectionStatus } from '../auth';
import { setOrdersWindow } from '../sync/overview';
import { instantToLocalDate } from '../sheets/cells';
import { runSync } from '../sync/runner';
import { getSchedule, setSchedule, type Schedule } from '../sync/schedule';
import { SyncStateStore, type RunRecord } from '../sync/state';
import type { SyncPort } from './ports';

/** Sync failures about room in the spreadsheet: the sidebar's window offer is the way out. */
const ROOM_CODES: readonly string[] = ['cell_limit', 'backfill_too_large'];

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

function scheduleView(schedule: Schedule): ScheduleView {
  return schedule.kind === 'daily' ? { mode: 'daily', hour: schedule.hour } : { mode: schedule.kind, hour: null };
}

function outcomeOf(record: RunRecord): string {
  if (record.outcome === 'ok' || record.outcome === 'error') return record.outcome;
  return 'partial';
}

export function jobViewOf(record: RunRecord): JobView {
  const label = record.job ? record.job.charAt(0).toUpperCase() + record.job.slice(1) : 'Sync';
  return {
    job: record.job,
    label,
    lastRunAt: new Date(record.endedAt ?? record.startedAt).toISOString(),
    outcome: outcomeOf(record),
    rows: record.rows,
    message: record.outcome === 'ok' ? null : record.message,
  };
}

/** The sync module (runner, schedule, state) as the sidebar sees it. */
export function syncModulePort(): SyncPort {
  return {
    runStep(budgetMs) {
      const ordersFrom = new SyncStateStore(PropertiesService.getDocumentProperties()).get('orders').watermark;
      const outcome = runSync({ jobs: ['orders', 'products', 'daily'], budgetMs, addDueReconciliation: false });
      if (outcome.outcome === 'error') {
        // The runner has already recorded connection failures; the connection state says what to do.
        const status = connectionStatus();
        const action: UserAction = status.state !== 'connected' && status.action ? status.action : 'retry_later';
        const code = status.state !== 'connected' ? status.state : outcome.failureCode ?? 'sync_failed';
        const roomAction: UserAction = 'fix_request';
        throw new SyncStoppedError(code, outcome.message, ROOM_CODES.indexOf(code) >= 0 ? roomAction : action);
      }
      const tally = outcome.tally;
      const orders = new SyncStateStore(PropertiesService.getDocumentProperties()).get('orders');
      return {
        done: outcome.done,
        busy: outcome.outcome === 'busy',
        job: outcome.job,
        written: { pages: tally.pages, inserted: tally.inserted, updated: tally.updated, rows: tally.rows },
        ordersFrom,
        ordersMark: orders.watermark,
        position: outcome.position,
      };
    },
    capacity() {
      const state = new SyncStateStore(PropertiesService.getDocumentProperties());
      const capacity = state.get('capacity');
      const zone = state.get('meta').storeTimeZone ?? SpreadsheetApp.getActive().getSpreadsheetTimeZone();
      return {
        ordersWindow: state.get('orders').createdAfter,
        stopped: capacity.stoppedAt !== null,
        estimate: capacity.estimate,
        today: instantToLocalDate(Date.now(), zone),
      };
    },
    setOrdersWindow,
    jobs() {
      const runs = new SyncStateStore(PropertiesService.getDocumentProperties()).get('lastRuns');
      return runs.slice(0, RUNS_SHOWN).map(jobViewOf); // newest first, as the Sync log keeps them
    },
    schedule: () => scheduleView(getSchedule()),
    setSchedule: (request) =>
      scheduleView(setSchedule(request.mode === 'daily' ? { kind: 'daily', hour: request.hour } : { kind: request.mode })),
  };
}
