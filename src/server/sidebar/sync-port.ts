import type { JobView, ScheduleView, UserAction } from '../../contract/sidebar';
import { connectionStatus } from '../auth';
import { runSync } from '../sync/runner';
import { getSchedule, setSchedule, type Schedule } from '../sync/schedule';
import { SyncStateStore, type RunRecord } from '../sync/state';
import type { SyncPort } from './ports';

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
      const outcome = runSync({ jobs: ['orders', 'products', 'daily'], budgetMs, addDueReconciliation: false });
      if (outcome.outcome === 'error') {
        // The runner has already recorded connection failures; the connection state says what to do.
        const status = connectionStatus();
        const action: UserAction = status.state !== 'connected' && status.action ? status.action : 'retry_later';
        throw new SyncStoppedError(status.state !== 'connected' ? status.state : 'sync_failed', outcome.message, action);
      }
      const tally = outcome.tally;
      const orders = new SyncStateStore(PropertiesService.getDocumentProperties()).get('orders');
      return {
        done: outcome.done,
        busy: outcome.outcome === 'busy',
        job: outcome.job,
        written: { pages: tally.pages, inserted: tally.inserted, updated: tally.updated, rows: tally.rows },
        ordersMark: orders.watermark,
      };
    },
    jobs() {
      const runs = new SyncStateStore(PropertiesService.getDocumentProperties()).get('lastRuns');
      return runs.slice(0, RUNS_SHOWN).map(jobViewOf); // newest first, as the Sync log keeps them
    },
    schedule: () => scheduleView(getSchedule()),
    setSchedule: (request) =>
      scheduleView(setSchedule(request.mode === 'daily' ? { kind: 'daily', hour: request.hour } : { kind: request.mode })),
  };
}
