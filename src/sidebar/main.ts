import { emptyCounts } from '../contract/counts-text';
import type { ScheduleRequest, SidebarState, SyncProgress } from '../contract/sidebar';
import { byId, setText, show } from './dom';
import { connectionNotMadeText, formatTime, ordersWindowText, scheduleText, windowDateProblem } from './format';
import { renderFinance, wireFinance } from './finance';
import { renderChecks, wireChecks } from './checks';
import { renderColumns, wireColumns } from './columns';
import {
  fillHourOptions,
  renderCells,
  renderFailureNotices,
  renderProblem,
  renderProgress,
  renderSchedule,
  renderState,
  showHourRow,
} from './render';
import { call } from './server';

const POLL_INTERVAL_MS = 2000;
const POLL_LIMIT_MS = 10 * 60 * 1000;
/** How often the open, idle sidebar asks whether anything changed elsewhere (a cheap stamp, not the whole state). */
const WATCH_INTERVAL_MS = 4000;
/** How often the authorization window is looked at: closing it is noticed at once, without a server call. */
const POPUP_CHECK_MS = 250;

let current: SidebarState | null = null;
let busy = false;
let syncing = false;
let cancelRequested = false;

/**
 * The stamp of what the sidebar shows (set by apply from the state's own stamp; null until the
 * first state is read). Taken from the state, not from the next poll: a scheduled run that ends
 * between this sidebar's own sync and its next look is then still seen as a change.
 */
let watchedStamp: string | null = null;
let watching = false;

/** Status line plus disabled controls while a server call runs; null = idle with a final message. */
function setBusy(label: string | null, idleMessage = ''): void {
  busy = label !== null;
  const status = byId('status');
  status.textContent = label ?? idleMessage;
  status.classList.toggle('busy', busy);
  byId('status').closest('main')?.setAttribute('aria-busy', String(busy));
  document
    .querySelectorAll<HTMLButtonElement | HTMLSelectElement | HTMLInputElement>('button, select, input')
    .forEach((control) => {
      // A locked control (a column always synced) stays disabled whatever the busy state.
      control.disabled = control.dataset.locked === 'true' || (busy && !(syncing && control.id === 'sync-cancel'));
    });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Runs one user action: busy while it runs, and any failure shown with what to do. */
async function perform(label: string, what: string, action: () => Promise<string>): Promise<void> {
  if (busy) return;
  setBusy(label);
  let done = '';
  try {
    done = await action();
  } catch (error) {
    renderProblem({
      code: 'internal',
      userMessage: `Could not ${what}: ${messageOf(error)}`,
      action: 'retry_later',
      retryAt: null,
    });
    done = `Could not ${what}.`;
  } finally {
    setBusy(null, done);
  }
}

function apply(state: SidebarState): void {
  current = state;
  // The stamp this state answers to: a later poll that differs from it is a change not shown yet.
  if (typeof state.stamp === 'string') watchedStamp = state.stamp;
  renderState(state);
  renderChecks(state);
  renderFinance(state);
  renderColumns(state);
}

const refresh = () =>
  perform('Checking the connection…', 'load the add-on state', async () => {
    const before = current ? current.connection.state : null;
    const state = await call('getSidebarState');
    apply(state);
    // "Check again" on a problem only the operator can fix: say what the check found.
    if (before === 'operator_problem') {
      return state.connection.state === 'operator_problem'
        ? 'Checked again: the service still refuses this add-on.'
        : 'Checked again: the service accepts this add-on now.';
    }
    return state.schedule.note && state.schedule.note.kind === 'resumed' ? state.schedule.note.message : 'Ready.';
  });

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits up to `ms`, ending early the moment the authorization window is closed. */
async function delayOrClosed(ms: number, popup: Window | null): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (popup && popup.closed) return;
    await delay(Math.min(POPUP_CHECK_MS, until - Date.now()));
  }
}

/**
 * Polls until the callback has stored the connection, the window is closed, or time runs out. A
 * closed window is answered at once: the state is read straight away, and once more a moment
 * later (the callback may still be storing the connection as the window closes).
 */
