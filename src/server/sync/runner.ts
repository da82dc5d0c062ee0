/**
 * One sync execution: document lock (a busy document → log and exit), account read and store
 * check, then the jobs in order until caught up or out of budget; one Sync log row per run.
 */
import { nextFormulaGeneration } from '../functions/generation';
import { reenterFormulas } from '../functions/refresh';
import { clearFormulasOwed, formulasOwed, markFormulasOwed } from '../state/formulas-owed';
import { createApiClient, type ApiClient } from '../api';
import { confirmStore, documentLock, refreshProactively, setStoreTag, storeTag, triggerTokenSource } from '../auth';
import { getDeploymentConfig } from '../platform/config';
import { ExecutionBudget, EXECUTION_LIMIT_MS } from '../platform/budget';
import { CancellableBudget, CANCELLED_NOTE } from './cancel';
import { documentProperties } from '../platform/properties';
import { documentCacheOrNull } from '../platform/context';
import { adoptScheduledRunState, refreshOwnerCopy } from './owner-state';
import { ManagedWorkbook } from '../sheets/managed-workbook';
import { checkBasis, finishBasisRefresh } from './basis-change';
import { writeTieout } from '../finance/tieout-sheet';
import { OrderSumsTracker } from '../finance/order-sums-store';
import { DAILY, LINE_ITEMS, ORDERS, PRODUCTS, VARIANTS } from '../sheets/schema';
import { refetchFailedDays } from './refetch-days';
import { runDailyJob } from './daily-job';
import { refreshFinanceSheets } from '../finance/refresh';
import {
  classifyFailure,
  isConnectionLoss,
  pauseMessage,
  resumeTimeText,
  type PauseCause,
  type RunFailure,
} from './failures';
import { sendFailureNotice } from './failure-notice';
import { instantToLocalDate } from '../platform/calendar';
import { setSheetsWaitBudget } from '../sheets/sheets-requests';
import { clipText } from '../platform/property-size';
import {
  emptyTally,
  type JobContext,
  type JobName,
  type JobPosition,
  type JobResult,
  type RunTally,
} from './job-context';
import { reconciliationDue, runOrdersJob, runReconcileJob } from './orders-job';
import { fillDue, runColumnFill } from './column-fill';
import { columnSettings } from '../state/column-settings';
import { runProductsJob } from './products-job';
import { emptyCounts } from '../../contract/counts-text';
import type { SyncCounts } from '../../contract/sidebar';
import { checkManagedSheets } from './sheet-health';
import { describeSchedule, resumeSuspendedSchedule, scheduleTimeZone, suspendSchedule } from './schedule';
import { SyncStateStore } from '../state/sync-state';
import { leaveBusyNote } from './busy-notes';
import { CHECK_JOB, SyncLog, type LogEntry } from './sync-log';
import { skippedText } from './skipped-records';
import type { SheetPlace } from '../sheets/sheet-tags';
import {
  BACKFILL_SOONER_NOTE,
  claimSkipNote,
  CUT_SHORT_NOTE,
  recordScheduledRun,
  scheduledAllowance,
  skippedMessage,
  type ScheduledAllowance,
} from './trigger-allowance';

/** Time kept after the closing row's write: the log row and the lock release. */
const CLOSING_RESERVE_MS = 15_000;
/** A run that finds another sync holding the document waits this long, then exits and logs so. */
const LOCK_WAIT_MS = 1_000;

export interface RunOptions {
  jobs: JobName[];
  budgetMs: number;
  /** The scheduled run adds the reconciliation pass when it is due. */
  addDueReconciliation: boolean;
  /** Run the tie-out (Checks sheet) even without the orders and daily jobs: the on-demand check. */
  tieOut?: boolean;
  /** Sync now: the orders of the days the last tie-out found ✗ are fetched again and written whole (refetch-days.ts). */
  refetchFailedDays?: boolean;
  /** Added to the message of a run that stopped at its budget with work left. */
  partialNote?: string;
  /** Sync now from the sidebar: a Cancel there stops the run before its next page (cancel.ts). */
  cancellable?: boolean;
}

