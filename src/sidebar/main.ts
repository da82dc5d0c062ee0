import type { ScheduleRequest, SidebarState, SyncProgress } from '../contract/sidebar';
import { byId, setText, show } from './dom';
import { connectionNotMadeText, ordersWindowText, windowDateProblem } from './format';
import { fillHourOptions, renderProblem, renderProgress, renderSchedule, renderState } from './render';
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
}

const refresh = () =>
  perform('Checking the connection…', 'load the add-on state', async () => {
    apply(await call('getSidebarState'));
    return 'Ready.';
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
      return store ? `Connected to ${store.name}.` : 'Connected.';
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
  if (cancelRequested) return 'Sync paused. Rows written so far are kept; Sync now continues from there.';
  return 'Sync finished.';
}

const syncNow = () => {
  cancelRequested = false;
  syncing = true;
  show('sync-cancel', true);
  renderProblem(null);
  return perform('Starting sync…', 'sync', async () => {
    let progress = await call('startSync');
    renderProgress(progress);
    while (!progress.done && !progress.problem && !cancelRequested) {
      setBusy(`Syncing: ${progress.phase}`);
      progress = await call('runSyncStep');
      renderProgress(progress);
    }
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
    if (schedule.mode === 'off') return 'Automatic sync is off.';
    if (schedule.mode === 'hourly') return 'Syncs every hour.';
    return `Syncs every day at ${String(schedule.hour ?? 0).padStart(2, '0')}:00.`;
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
  byId('schedule-mode').addEventListener('change', () =>
    show('schedule-hour-row', byId<HTMLSelectElement>('schedule-mode').value === 'daily'),
  );
  byId('schedule-save').addEventListener('click', () => void saveSchedule());
  byId('problem-action').addEventListener('click', onProblemAction);
  byId('window-apply').addEventListener('click', () => void keepRecentOrders());
}

wire();
void refresh();
