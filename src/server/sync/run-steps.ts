/**
 * A run is this list of steps, walked in order: each one whose `due` holds runs. The jobs come
 * first, each until one leaves work for the next run; what follows them needs their sheets up to date.
 */
import { checkpointRunStep, writeNoPosition } from '../platform/properties';
import { refreshFinanceSheets } from '../finance/refresh';
import { finishBasisRefresh } from './basis-change';
import { CancellableBudget, CANCELLED_NOTE } from './cancel';
import { fillDue, runColumnFill } from './column-fill';
import { runDailyJob } from './daily-job';
import type { JobContext, JobName, JobResult } from './job-context';
import { runOrdersJob } from './orders-job';
import { runProductsJob } from './products-job';
import { runReconcileJob } from './reconcile-job';
import { refetchFailedDays, refetchNewFailedDays } from './refetch-days';
import { runsJobs, type RunState, type RunStep } from './run-step';
import { skippedText } from './skipped-records';
import { TIEOUT_STEP } from './tieout-step';
import { DUPLICATE_ROWS_STEP } from './duplicate-rows';
import {
  destinationAfterJobs,
  destinationAfterTieout,
  destinationBeforeJobs,
  destinationSkipsStep,
} from './orders-destination';

const RUNNERS: Record<JobName, (ctx: JobContext) => JobResult> = {
  orders: runOrdersJob,
  products: runProductsJob,
  daily: runDailyJob,
  reconcile: runReconcileJob,
};

/** Daily P&L runs last: the order jobs before it mark the days whose figures changed. */
export const JOB_ORDER: readonly JobName[] = ['orders', 'products', 'reconcile', 'daily'];

function jobStep(job: JobName): RunStep {
  return {
    name: job,
    due: (run) => run.allCaughtUp && runsJobs(run, job),
    run(run) {
      run.current = job;
      const r = RUNNERS[job](run.ctx);
      run.messages.push(r.message);
      run.position = r.position ?? null;
      // A reconciliation in this run must see the note first; otherwise it waits for the run's last write.
      if (job === 'orders' && r.caughtUp && runsJobs(run, 'reconcile')) noteFirstBackfill(run.ctx);
      if (!r.caughtUp) run.allCaughtUp = false;
    },
  };
}

const push = (run: RunState, message: string | null): void => {
  if (message) run.messages.push(message);
};

/**
 * The steps of a run, in the order they must run: the jobs before everything that reads what they
 * wrote; the basis change before the tie-out (whose due reads run.basisRefreshed); the partial note
 * before the cancelled one, which replaces everything the run would say.
 */
export const RUN_STEPS: readonly RunStep[] = [
  {
    // A switch to BigQuery copies what the sheets hold first: nothing writes orders until it is done.
    name: 'destination before jobs',
    due: (run) => runsJobs(run, 'orders'),
    run(run) {
      const { message, done } = destinationBeforeJobs(run.ctx);
      push(run, message);
      if (!done) run.allCaughtUp = false;
    },
  },
  {
    name: 'refetch failed days',
    due: (run) => run.allCaughtUp && run.options.refetchFailedDays === true && runsJobs(run, 'orders'),
    run: (run) => push(run, refetchFailedDays(run.ctx)),
  },
  {
    // The schedule repairs what its own tie-out found, without waiting for the weekly pass or a Sync now.
    name: 'refetch new failed days',
    due: (run) => run.allCaughtUp && run.options.refetchNewFailedDays === true && runsJobs(run, 'orders'),
    run: (run) => push(run, refetchNewFailedDays(run.ctx)),
  },
  ...JOB_ORDER.map(jobStep),
  {
    // Orders in BigQuery: the Connected Sheets over them, made once and refreshed when the run changed the tables.
    name: 'destination after jobs',
    due: (run) => runsJobs(run, 'orders') && run.ctx.budget.canStartStep(),
    run: (run) => push(run, destinationAfterJobs(run.ctx)),
  },
  {
    // Noted after the jobs, it rides with the state their last write covers (no write of its own).
    name: 'first backfill',
    due: (run) => runsJobs(run, 'orders') && !runsJobs(run, 'reconcile') && run.ctx.state.get('orders').caughtUp,
    run: (run) => noteFirstBackfill(run.ctx),
  },
  { name: 'skipped records', due: () => true, run: (run) => push(run, skippedText(run.ctx.tally.skipped)) },
  {
    name: 'history window',
    due: (run) => run.ctx.state.get('meta').truncated,
    run: (run) =>
      push(
        run,
        `The plan shows history from ${run.ctx.state.get('meta').historyAvailableFrom ?? 'a limited date'} (older data is not available).`,
      ),
  },
  {
    name: 'capacity',
    due: (run) => run.allCaughtUp && run.ctx.state.get('capacity').stoppedAt !== null,
    run: (run) => run.ctx.state.update('capacity', { stoppedAt: null }),
  },
  {
    name: 'basis change',
    due: (run) => run.allCaughtUp && runsJobs(run, 'orders', 'daily'),
    run(run) {
      const refreshed = finishBasisRefresh(run.ctx);
      push(run, refreshed);
      run.basisRefreshed = refreshed !== null;
    },
  },
  {
    // Monthly P&L and the closed months follow the Daily P&L once it is up to date (and on one basis).
    name: 'finance sheets',
    due: (run) => run.allCaughtUp && runsJobs(run, 'daily') && run.ctx.budget.canStartStep(),
    run: (run) => run.messages.push(...refreshFinanceSheets(run.ctx)),
  },
  TIEOUT_STEP,
  {
    // A switch to BigQuery frees the sheets' cells once its tie-out there is ✓.
    name: 'destination after tie-out',
    due: (run) => run.allCaughtUp && runsJobs(run, 'orders'),
    run: (run) => push(run, destinationAfterTieout(run.ctx)),
  },
  DUPLICATE_ROWS_STEP,
  {
    // Columns chosen later are filled last, with what the run has left: new orders never wait for them.
    name: 'column fill',
    due: (run) => run.allCaughtUp && runsJobs(run, 'orders') && fillDue(run.ctx),
    run(run) {
      const filled = run.ctx.budget.canStartStep() ? runColumnFill(run.ctx) : null;
      if (!filled) run.messages.push('Filling the columns you added continues in the next run.');
      else push(run, filled.message);
      if (!filled || !filled.caughtUp) run.allCaughtUp = false;
    },
  },
  {
    name: 'partial note',
    due: (run) => !run.allCaughtUp && !!run.options.partialNote,
    run: (run) => push(run, run.options.partialNote ?? null),
  },
  {
    // A cancelled run says so, not "stopped before the time limit".
    name: 'cancelled',
    due: (run) => !run.allCaughtUp && run.ctx.budget instanceof CancellableBudget && run.ctx.budget.cancelled,
    run: (run) => run.messages.splice(0, run.messages.length, CANCELLED_NOTE),
  },
];

export function walkSteps(run: RunState, steps: readonly RunStep[] = RUN_STEPS): void {
  for (const step of steps) {
    if (!step.due(run) || destinationSkipsStep(run.ctx, step.name)) continue;
    step.run(run);
    checkpointRunStep();
  }
}

/** The first complete backfill is itself a full pass: the monthly reconciliation counts from it. */
function noteFirstBackfill(ctx: JobContext): void {
  const r = ctx.state.get('reconcile');
  // Not a pass's position: it goes with the run's next checkpoint (a run ended before notes it again).
  if (r.lastCompletedAt === null && r.passStartedAt === null)
    writeNoPosition(() => ctx.state.update('reconcile', { lastCompletedAt: ctx.now() }));
}
