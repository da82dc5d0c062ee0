import type { SyncProgress } from '../../contract/sidebar';
import { emptyCounts, sumCounts } from '../../contract/counts-text';
import { pauseCauseText } from '../../contract/pause-text';
import { isApiError } from '../api/errors';
import { monotonicFraction, ordersShare, overallFraction, positionShare } from '../sync/progress';
import type { SidebarPorts, SyncJobName, SyncSession, SyncStepReport } from './ports';
import { cellsView } from './cells-gauge';
import { brokenReasonOf, connectionProblem, problemOf } from './problems';

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

/**
 * An honest estimate (the sync's progress): orders come oldest change first, so the watermark walks
 * from where this run started towards now; the daily job knows its days; products take a short
 * stretch. The bar never moves back and reaches 100 % only when done.
 */
export function estimateFraction(
  report: SyncStepReport,
  startMark: string | null,
  now: number,
  previous: number | null = null,
): number | null {
  const share =
    report.job === 'orders' ? ordersShare(startMark, report.ordersMark, now) : positionShare(report.position);
  const next = report.busy ? null : overallFraction(report.job, share);
  return monotonicFraction(previous, next, report.done);
}

/**
 * Starts counting a new "Sync now" run; the work itself happens in runSyncStep. `keep` false: the
 * caller runs the first step in this execution (firstSyncSessionStep) and the session is stored
 * only if another step follows.
 */
export function startSyncSession(ports: SidebarPorts, keep = true): SyncProgress {
  const counts = emptyCounts();
  const status = ports.connection.status();
  if (status.state === 'connected') {
    if (keep) ports.memory.setSyncSession({ counts, startMark: null, fraction: null });
    return { done: false, phase: 'Starting', counts, fraction: null, problem: null, pausedUntil: null };
  }
  if (keep) ports.memory.setSyncSession(null);
  return {
    done: true,
    phase: 'Not connected',
    counts,
    fraction: null,
    // A copy of a connected spreadsheet says why it is not connected (the copy guard).
    problem: (status.state === 'not_connected' ? connectionProblem(status) : null) ?? {
      code: 'not_connected',
      userMessage: 'Connect a store before syncing.',
      action: 'connect',
      retryAt: null,
    },
    pausedUntil: null,
  };
}

/**
 * The gauge as the state shows it: the window in force kept (the offer waits for the state's next
 * read). `used`: the grid cells the step's run knew (its snapshot and what it added): no 2 calls per sheet.
 */
function cellsWithOffer(ports: SidebarPorts, used: number | null = null): SyncProgress['cells'] {
  const cells = used === null ? ports.sheets.cells() : cellsView(used);
  return { ...cells, ordersWindow: ports.sync.capacity().ordersWindow, offer: null };
}

/**
 * Sync now's start and its first step in one execution: a store caught up in one step (a 1k
 * backfill, every hourly-sized Sync now) costs one execution, not two, and its session is never
 * stored (a put, a read and a remove in the document cache: ~225 ms, apps-script-cost-model.md).
 */
export function firstSyncSessionStep(
  ports: SidebarPorts,
  budgetMs = SIDEBAR_STEP_BUDGET_MS,
  now: () => number = () => Date.now(),
): SyncProgress {
  const start = startSyncSession(ports, false);
  if (start.done) return start;
  return runSyncSessionStep(ports, budgetMs, now, { counts: start.counts, startMark: null, fraction: null });
}

/**
 * One budgeted slice of sync. A refusal ends the run with the problem and, when it is about the
 * connection, marks it. `fresh`: the session this execution started (firstSyncSessionStep), not
 * stored: it is stored only when another step follows.
 */
export function runSyncSessionStep(
  ports: SidebarPorts,
  budgetMs = SIDEBAR_STEP_BUDGET_MS,
  now: () => number = () => Date.now(),
  fresh: SyncSession | null = null,
): SyncProgress {
  const session = fresh ?? ports.memory.syncSession() ?? { counts: emptyCounts(), startMark: null };
  const keep = (next: SyncSession | null): void => {
    if (next !== null || fresh === null) ports.memory.setSyncSession(next);
  };
  try {
    const report = ports.sync.runStep(budgetMs);
    const counts = sumCounts(session.counts, report.written);
    // A first backfill has no watermark before its first page: its first page's mark is the start.
    const startMark = session.startMark ?? report.ordersFrom ?? report.ordersMark;
    const paused = report.pausedUntil !== null;
    // A pause keeps the bar where it was: the API's reserve says nothing about how far the sync is.
    const fraction = paused
      ? (session.fraction ?? null)
      : estimateFraction(report, startMark, now(), session.fraction ?? null);
    // A paused run ends this Sync now (the schedule or the next Sync now continues after the pause).
    keep(report.done || paused ? null : { counts, startMark, fraction });
    const phase = report.done
      ? 'Caught up'
      : paused
        ? `${pauseCauseText(report.pauseFor)}; resumes after ${report.pauseText ?? 'a short wait'}`
        : report.busy
          ? 'Waiting: another sync of this spreadsheet is running'
          : report.job
            ? PHASES[report.job]
            : 'Syncing';
    // The gauge moves with the sheets (a few SpreadsheetApp calls, no Sheets API request).
    return {
      done: report.done,
      phase,
      counts,
      fraction,
      problem: null,
      pausedUntil: report.pausedUntil,
      ...(paused && report.pauseFor ? { pauseFor: report.pauseFor } : {}),
      cells: cellsWithOffer(ports, report.usedCells ?? null),
    };
  } catch (error) {
    if (isApiError(error)) {
      const reason = brokenReasonOf(error);
      if (reason) ports.connection.markBroken(reason);
    }
    keep(null);
    return {
      done: true,
      phase: 'Stopped',
      counts: session.counts,
      fraction: null,
      problem: problemOf(error),
      pausedUntil: null,
    };
  }
}
