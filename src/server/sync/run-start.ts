/**
 * The start of a run under the lock: the account read and store check, the checks before the first
 * write, the jobs it will run, and its first Sync log row.
 */
import { neverSynced } from '../sheets/new-spreadsheet-listing';
import { markFormulasOwed } from '../state/formulas-owed';
import { createApiClient, type ApiClient } from '../api';
import { runResponseCache, type RunResponseCache } from '../api/run-response-cache';
import { confirmStore, setStoreTag, storeTag, triggerTokenSource } from '../auth';
import { getDeploymentConfig } from '../platform/config';
import { writeWithRunState } from '../platform/properties';
import type { ExecutionBudget } from '../platform/budget';
import { documentCacheOrNull } from '../platform/context';
import { clipText } from '../platform/property-size';
import { OrderSumsTracker } from '../finance/order-sums-store';
import type { ManagedWorkbook } from '../sheets/managed-workbook';
import { DAILY, LINE_ITEMS, ORDERS, PRODUCTS, VARIANTS } from '../sheets/schema';
import { checkBasis } from './basis-change';
import { keepDailyReads } from './daily-reads';
import type { JobContext, JobName, RunTally } from './job-context';
import { reconciliationDue } from './reconcile-job';
import { blankEntry, pauseNote, runLabel, storeChangedMessage } from './run-endings';
import type { RunOptions, RunOutcome } from './run-options';
import type { RunState } from './run-step';
import { JOB_ORDER } from './run-steps';
import { describeSchedule, resumeSuspendedSchedule, scheduleTimeZone } from './schedule';
import { checkManagedSheets } from './sheet-health';
import { SyncStateStore } from '../state/sync-state';
import { SyncLog } from './sync-log';
import { columnSettings } from '../state/column-settings';
import { adoptScheduledRunState } from './owner-state';
import { skippedDaysKey } from './tieout-step';

/**
 * What the closing Sync log row needs to know of the run, however it ended. The start fills in
 * `api`, `jobs` and `run` as it gets them (attachApi, settleJobs, attachRun), so that a run that
 * fails part way still logs its requests, its jobs and the job it was in.
 */
export interface RunRecord {
  startedAt: number;
  options: RunOptions;
  /** The jobs run, in run order once the run started. */
  jobs: JobName[];
  api: ApiClient | null;
  /** The answers the run's client kept (the run's response cache), shared when the run ends with more to do. */
  responses: RunResponseCache | null;
  tally: RunTally;
  workbook: ManagedWorkbook;
  state: SyncStateStore;
  log: SyncLog;
  /** The run's steps, once it started. */
  run: RunState | null;
}

/** How the start ended: the run ready for its steps, or the run's outcome when the store check stopped it. */
export type RunStart = { kind: 'started'; run: RunState } | { kind: 'ended'; outcome: RunOutcome };

/** The run's record, once it holds the lock. */
export function openRecord(
  startedAt: number,
  options: RunOptions,
  workbook: ManagedWorkbook,
  tally: RunTally,
  properties: GoogleAppsScript.Properties.Properties,
): RunRecord {
  // Read under the lock: a run that just ended while this one waited saved its checkpoints and log
  // row. The one whole read of the execution: the schedule the adoption below asks for is in it.
  const read = properties.getProperties();
  if (neverSynced(read)) workbook.neverSynced();
  // A documentless scheduled run of this user worked on their copy of the state: take it in first
  // (then read again what it wrote).
  const adopted = adoptScheduledRunState(true);
  const state = new SyncStateStore(properties, adopted.length > 0 ? undefined : read);
  workbook.useColumns(columnSettings(state, () => Date.now()));
  const log = new SyncLog(workbook, state, properties);
  return {
    startedAt,
    options,
    jobs: options.jobs.slice(),
    api: null,
    responses: null,
    tally,
    workbook,
    state,
    log,
    run: null,
  };
}