async function waitForConnection(popup: Window | null): Promise<string> {
  const started = Date.now();
  let closedReads = 0;
  while (Date.now() - started < POLL_LIMIT_MS) {
    await delayOrClosed(closedReads > 0 ? 1000 : POLL_INTERVAL_MS, popup);
    const state = await call('getSidebarState');
    apply(state);
    if (state.connection.state === 'connected') {
      const store = state.connection.store;
      const resumed =
        state.schedule.note && state.schedule.note.kind === 'resumed' ? ` ${state.schedule.note.message}` : '';
      return `${store ? `Connected to ${store.name}.` : 'Connected.'}${resumed}`;
    }
    if (popup && popup.closed && ++closedReads >= 2) return connectionNotMadeText(state);
  }
  return 'Still not connected. Connect to try again.';
}

const connect = () => {
  // Opened inside the click so the browser does not block it; pointed at the URL once the server answers.
  const popup = window.open('', '_blank');
  return perform('Opening the authorization page…', 'start the connection', async () => {
    show('connect-help', false);
    let url: string;
    try {
      url = (await call('beginConnect')).authorizationUrl;
    } catch (error) {
      if (popup) popup.close();
      throw error;
    }
    if (popup) {
      popup.location.href = url;
    } else {
      const help = byId('connect-help');
      const link = document.createElement('a');
      link.href = url;
      link.target = '_blank';
      link.rel = 'noopener';
      link.textContent = 'Open the authorization page';
      help.replaceChildren('Your browser blocked the new window. ', link, '.');
      help.hidden = false;
    }
    setBusy('Waiting for you to approve access in the new window…');
    return waitForConnection(popup);
  });
};

function askDisconnect(): void {
  const name = current?.connection.store?.name ?? 'this store';
  setText(
    'disconnect-question',
    `Disconnect ${name}? The sheets keep their data; syncing stops until you connect again.`,
  );
  show('disconnect-confirm', true);
  byId('disconnect-no').focus();
}

const disconnect = () =>
  perform('Disconnecting…', 'disconnect', async () => {
    apply(await call('disconnectStore'));
    return 'Disconnected.';
  });

/** Whether a schedule will pick up a paused sync by itself. */
function scheduleIsOn(): boolean {
  return current !== null && current.schedule.mode !== 'off';
}

/** The run is over: the bar stands still with what happened, and the status line says what comes next. */
function syncEnded(progress: SyncProgress): string {
  if (progress.problem) {
    renderProgress({ ...progress, phase: 'Stopped: see the message above.' }, true);
    renderProblem(progress.problem, false, true);
    return 'Sync stopped on a problem. Rows written so far are kept.';
  }
  if (progress.pausedUntil) {
    const after = formatTime(progress.pausedUntil);
    renderProgress({ ...progress, phase: `Paused until ${after} (hourly request allowance)` }, true);
    const next = scheduleIsOn()
      ? `The schedule continues it by itself after ${after}.`
      : `Press Sync now after ${after} to continue.`;
    return `Sync paused to stay within the service's hourly request allowance. Rows written so far are kept. ${next}`;
  }
  if (cancelRequested && !progress.done) {
    renderProgress({ ...progress, phase: 'Cancelled' }, true);
    return 'Sync cancelled. Rows written so far are kept; Sync now continues from where it stopped.';
  }
  renderProgress(progress, true);
  return 'Sync finished.';
}

/** What the bar shows the moment Sync now is pressed: a new run, not the end of the last one. */
const STARTING: SyncProgress = {
  done: false,
  phase: 'Starting',
  counts: emptyCounts(),
  fraction: null,
  problem: null,
  pausedUntil: null,
};

const syncNow = () => {
  cancelRequested = false;
  syncing = true;
  show('sync-cancel', true);
  renderProblem(null);
  renderProgress(STARTING);
  return perform('Starting sync…', 'sync', async () => {
    let progress = await call('startSync');
    renderProgress(progress);
    while (!progress.done && !progress.problem && !progress.pausedUntil && !cancelRequested) {
      setBusy(`Syncing: ${progress.phase}`);
      progress = await call('runSyncStep');
      renderProgress(progress);
      if (progress.cells) renderCells(progress.cells);
    }
    // The status line never lags behind the bar while the final state loads.
    setBusy(progress.done && !progress.problem ? 'Caught up: reading the latest state…' : 'Reading the latest state…');
    const message = syncEnded(progress);
    const state = await call('getSidebarState');
    apply(state);
    // A connection problem is already shown with the connection; anything else keeps the sync's problem.
    if (progress.problem && state.connection.problem === null) renderProblem(progress.problem, false, true);
    return message;
  }).finally(() => {
    syncing = false;
    show('sync-cancel', false);
  });
};

