/**
 * One sync execution: document lock (a busy document → log and exit), account read and store
 * check, then the run's steps in order (the run steps) until caught up or out of budget; one Sync
 * log row per run.
 */
import { GENERATION_KEY, nextFormulaGeneration } from '../functions/generation';
import { reenterFormulas } from '../functions/refresh';
import { clearFormulasOwed, formulasOwed, markFormulasOwed } from '../state/formulas-owed';
import { documentLock } from '../auth';
import { isApiError } from '../api/errors';
import { ExecutionBudget, EXECUTION_LIMIT_MS } from '../platform/budget';
import { DAY_SUMS_DROPPED_NOTE, DocumentStoreFullError } from '../platform/document-store-full';
import {
  beginRunSteps,
  daySumsDroppedThisRun,
  documentProperties,
  holdRunStateWrites,
  releaseRunStateWrites,
} from '../platform/properties';
import { ManagedWorkbook } from '../sheets/managed-workbook';
import { setSheetsWaitBudget } from '../sheets/sheets-requests';
import { leaveBusyNote } from './busy-notes';
import { CancellableBudget, clearEarlierCancel } from './cancel';
import { classifyFailure, type RunFailure } from './failures';
import { sheetsWithContent } from './formula-sheets';
import { emptyTally } from './job-context';
import { refreshOwnerCopy } from './owner-state';
import { blankEntry, failedEnding, idleOutcome, pausedEnding, runLabel } from './run-endings';
import type { RunOptions, RunOutcome } from './run-options';
import { openRecord, startRun, type RunRecord } from './run-start';
import type { RunState } from './run-step';
import { walkSteps } from './run-steps';
import { BACKFILL_SOONER_NOTE } from './trigger-allowance';
import { rowsWritten } from '../../contract/counts-text';

export type { RunOptions, RunOutcome } from './run-options';
export { storeChangedMessage } from './run-endings';

/** Time kept after the closing row's write: the log row and the lock release. */
const CLOSING_RESERVE_MS = 15_000;
/** A run that finds another sync holding the document waits this long, then exits and logs so. */
export const LOCK_WAIT_MS = 1_000;

export function runSync(options: RunOptions): RunOutcome {
  const startedAt = Date.now();
  const budget = options.cancellable ? new CancellableBudget(options.budgetMs) : new ExecutionBudget(options.budgetMs);
  setSheetsWaitBudget((ms) => budget.canWait(ms));
  const workbook = new ManagedWorkbook();
  // A scheduled run lists the spreadsheet at once, as always; Sync now waits for its locked read,
  // which may find the spreadsheet never synced (listed without a Sheets API read).
  if (options.cancellable !== true) workbook.sheets();
  const tally = emptyTally();
  const lock = documentLock();
  const locked = lock.tryLock(LOCK_WAIT_MS);
  const properties = documentProperties();
  if (!locked) {
    clearEarlierCancel();
    return busyRun(startedAt, options, properties);
  }
  // Under the lock, the run's state is written at its checkpoints, each a single write (held writes).
  holdRunStateWrites();
  const record = openRecord(startedAt, options, workbook, tally, properties);
  if (budget instanceof CancellableBudget) budget.readUnderLock(record.state.readAtStart);
  let result: RunOutcome;
  let failure: RunFailure | null = null;
  try {
    const start = startRun(record, budget, properties);
    if (start.kind === 'ended') {
      // The run closed its own log (the store changed): nothing more happens under the lock.
      unlock(lock);
      return { ...start.outcome, state: record.state };
    }
    beginRunSteps();
    walkSteps(start.run);
    result = finishedOutcome(start.run);
    keepDaySums(record);
  } catch (e) {
    // Pages written before the failure are in the sheets (and checkpointed): the tally counts them.
    failure = classifyFailure(e);
    result = failedOutcome(record, failure);
    // An API answer (a pause for the per-minute limit, a refusal) never comes in the middle of a
    // sheet write: the day sums count exactly the rows written. A failure elsewhere may have.
    if (isApiError(e)) keepDaySums(record);
  }
  // The closing row carries the run's deferred writes (Monthly P&L, Restatements): still under the lock.
  // It is the run's record, so it may wait out Google's Sheets minute past the run's own budget,
  // within the execution's limit.
  const droppedBefore = daySumsDroppedThisRun();
  if (droppedBefore) result = { ...result, message: withNote(result.message, DAY_SUMS_DROPPED_NOTE) };
  const closing = new ExecutionBudget(EXECUTION_LIMIT_MS - (Date.now() - startedAt), CLOSING_RESERVE_MS);
  setSheetsWaitBudget((ms) => closing.canWait(ms));
  try {
    try {
      closeLog(record, result, failure);
    } catch (e) {
      // The store refused the closing row's checkpoint: the row says so instead (its next checkpoint keeps quiet).
      if (!(e instanceof DocumentStoreFullError)) throw e;
      failure = classifyFailure(e);
      result = failedOutcome(record, failure);
      closeLog(record, result, failure);
    }
    // Still under the lock: the new generation and the owed flag go with the run's last checkpoint.
    refreshFormulas(result, record);
    refreshOwnerCopy();
  } finally {
    unlock(lock);
  }
  if (!result.done) shareResponses(record);
  // Dropped at the closing row's own checkpoint: the row was written; the run's answer still says so.
  if (!droppedBefore && daySumsDroppedThisRun()) {
    console.warn(`[sync] ${DAY_SUMS_DROPPED_NOTE}`);
    result = { ...result, message: withNote(result.message, DAY_SUMS_DROPPED_NOTE) };
  }
  return { ...result, state: record.state, usedCells: workbook.knownUsedCells() };
}