export interface RunOutcome {
  done: boolean;
  job: JobName | null;
  tally: RunTally;
  message: string;
  outcome: 'ok' | 'partial' | 'error' | 'busy';
  /** Why an 'error' run stopped (failures.ts codes, e.g. 'cell_limit'); null otherwise. */
  failureCode: string | null;
  /** Which sheet and column an 'error' run stopped on, when a sheet stopped it (never its cells' text). */
  failurePlace?: SheetPlace;
  /** Where the last job stands, when that can be known (progress.ts). */
  position: JobPosition | null;
  /** What the run wrote, per sheet (the same figures as its Sync log row). */
  counts: SyncCounts;
  /** A 'partial' run that paused for the API's hourly reserve continues after this (epoch ms); else null. */
  pausedUntil: number | null;
}

const RUNNERS: Record<JobName, (ctx: JobContext) => JobResult> = {
  orders: runOrdersJob,
  products: runProductsJob,
  daily: runDailyJob,
  reconcile: runReconcileJob,
};

/**
 * The scheduled run. Fired by its time-driven trigger it counts against the user's daily trigger
 * runtime (trigger-allowance.ts): a short budget, a daily share, and a note when cut short. Run
 * any other way (the demo, a test, the script editor) it has the whole execution budget.
 */
export function runScheduledSync(options: { trigger: boolean } = { trigger: false }): RunOutcome {
  const startedAt = Date.now();
  const allowance = options.trigger ? scheduledAllowance(startedAt) : null;
  if (allowance && allowance.budgetMs === 0) return skippedRun(startedAt, allowance);
  try {
    refreshProactively();
  } catch {
    // A busy lock or a transient failure: the run below reports what matters.
  }
  const jobs: JobName[] = ['orders', 'products', 'daily'];
  if (!allowance) return runSync({ jobs, budgetMs: EXECUTION_LIMIT_MS, addDueReconciliation: true });
  try {
    const outcome = runSync({
      jobs,
      budgetMs: allowance.budgetMs - (Date.now() - startedAt),
      addDueReconciliation: true,
      partialNote: CUT_SHORT_NOTE,
    });
    if (outcome.outcome === 'error' && outcome.failureCode !== null)
      noticeFailure(outcome.failureCode, outcome.failurePlace);
    return outcome;
  } finally {
    recordScheduledRun(Date.now(), Date.now() - startedAt);
  }
}

/** A fired trigger's failure that needs a person: the opted-in user's e-mail (failure-notice.ts). */
function noticeFailure(code: string, place?: SheetPlace): void {
  const now = Date.now();
  sendFailureNotice({
    code,
    connectionLost: isConnectionLoss(code),
    place,
    day: instantToLocalDate(now, scheduleTimeZone() ?? 'UTC'),
  });
}

/** The day's share of trigger time is spent: say so in the Sync log once a day, and do nothing else. */
function skippedRun(startedAt: number, allowance: ScheduledAllowance): RunOutcome {
  const timeZone = scheduleTimeZone() ?? 'UTC';
  const message = skippedMessage(allowance.usedMs, allowance.freesAt, (at) => resumeTimeText(at, timeZone, startedAt));
  if (claimSkipNote(startedAt)) {
    const lock = documentLock();
    if (lock.tryLock(LOCK_WAIT_MS)) {
      try {
        const properties = documentProperties();
        new SyncLog(new ManagedWorkbook(), new SyncStateStore(properties), properties).note(
          startedAt,
          'schedule',
          message,
        );
      } finally {
        lock.releaseLock();
      }
    }
  }
  noticeFailure('trigger_allowance');
  const tally = emptyTally();
  return {
    done: false,
    job: null,
    tally,
    message,
    outcome: 'partial',
    failureCode: null,
    position: null,
    counts: emptyCounts(),
    pausedUntil: null,
  };
}

