/** One step of a sync execution, and the run it reads and adds to. */
import type { OrderSumsTracker } from '../finance/order-sums-store';
import type { JobContext, JobName, JobPosition } from './job-context';
import type { RunOptions } from './run-options';

export interface RunState {
  ctx: JobContext;
  options: RunOptions;
  /** The jobs of this run, in run order. */
  jobs: readonly JobName[];
  /** The job running or last run. */
  current: JobName | null;
  position: JobPosition | null;
  /** What the Sync log row says, in order. */
  messages: string[];
  /** False once a job or step left work for the next run. */
  allCaughtUp: boolean;
  /** The Orders day sums, following every row this run writes. */
  tracker: OrderSumsTracker;
  /** The state the tie-out compares with, as the run found it. */
  atStart: { watermark: string | null; skippedDays: string; failedDays: readonly string[] };
  basisRefreshed: boolean;
  /** The tie-out due did not run (its words are among the messages): the run is not ok. */
  tieoutNotRun?: boolean;
}

export interface RunStep {
  name: string;
  due(run: RunState): boolean;
  run(run: RunState): void;
}

/** True when the run has every one of `jobs`. */
export function runsJobs(run: RunState, ...jobs: JobName[]): boolean {
  return jobs.every((job) => run.jobs.includes(job));
}
