/**
 * Mutating DML (MERGE, UPDATE, DELETE) that another job mutated the same partition under fails
 * "Could not serialize access to table … due to concurrent update" ("Transform data with DML",
 * UPDATE, DELETE, MERGE DML concurrency: statements that mutate the same partitions of a table at
 * once conflict, and BigQuery reruns one at most three times before failing it). Another
 * spreadsheet syncing into the same dataset, or someone's own statement on the table, does that.
 * The statement is idempotent (a MERGE on the key), so the add-on runs it again as a new job after
 * a wait that doubles, at most RETRIES times and only while the execution's budget leaves room;
 * then the error stands: the run ends with it, the feed's checkpoint has not moved, and the next run
 * writes the same pages again.
 */
import type { ExecutionBudget } from '../platform/budget';
import { awaitJobs, throwFirstError } from './service';

type Job = GoogleAppsScript.BigQuery.Schema.Job;

const RETRIES = 3;
const FIRST_WAIT_MS = 2_000;

const CONCURRENT_UPDATE = /Could not serialize access to table .* due to concurrent update/;

function lostToConcurrentUpdate(job: Job): boolean {
  return CONCURRENT_UPDATE.test(String(job.status?.errorResult?.message ?? ''));
}

/** The job id of a statement's attempt: the first keeps the step's own id. */
export const attemptId = (id: string, attempt: number): string => (attempt === 0 ? id : `${id}_retry${attempt}`);

/**
 * The statements run together (`inserts[i](attempt)` inserts statement i's job for that attempt),
 * each that lost to a concurrent update run again; their final jobs, or the first error thrown.
 */
export function runDml(
  projectId: string,
  budget: ExecutionBudget,
  inserts: ReadonlyArray<(attempt: number) => Job>,
): Job[] {
  const done = inserts.map((insert) => insert(0));
  let pending = done.map((_, i) => i);
  for (let attempt = 1; pending.length > 0; attempt++) {
    const finished = awaitJobs(
      projectId,
      pending.map((i) => done[i]),
    );
    pending.forEach((i, k) => (done[i] = finished[k]));
    pending = pending.filter((i) => lostToConcurrentUpdate(done[i]));
    const waitMs = FIRST_WAIT_MS * 2 ** (attempt - 1);
    if (pending.length === 0 || attempt > RETRIES || !budget.canWait(waitMs)) break;
    Utilities.sleep(waitMs);
    for (const i of pending) done[i] = inserts[i](attempt);
  }
  throwFirstError(done);
  return done;
}