export function runSync(options: RunOptions): RunOutcome {
  const startedAt = Date.now();
  const budget = options.cancellable ? new CancellableBudget(options.budgetMs) : new ExecutionBudget(options.budgetMs);
  setSheetsWaitBudget((ms) => budget.canWait(ms));
  const workbook = new ManagedWorkbook();
  const tally = emptyTally();
  const lock = documentLock();
  const locked = lock.tryLock(LOCK_WAIT_MS);
  const properties = documentProperties();
  if (!locked) {
    const message = 'Another sync of this spreadsheet is running; this run did nothing and the next one continues.';
    leaveBusyNote(properties, Utilities.getUuid(), {
      ...blankEntry(startedAt, runLabel(options.jobs, options)),
      endedAt: Date.now(),
      outcome: 'busy',
      message,
    });
    return {
      done: false,
      job: null,
      tally,
      message,
      outcome: 'busy',
      failureCode: null,
      position: null,
      counts: emptyCounts(),
      pausedUntil: null,
    };
  }
  // A documentless scheduled run of this user worked on their copy of the state: take it in first.
  adoptScheduledRunState();
  // Read under the lock: a run that just ended while this one waited saved its checkpoints and log row.
  const state = new SyncStateStore(properties);
  workbook.useColumns(columnSettings(state, () => Date.now()));
  const log = new SyncLog(workbook, state, properties);
  let api: ApiClient | null = null;
  let jobs = options.jobs.slice();
  let current: JobName | null = null;
  let result: RunOutcome;
  let failure: RunFailure | null = null;
  let tracker: OrderSumsTracker | null = null;
  try {
    const config = getDeploymentConfig();
    api = createApiClient({
      baseUrl: config.apiBaseUrl,
      tokens: triggerTokenSource(),
      budget,
      cache: documentCacheOrNull(),
    });
    const account = api.account();
    if (!confirmStore({ id: account.store.id, name: account.store.name })) {
      const tag = storeTag();
      const message = `${storeChangedMessage(state.get('meta').storeName ?? null, tag, account)}${pauseNote(tag)}`;
      log.close({
        ...blankEntry(startedAt, runLabel(jobs, options)),
        endedAt: Date.now(),
        outcome: 'error',
        message,
        failureCode: 'store_changed',
        connectionLost: true,
      });
      markFormulasOwed();
      return {
        done: true,
        job: null,
        tally,
        message,
        outcome: 'error',
        failureCode: 'store_changed',
        position: null,
        counts: tally.counts,
        pausedUntil: null,
      };
    }
    // Confirmed: the tag is this store's or none yet (one read for both uses).
    const sheetsStore = storeTag();
    const resumed = resumeSuspendedSchedule(account.store.id, sheetsStore);
    if (sheetsStore === null) setStoreTag(account.store.id);
    workbook.bindStore(account.store.id, account.store.currency || null);
    state.update('meta', {
      storeTimeZone: clipText(String(account.store.timezone ?? ''), 100) || null,
      storeCurrency: clipText(String(account.store.currency ?? ''), 20) || null,
      storeName: clipText(String(account.store.name ?? ''), 100) || null,
    });
    const watermarkAtStart = state.get('orders').watermark;
    const skippedDaysAtStart = skippedDaysKey(state);
    const failedAtStart = state.get('tieout').failedDays;
    const ctx: JobContext = {
      api,
      workbook,
      state,
      budget,
      now: () => Date.now(),
      storeTimeZone: account.store.timezone || workbook.timeZone,
      tally,
    };
    const messages: string[] = resumed
      ? [`Automatic sync resumed: ${describeSchedule(resumed, scheduleTimeZone())}.`]
      : [];
    messages.push(...checkManagedSheets(ctx, jobs));
    const refreshesFigures = jobs.indexOf('orders') >= 0 || jobs.indexOf('daily') >= 0;
    if (refreshesFigures) messages.push(...checkBasis(ctx));
    // From the first row this run writes until it re-enters them, the formulas are owed a
    // recalculation: a run killed in between leaves them owed, and the next run re-enters them
    // even when it finds nothing new (the figures they show changed with the rows written).
    workbook.beforeFirstWrite([ORDERS, LINE_ITEMS, PRODUCTS, VARIANTS, DAILY], markFormulasOwed);
    // Before the first Orders write: the Orders day sums follow every row this run writes.
    tracker = OrderSumsTracker.open(properties, workbook, ctx.state.get('meta').storeCurrency, state.readAtStart);
    if (options.addDueReconciliation && jobs.indexOf('reconcile') < 0 && reconciliationDue(ctx))
      jobs = [...jobs, 'reconcile'];
    jobs = inRunOrder(jobs);
    log.open({ ...blankEntry(startedAt, runLabel(jobs, options)), outcome: 'running', message: 'Running…' });
    const refetched = options.refetchFailedDays === true && jobs.indexOf('orders') >= 0 ? refetchFailedDays(ctx) : null;
    if (refetched) messages.push(refetched);
    let allCaughtUp = true;
    let position: JobPosition | null = null;
    for (const job of jobs) {
      current = job;
      const r = RUNNERS[job](ctx);
      messages.push(r.message);
      position = r.position ?? null;
      if (job === 'orders' && r.caughtUp) noteFirstBackfill(ctx);
      if (!r.caughtUp) {
        allCaughtUp = false;
        break;
      }
    }
    const skipped = skippedText(tally.skipped);
    if (skipped) messages.push(skipped);
    const meta = state.get('meta');
    if (meta.truncated)
      messages.push(
        `The plan shows history from ${meta.historyAvailableFrom ?? 'a limited date'} (older data is not available).`,
      );
    if (allCaughtUp && state.get('capacity').stoppedAt !== null) state.update('capacity', { stoppedAt: null });
    let basisRefreshed = false;
    if (allCaughtUp && jobs.indexOf('orders') >= 0 && jobs.indexOf('daily') >= 0) {
      const refreshed = finishBasisRefresh(ctx);
      if (refreshed) messages.push(refreshed);
      basisRefreshed = refreshed !== null;
    }
    // Monthly P&L and the closed months follow the Daily P&L once it is up to date (and on one basis).
    if (allCaughtUp && jobs.indexOf('daily') >= 0 && budget.canStartStep()) messages.push(...refreshFinanceSheets(ctx));
    // The tie-out follows every run that brought Orders and Daily P&L up to date with new changes (an
    // idle run leaves the last one standing, at most a day old: it costs an Orders read), and on demand.
    const tiesOut =
      options.tieOut === true ||
      (jobs.indexOf('orders') >= 0 &&
        jobs.indexOf('daily') >= 0 &&
        tieoutDue(
          state,
          watermarkAtStart,
          tally.counts,
          basisRefreshed,
          skippedDaysKey(state) !== skippedDaysAtStart,
          tracker.current() === null,
        ));
    if (allCaughtUp && tiesOut && budget.canStartStep()) {
      messages.push(tieoutOrNote(ctx, tracker, tieoutReadsOrders(options, tracker, ctx.now())));
      // Sync now: days this tie-out found ✗ that it had not fetched again yet are fetched now, and the
      // next step (P&L re-read from them, tie-out) finishes the repair; days ✗ already known are not refetched twice.
      if (
        options.refetchFailedDays === true &&
        jobs.indexOf('orders') >= 0 &&
        state.get('tieout').failedDays.some((d) => failedAtStart.indexOf(d) < 0) &&
        budget.canStartStep()
      ) {
        const again = refetchFailedDays(ctx);
        if (again) messages.push(again);
        allCaughtUp = false;
      }
    }
    // Columns chosen later are filled last, with what the run has left: new orders never wait for them.
    if (allCaughtUp && jobs.indexOf('orders') >= 0 && fillDue(ctx)) {
      const filled = budget.canStartStep() ? runColumnFill(ctx) : null;
      if (!filled) messages.push('Filling the columns you added continues in the next run.');
      else if (filled.message) messages.push(filled.message);
      if (!filled || !filled.caughtUp) allCaughtUp = false;
    }
    if (!allCaughtUp && options.partialNote) messages.push(options.partialNote);
    // A cancelled run says so, not "stopped before the time limit".
    if (!allCaughtUp && budget instanceof CancellableBudget && budget.cancelled)
      messages.splice(0, messages.length, CANCELLED_NOTE);
    result = {
      done: allCaughtUp,
      job: current,
      tally,
      message: messages.join(' '),
      outcome: allCaughtUp ? 'ok' : 'partial',
      failureCode: null,
      position,
      counts: tally.counts,
      pausedUntil: null,
    };
  } catch (e) {
    // Pages written before the failure are in the sheets (and checkpointed): the tally counts them.
    failure = classifyFailure(e);
    let ending =
      failure.pausedUntil !== undefined ? pausedEnding(failure, workbook.timeZone) : failedEnding(failure, state);
    // A scheduled run that cannot afford the wait for the next Sheets minute is cut short by its own minute.
    if (failure.code === 'sheets_quota' && options.partialNote) ending = { ...ending, message: options.partialNote };
    // A first backfill paced by the API's own limits: the scheduled runs will get there, Sync now sooner.
    else if (failure.pausedUntil !== undefined && options.partialNote && !state.get('orders').caughtUp)
      ending = { ...ending, message: `${ending.message} ${BACKFILL_SOONER_NOTE}` };
    result = { ...ending, job: current, tally, counts: tally.counts };
  }
  // The closing row carries the run's deferred writes (Monthly P&L, Restatements): still under the lock.
  // It is the run's record, so it may wait out Google's Sheets minute past the run's own budget,
  // within the execution's limit.
  const closing = new ExecutionBudget(EXECUTION_LIMIT_MS - (Date.now() - startedAt), CLOSING_RESERVE_MS);
  setSheetsWaitBudget((ms) => closing.canWait(ms));
  try {
    log.close({
      ...blankEntry(startedAt, runLabel(jobs, options)),
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
    });
    refreshOwnerCopy();
  } finally {
    lock.releaseLock();
  }
  // Orders, products or Daily P&L days changed: the figures behind the formulas did (a cost correction
  // or refund moves the order, spec 3.1; a silent one moves only the P&L day, which PROFIT_DAILY and
  // PROFIT_MONTHLY read). P&L days count only when written: the daily job writes only days that differ.
  // A failed run leaves the formulas that ran meanwhile with its error: the next good run re-enters them.
  const changed =
    result.counts.ordersAdded +
    result.counts.ordersUpdated +
    result.counts.products +
    result.counts.variants +
    result.counts.days;
  if (result.outcome === 'error') markFormulasOwed();
  else if (changed > 0 || formulasOwed()) refreshFormulasAfterSync(workbook);
  return result;
}

