import { emptyCounts } from '../contract/counts-text';
import type { ScheduleRequest, SidebarState, SyncProgress } from '../contract/sidebar';
import { byId, setText, show } from './dom';
import { connectionNotMadeText, ordersWindowText, scheduleText, windowDateProblem } from './format';
import { renderFinance, wireFinance } from './finance';
import { fillHourOptions, renderFailureNotices, renderProblem, renderProgress, renderSchedule, renderState, showHourRow } from './render';
import { call } from './server';

const POLL_INTERVAL_MS = 2000;
const POLL_LIMIT_MS = 10 * 60 * 1000;

let current: SidebarState | null = null;
let busy = false;
let syncing = false;
let cancelRequested = false;

/** Status line plus disabled controls while a server call runs; null = idle with a final message. */
function setBusy(label: string | null, idleMessage = ''): void {
  busy = label !== null;
  const status = byId('status');
  status.textContent = label ?? idleMessage;
  status.classList.toggle('busy', busy);
  byId('status').closest('main')?.setAttribute('aria-busy', String(busy));
  document.querySelectorAll<HTMLButtonElement | HTMLSelectElement | HTMLInputElement>('button, select, input').forEach((control) => {
    control.disabled = busy && !(syncing && control.id === 'sync-cancel');
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
    renderProblem({ code: 'internal', userMessage: `Could not ${what}: ${messageOf(error)}`, action: 'retry_later', retryAt: null });
    done = `Could not ${what}.`;
  } finally {
    setBusy(null, done);
  }
}

function apply(state: SidebarState): void {
  current = state;
  renderState(state);
  renderFinance(state);
}

const refresh = () =>
  perform('Checking the connection…', 'load the add-on state', async () => {
    const before = current ? current.connection.state : null;
    const state = await call('getSidebarState');
    apply(state);
    // "Check again" on a problem only the operator can fix: say what the check found.
    if (before === 'operator_problem') {
      return state.connection.state === 'operator_problem' ? 'Checked again: the service still refuses this add-on.' : 'Checked again: the service accepts this add-on now.';
    }
    return state.schedule.note && state.schedule.note.kind === 'resumed' ? state.schedule.note.message : 'Ready.';
  });

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until the callback has stored the connection, the popup is closed, or time runs out. */
async function waitForConnection(popup: Window | null): Promise<string> {
  const started = Date.now();
  let popupClosedPolls = 0;
  while (Date.now() - started < POLL_LIMIT_MS) {
    await delay(POLL_INTERVAL_MS);
    const state = await call('getSidebarState');
    apply(state);
    if (state.connection.state === 'connected') {
      const store = state.connection.store;
      const resumed = state.schedule.note && state.schedule.note.kind === 'resumed' ? ` ${state.schedule.note.message}` : '';
      return `${store ? `Connected to ${store.name}.` : 'Connected.'}${resumed}`;
    }
    if (popup && popup.closed && ++popupClosedPolls >= 2) return connectionNotMadeText(state);
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
  setText('disconnect-question', `Disconnect ${name}? The sheets keep their data; syncing stops until you connect again.`);
  show('disconnect-confirm', true);
  byId('disconnect-no').focus();
}

const disconnect = () =>
  perform('Disconnecting…', 'disconnect', async () => {
    apply(await call('disconnectStore'));
    return 'Disconnected.';
  });

function syncEnded(progress: SyncProgress): string {
  if (progress.problem) {
    renderProblem(progress.problem);
    return 'Sync stopped on a problem. Rows written so far are kept.';
  }
  if (progress.pausedUntil) return `Sync paused. Rows written so far are kept. ${progress.phase}.`;
  if (cancelRequested) return 'Sync paused. Rows written so far are kept; Sync now continues from there.';
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
    }
    // The status line never lags behind the bar while the final state loads.
    setBusy(progress.done && !progress.problem ? 'Caught up: reading the latest state…' : 'Reading the latest state…');
    const message = syncEnded(progress);
    const state = await call('getSidebarState');
    apply(state);
    // A connection problem is already shown with the connection; anything else keeps the sync's problem.
    if (progress.problem && state.connection.problem === null) renderProblem(progress.problem);
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
  else void refresh();
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
    setBusy('Stopping after the current page…');
  });
  byId('schedule-mode').addEventListener('change', () => showHourRow(byId<HTMLSelectElement>('schedule-mode').value === 'daily'));
  byId('schedule-save').addEventListener('click', () => void saveSchedule());
  byId('failure-notices').addEventListener('change', () => void saveFailureNotices());
  byId('problem-action').addEventListener('click', onProblemAction);
  byId('window-apply').addEventListener('click', () => void keepRecentOrders());
  wireFinance({ perform, reload: async () => apply(await call('getSidebarState')) });
}

wire();
void refresh();