/** The run ready for its steps, or the outcome of a run the store check stopped (logged and closed here). */
export function startRun(
  record: RunRecord,
  budget: ExecutionBudget,
  properties: GoogleAppsScript.Properties.Properties,
): RunStart {
  const { workbook, state, log, options, tally } = record;
  const config = getDeploymentConfig();
  const responses = (record.responses = runResponseCache(documentCacheOrNull(), undefined, mayHaveShared(state)));
  // The tie-out's P&L books come from the daily job's read of the same days (the daily reads).
  const api = keepDailyReads(
    createApiClient({
      baseUrl: config.apiBaseUrl,
      tokens: triggerTokenSource({ untilEndOfExecution: true }),
      budget,
      cache: responses,
    }),
  );
  attachApi(record, api);
  const account = api.account();
  if (!confirmStore({ id: account.store.id, name: account.store.name })) {
    const tag = storeTag();
    const message = `${storeChangedMessage(state.get('meta').storeName ?? null, tag, account)}${pauseNote(tag)}`;
    log.close({
      ...blankEntry(record.startedAt, runLabel(record.jobs, options)),
      endedAt: Date.now(),
      outcome: 'error',
      message,
      failureCode: 'store_changed',
      connectionLost: true,
    });
    markFormulasOwed();
    return {
      kind: 'ended',
      outcome: {
        done: true,
        job: null,
        tally,
        message,
        outcome: 'error',
        failureCode: 'store_changed',
        position: null,
        counts: tally.counts,
        pausedUntil: null,
      },
    };
  }
  // Confirmed: the tag is this store's or none yet (one read for both uses).
  const sheetsStore = storeTag();
  const resumed = resumeSuspendedSchedule(account.store.id, sheetsStore);
  // A first run's tag is stored with its first checkpoint, before its first sheet write: until then
  // there is nothing of the store's in the sheets for another execution to find.
  if (sheetsStore === null) writeWithRunState(() => setStoreTag(account.store.id));
  workbook.bindStore(account.store.id, account.store.currency || null);
  const storeMeta = {
    storeTimeZone: clipText(String(account.store.timezone ?? ''), 100) || null,
    storeCurrency: clipText(String(account.store.currency ?? ''), 20) || null,
    storeName: clipText(String(account.store.name ?? ''), 100) || null,
  };
  // Written when the store's own settings changed, not by every run (a property write each).
  const held = state.get('meta');
  if (Object.entries(storeMeta).some(([k, v]) => held[k as keyof typeof storeMeta] !== v))
    state.update('meta', storeMeta);
  const atStart = {
    watermark: state.get('orders').watermark,
    skippedDays: skippedDaysKey(state),
    failedDays: state.get('tieout').failedDays,
  };
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
  messages.push(...checkManagedSheets(ctx, record.jobs));
  if (record.jobs.some((job) => job === 'orders' || job === 'daily')) messages.push(...checkBasis(ctx));
  // From the first row this run writes until it re-enters them, the formulas are owed a
  // recalculation: a run killed in between leaves them owed, and the next run re-enters them
  // even when it finds nothing new (the figures they show changed with the rows written).
  workbook.beforeFirstWrite([ORDERS, LINE_ITEMS, PRODUCTS, VARIANTS, DAILY], markFormulasOwed);
  // Before the first Orders write: the Orders day sums follow every row this run writes.
  const tracker = OrderSumsTracker.open(properties, workbook, state.get('meta').storeCurrency, state.readAtStart);
  const due = options.addDueReconciliation && !record.jobs.includes('reconcile') && reconciliationDue(ctx);
  const chosen: JobName[] = due ? [...record.jobs, 'reconcile'] : record.jobs;
  settleJobs(
    record,
    JOB_ORDER.filter((job) => chosen.includes(job)),
  );
  // The first row rides along with the run's first sheet write (or is replaced by its closing row).
  log.openWithNextWrite({
    ...blankEntry(record.startedAt, runLabel(record.jobs, options)),
    outcome: 'running',
    message: 'Running…',
  });
  const run: RunState = {
    ctx,
    options,
    jobs: record.jobs,
    current: null,
    position: null,
    messages,
    allCaughtUp: true,
    tracker,
    atStart,
    basisRefreshed: false,
  };
  attachRun(record, run);
  return { kind: 'started', run };
}

/** On the record from the client's creation: a run that fails on its first call still logs its requests. */
function attachApi(record: RunRecord, api: ApiClient): void {
  record.api = api;
}

/** The jobs in run order, a due reconciliation added: the Sync log rows name them. */
function settleJobs(record: RunRecord, jobs: JobName[]): void {
  record.jobs = jobs;
}

/** The run on the record: a failure in its steps reports the job it was in. */
function attachRun(record: RunRecord, run: RunState): void {
  record.run = run;
}

/**
 * Whether the execution before this one may have left its answers in the document cache: a run
 * shares them only when it ends with more to do, and every run that fetched closes its Sync log row
 * or leaves it open. No row left open and a newest recorded run that caught up ('ok'), or none
 * recorded, and the run's look-ups there (25 ms each) would find nothing. A wrong guess costs a
 * request, never an answer.
 */
function mayHaveShared(state: SyncStateStore): boolean {
  const [newest] = state.get('lastRuns');
  return state.get('openLogRow') !== null || (newest !== undefined && newest.outcome !== 'ok');
}