function scheduleRequest(): ScheduleRequest {
  const mode = byId<HTMLSelectElement>('schedule-mode').value;
  if (mode === 'hourly') return { mode: 'hourly' };
  if (mode === 'daily') return { mode: 'daily', hour: Number(byId<HTMLSelectElement>('schedule-hour').value) };
  return { mode: 'off' };
}

const saveSchedule = () =>
  perform('Saving the schedule…', 'save the schedule', async () => {
    const schedule = await call('setSchedule', scheduleRequest());
    renderSchedule(schedule);
    if (current) current.schedule = schedule;
    return scheduleText(schedule);
  });

const saveFailureNotices = () =>
  perform('Saving…', 'change the failure e-mails', async () => {
    const view = await call('setFailureNotices', byId<HTMLInputElement>('failure-notices').checked);
    renderFailureNotices(view);
    if (current) current.failureNotices = view;
    return view.on ? `Failure e-mails go to ${view.email ?? 'you'}.` : 'Failure e-mails are off.';
  });

const keepRecentOrders = () =>
  perform('Saving the first day of orders…', 'keep only recent orders', async () => {
    const input = byId<HTMLInputElement>('window-from');
    const chosen = input.value;
    const problem = windowDateProblem(chosen, input.max);
    if (problem) throw new Error(problem);
    apply(await call('setOrdersWindow', { createdAfter: chosen }));
    return `${ordersWindowText(chosen)} Rows already in the sheets stay.`;
  });

function onProblemAction(): void {
  const kind = byId('problem-action').dataset.kind;
  if (kind === 'connect') void connect();
  else if (kind === 'sync') void syncNow();
  else void refresh();
}

/** The newest run as shown under Last sync: the part of the state a run elsewhere changes. */
function newestRun(state: SidebarState | null): string {
  const run = state && state.jobs[0];
  return run ? `${run.lastRunAt}/${run.outcome}` : '';
}

/**
 * While the sidebar is open and idle: a scheduled run, a revoke or a lost connection shows within
 * seconds, without Reload. Each look is one cheap call; the whole state is read only on a change.
 */
async function watchForChanges(): Promise<void> {
  if (busy || watching || document.hidden) return;
  watching = true;
  try {
    const stamp = await call('getSidebarStamp');
    // A server whose state carries no stamp: the first look is the baseline.
    if (watchedStamp === null) watchedStamp = stamp;
    else if (stamp !== watchedStamp && !busy) {
      const before = current;
      const state = await call('getSidebarState');
      if (!busy) {
        apply(state);
        if (before && state.connection.state !== before.connection.state)
          setText('status', 'The connection changed: see Connection below.');
        else if (newestRun(state) !== newestRun(before))
          setText('status', 'A sync ran in the background (the schedule or another editor): see Last sync.');
      }
    }
  } catch {
    // A look that failed (offline, busy server) is simply tried again at the next interval.
  } finally {
    watching = false;
  }
}

function wire(): void {
  fillHourOptions();
  byId('connect').addEventListener('click', () => void connect());
  byId('reconnect').addEventListener('click', () => void connect());
  byId('disconnect').addEventListener('click', askDisconnect);
  byId('disconnect-no').addEventListener('click', () => show('disconnect-confirm', false));
  byId('disconnect-yes').addEventListener('click', () => void disconnect());
  byId('sync-now').addEventListener('click', () => void syncNow());
  byId('sync-cancel').addEventListener('click', () => {
    cancelRequested = true;
    setBusy('Cancelling: the sync stops before its next page (the page being written now is saved)…');
    // Runs beside the step in progress; if it fails, the sync still stops after this step.
    call('cancelSync').catch(() => undefined);
  });
  byId('schedule-mode').addEventListener('change', () =>
    showHourRow(byId<HTMLSelectElement>('schedule-mode').value === 'daily'),
  );
  byId('schedule-save').addEventListener('click', () => void saveSchedule());
  byId('failure-notices').addEventListener('change', () => void saveFailureNotices());
  byId('problem-action').addEventListener('click', onProblemAction);
  byId('window-apply').addEventListener('click', () => void keepRecentOrders());
  wireFinance({ perform, reload: async () => apply(await call('getSidebarState')) });
  wireColumns({ perform, apply });
  wireChecks({
    perform,
    reload: async () => apply(await call('getSidebarState')),
    syncNow: () => void syncNow(),
    status: (label) => setBusy(label),
  });
}

wire();
void refresh();
setInterval(() => void watchForChanges(), WATCH_INTERVAL_MS);
