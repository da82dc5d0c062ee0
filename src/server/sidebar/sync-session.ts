import type { SyncCounts, SyncProgress } from '../../contract/sidebar';
import { isApiError } from '../api/errors';
import type { SidebarPorts, SyncJobName, SyncStepReport } from './ports';
import { brokenReasonOf, problemOf } from './problems';

/**
 * Each "Sync now" step gets a short budget so the progress bar moves every few seconds; the sync
 * module checkpoints after every page, so stopping between steps loses nothing.
 */
export const SIDEBAR_STEP_BUDGET_MS = 45_000;

const PHASES: Record<SyncJobName, string> = {
  orders: 'Orders and line items',
  products: 'Products',
  daily: 'Daily P&L',
  reconcile: 'Checking for vanished orders',
};

export function zeroCounts(): SyncCounts {
  return { pages: 0, inserted: 0, updated: 0, rows: 0 };
}

function add(a: SyncCounts, b: SyncCounts): SyncCounts {
  return { pages: a.pages + b.pages, inserted: a.inserted + b.inserted, updated: a.updated + b.updated, rows: a.rows + b.rows };
}

/**
 * An honest estimate: orders come oldest change first, so the watermark walks from where this run
 * started towards now; products and daily P&L are short and take the last stretch of the bar.
 */
export function estimateFraction(report: SyncStepReport, startMark: string | null, now: number): number | null {
  if (report.done) return 1;
  if (report.job === 'products') return 0.85;
  if (report.job === 'daily' || report.job === 'reconcile') return 0.95;
  if (report.job !== 'orders' || !startMark || !report.ordersMark) return null;
  const start = Date.parse(startMark);
  const mark = Date.parse(report.ordersMark);
  if (isNaN(start) || isNaN(mark) || now <= start) return null;
  return Math.max(0, Math.min(0.8, ((mark - start) / (now - start)) * 0.8));
}

/** Starts counting a new "Sync now" run; the work itself happens in runSyncStep. */
export function startSyncSession(ports: SidebarPorts): SyncProgress {
  const counts = zeroCounts();
  if (ports.connection.status().state === 'connected') {
    ports.memory.setSyncSession({ counts, startMark: null });
    return { done: false, phase: 'Starting', counts, fraction: null, problem: null };
  }
  ports.memory.setSyncSession(null);
  return {
    done: true,
    phase: 'Not connected',
    counts,
    fraction: null,
    problem: { code: 'not_connected', userMessage: 'Connect a store before syncing.', action: 'connect', retryAt: null },
  };
}

/** One budgeted slice of sync. A refusal ends the run with the problem and, when it is about the connection, marks it. */
export function runSyncSessionStep(ports: SidebarPorts, budgetMs = SIDEBAR_STEP_BUDGET_MS, now: () => number = () => Date.now()): SyncProgress {
  const session = ports.memory.syncSession() ?? { counts: zeroCounts(), startMark: null };
  try {
    const report = ports.sync.runStep(budgetMs);
    const counts = add(session.counts, report.written);
    const startMark = session.startMark ?? report.ordersMark;
    ports.memory.setSyncSession(report.done ? null : { counts, startMark });
    const phase = report.done
      ? 'Caught up'
      : report.busy
        ? 'Waiting: another sync of this spreadsheet is running'
        : report.job
          ? PHASES[report.job]
          : 'Syncing';
    return { done: report.done, phase, counts, fraction: estimateFraction(report, startMark, now()), problem: null };
  } catch (error) {
    if (isApiError(error)) {
      const reason = brokenReasonOf(error);
      if (reason) ports.connection.markBroken(reason);
    }
    ports.memory.setSyncSession(null);
    return { done: true, phase: 'Stopped', counts: session.counts, fraction: null, problem: problemOf(error) };
  }
}