/**
 * Data changed, or formulas are owed a recalculation (functions/formulas-owed.ts): formula answers
 * cached before are not read again, and every add-on formula of the report sheets is re-entered so
 * that Sheets recalculates it (functions/refresh.ts: from the sheet list this run already read, one
 * more read and, only when formulas exist, two writes). A failure here never fails the sync that
 * wrote the data (the formulas stay owed).
 */
function refreshFormulasAfterSync(workbook: ManagedWorkbook): void {
  try {
    nextFormulaGeneration();
    reenterFormulas(workbook.id(), workbook.scannedSheets());
    clearFormulasOwed();
  } catch (e) {
    console.warn(`Formulas were not refreshed after the sync: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The Sync log's job: the jobs run, or "check" for the on-demand tie-out, which syncs nothing. */
function runLabel(jobs: readonly JobName[], options: RunOptions): string {
  return jobs.length === 0 && options.tieOut === true ? CHECK_JOB : jobs.join(', ');
}

/** How a run that did not reach its end ended. */
type Ending = Omit<RunOutcome, 'job' | 'tally' | 'counts'>;

/** A run stopped by the hourly reserve, a rate limit or Google's Sheets quota has not failed: it is partial and continues. */
function pausedEnding(failure: RunFailure, timeZone: string): Ending {
  const pausedUntil = failure.pausedUntil ?? null;
  const cause: PauseCause | undefined = failure.pauseFor;
  const message =
    failure.code === 'sheets_quota' ? failure.userMessage : pauseMessage(pausedUntil, timeZone, Date.now(), cause);
  return { done: false, message, outcome: 'partial', failureCode: null, position: null, pausedUntil };
}

/**
 * The connection moved to another store (the same merchant user connected a different one): both
 * stores named as the service names them, and what to do about each.
 */
export function storeChangedMessage(
  sheetsStoreName: string | null,
  sheetsStoreId: string | null,
  account: { store: { id: string; name?: string | null; shop_domain?: string | null } },
): string {
  const held = sheetsStoreName
    ? `${sheetsStoreName} (${sheetsStoreId ?? 'unknown id'})`
    : `store ${sheetsStoreId ?? 'unknown'}`;
  const now = account.store.name
    ? `${clipText(String(account.store.name), 100)}${account.store.shop_domain ? ` (${clipText(String(account.store.shop_domain), 100)})` : ''}`
    : `store ${account.store.id}`;
  return (
    `This spreadsheet holds the data of ${held}, but the connection now reads another store: ${now}. Nothing was written. ` +
    `To keep syncing ${sheetsStoreName ?? 'the original store'} here, Reconnect and choose it; to sync ${account.store.name ?? 'the other store'}, use a new spreadsheet.`
  );
}

function failedEnding(failure: RunFailure, state: SyncStateStore): Ending {
  let message = failure.userMessage;
  if (failure.connectionLost) message += pauseNote(storeTag());
  // The sidebar offers a created_after window while this stands (cleared by a window or a complete run).
  if (failure.code === 'cell_limit' || failure.code === 'backfill_too_large')
    state.update('capacity', { stoppedAt: Date.now() });
  return {
    done: true,
    message,
    outcome: 'error',
    failureCode: failure.code,
    failurePlace: failure.place,
    position: null,
    pausedUntil: null,
  };
}

/** Pauses the schedule of a lost connection (remembering it for the reconnect) and says so. */
function pauseNote(sheetsStoreId: string | null): string {
  const paused = suspendSchedule(sheetsStoreId, Date.now());
  return paused
    ? ` Automatic sync is off until you reconnect this store; then it resumes ${describeSchedule(paused.schedule, paused.timeZone)}.`
    : '';
}

/**
 * Orders or Daily P&L days changed in this run (new changes, gone marks, rewritten P&L days: a
 * silent correction moves only the P&L), Sync now fetched the ✗ days again (in this step or an
 * earlier one of the same Sync now), the basis is being refreshed, a Daily P&L day was skipped or
 * written after being skipped (its ✗ in Checks names it), a run cut short left the day sums unsaved, or the last tie-out is a day old.
 */
function tieoutDue(
  state: SyncStateStore,
  watermarkAtStart: string | null,
  counts: SyncCounts,
  basisRefreshed: boolean,
  skippedDaysChanged: boolean,
  sumsUnsaved: boolean,
): boolean {
  const { checkedAt: last, refetchedAt } = state.get('tieout');
  return (
    (typeof refetchedAt === 'number' && last !== null && refetchedAt > last) ||
    state.get('orders').watermark !== watermarkAtStart ||
    counts.ordersGone > 0 ||
    counts.days > 0 ||
    basisRefreshed ||
    skippedDaysChanged ||
    // A run cut short after writing Orders left the day sums (and the formulas' counts) unsaved.
    sumsUnsaved ||
    state.get('sheetsBasis').refreshingSince !== null ||
    last === null ||
    Date.now() - last >= 86_400_000
  );
}

/** The Daily P&L days skipped so far, as one comparable text. */
function skippedDaysKey(state: SyncStateStore): string {
  return state
    .get('skipped')
    .days.map((d) => d.id)
    .join(',');
}

/**
 * Whether the tie-out reads the whole Orders sheet: when the user asks (Checks → Run, Sync now),
 * when the day sums cannot be trusted, and at least once a day, so a hand edit of an Orders cell
 * shows within a day; otherwise the hourly run compares the day sums it kept as it wrote.
 */
function tieoutReadsOrders(options: RunOptions, tracker: OrderSumsTracker | null, now: number): boolean {
  const fullAt = tracker ? tracker.fullAt() : null;
  return options.tieOut === true || options.refetchFailedDays === true || fullAt === null || now - fullAt >= 86_400_000;
}

/** A tie-out that could not run is said in the log; the data the run wrote stands. */
function tieoutOrNote(ctx: JobContext, tracker: OrderSumsTracker | null, full: boolean): string {
  try {
    return writeTieout(ctx, tracker, full);
  } catch (e) {
    const why =
      e !== null && typeof e === 'object' && typeof (e as { userMessage?: unknown }).userMessage === 'string'
        ? (e as { userMessage: string }).userMessage
        : e instanceof Error
          ? e.message
          : String(e);
    return `Tie-out not run this time: ${why}`;
  }
}

/** Daily P&L runs last: the order jobs before it mark the days whose figures changed. */
function inRunOrder(jobs: JobName[]): JobName[] {
  const order: JobName[] = ['orders', 'products', 'reconcile', 'daily'];
  return order.filter((job) => jobs.indexOf(job) >= 0);
}

/** The first complete backfill is itself a full pass: the monthly reconciliation counts from it. */
function noteFirstBackfill(ctx: JobContext): void {
  const r = ctx.state.get('reconcile');
  if (r.lastCompletedAt === null && r.passStartedAt === null)
    ctx.state.update('reconcile', { lastCompletedAt: ctx.now() });
}

function blankEntry(startedAt: number, job: string): LogEntry {
  return {
    startedAt,
    endedAt: null,
    job,
    pages: 0,
    counts: emptyCounts(),
    requests: 0,
    rateLimitWaits: 0,
    outcome: 'running',
    message: '',
  };
}