const withNote = (message: string, note: string): string => (message === '' ? note : `${message} ${note}`);

/** The Orders day sums as this run's writes left them, for the next execution (OrderSumsTracker.keep). */
function keepDaySums(record: RunRecord): void {
  if (record.run) record.run.tracker.keep();
}

/** A run with more to do leaves the answers it read for the execution that continues it (the run's response cache). */
function shareResponses(record: RunRecord): void {
  try {
    record.responses?.share();
  } catch (e) {
    console.warn(`The run's answers were not shared: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The run's held state is written before another execution may take the lock and read it. */
function unlock(lock: GoogleAppsScript.Lock.Lock): void {
  try {
    releaseRunStateWrites();
  } finally {
    lock.releaseLock();
  }
}

/** Another sync holds the document: a note for its Sync log row, and nothing else. */
function busyRun(
  startedAt: number,
  options: RunOptions,
  properties: GoogleAppsScript.Properties.Properties,
): RunOutcome {
  const message = 'Another sync of this spreadsheet is running; this run did nothing and the next one continues.';
  leaveBusyNote(properties, Utilities.getUuid(), {
    ...blankEntry(startedAt, runLabel(options.jobs, options)),
    endedAt: Date.now(),
    outcome: 'busy',
    message,
  });
  return idleOutcome(message, 'busy');
}

function finishedOutcome(run: RunState): RunOutcome {
  const { tally } = run.ctx;
  return {
    done: run.allCaughtUp,
    job: run.current,
    tally,
    message: run.messages.join(' '),
    outcome: run.allCaughtUp && run.tieoutNotRun !== true ? 'ok' : 'partial',
    failureCode: null,
    position: run.position,
    counts: tally.counts,
    pausedUntil: null,
  };
}

function failedOutcome(record: RunRecord, failure: RunFailure): RunOutcome {
  const { options, state, tally } = record;
  let ending =
    failure.pausedUntil !== undefined ? pausedEnding(failure, record.workbook.timeZone) : failedEnding(failure, state);
  // A scheduled run that cannot afford the wait for the next Sheets minute is cut short by its own minute.
  if (failure.code === 'sheets_quota' && options.partialNote) ending = { ...ending, message: options.partialNote };
  // A first backfill paced by the API's own limits: the scheduled runs will get there, Sync now sooner.
  else if (failure.pausedUntil !== undefined && options.partialNote && !state.get('orders').caughtUp)
    ending = { ...ending, message: `${ending.message} ${BACKFILL_SOONER_NOTE}` };
  return { ...ending, job: record.run ? record.run.current : null, tally, counts: tally.counts };
}

function closeLog(record: RunRecord, result: RunOutcome, failure: RunFailure | null): void {
  const { api, tally } = record;
  record.log.close(
    {
      ...blankEntry(record.startedAt, runLabel(record.jobs, record.options)),
      endedAt: Date.now(),
      pages: tally.pages,
      counts: tally.counts,
      requests: api ? api.stats.requests : 0,
      rateLimitWaits: api ? api.stats.rateLimitWaits : 0,
      outcome: result.outcome,
      message: result.message,
      failureCode: result.failureCode,
      connectionLost: failure !== null && failure.connectionLost,
      pausedUntil: result.pausedUntil,
      pauseFor: result.pauseFor,
    },
    quietReconciliation(record, result, failure),
  );
}

/**
 * A reconciliation (with the Daily P&L it refreshes) that found nothing gone, repaired nothing and
 * wrote no day writes nothing. The recent runs record it for the sidebar.
 */
function quietReconciliation(record: RunRecord, result: RunOutcome, failure: RunFailure | null): boolean {
  return (
    failure === null &&
    result.pausedUntil === null &&
    (result.outcome === 'ok' || result.outcome === 'partial') &&
    record.jobs.includes('reconcile') &&
    record.jobs.every((job) => job === 'reconcile' || job === 'daily') &&
    rowsWritten(record.tally.counts) === 0
  );
}

/**
 * Orders, products or Daily P&L days changed: the figures behind the formulas did (a cost correction
 * or refund moves the order, spec 3.1; a silent one moves only the P&L day, which PROFIT_DAILY and
 * PROFIT_MONTHLY read). P&L days count only when written: the daily job writes only days that differ.
 * A failed run leaves the formulas that ran meanwhile with its error: the next good run re-enters them.
 */
function refreshFormulas(result: RunOutcome, record: RunRecord): void {
  const { counts } = result;
  const changed = counts.ordersAdded + counts.ordersUpdated + counts.products + counts.variants + counts.days;
  if (result.outcome === 'error') markFormulasOwed();
  else if (changed > 0 || formulasOwed()) refreshFormulasAfterSync(record);
}

/**
 * Data changed, or formulas are owed a recalculation (the owed formulas): formula answers
 * cached before are not read again, and every add-on formula of the report sheets is re-entered so
 * that Sheets recalculates it (the formula refresh: from the sheet list this run already read, one
 * more read and, only when formulas exist, two writes). A failure here never fails the sync that
 * wrote the data (the formulas stay owed).
 */
function refreshFormulasAfterSync(record: RunRecord): void {
  const { workbook, state } = record;
  try {
    // Before any formula is re-entered, the new generation is stored: a re-entry is a Sheets write (a checkpoint).
    nextFormulaGeneration(state.readAtStart[GENERATION_KEY] ?? '0');
    reenterFormulas(workbook.id(), sheetsWithContent(workbook));
    clearFormulasOwed();
  } catch (e) {
    console.warn(`Formulas were not refreshed after the sync: ${e instanceof Error ? e.message : String(e)}`);
  }
}
