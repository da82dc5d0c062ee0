import { costGapsText } from '../contract/cost-gaps-text';
import type {
  CellsView,
  FailureNoticeView,
  ProblemView,
  ScheduleView,
  SidebarState,
  SyncProgress,
} from '../contract/sidebar';
import { renderGoogleConsent } from './connect';
import { byId, element, setText, show } from './dom';
import {
  connectedByText,
  failureNoticeText,
  scheduleOwnerText,
  actionButton,
  cellsText,
  cellsWarning,
  connectionButtons,
  connectionHeadline,
  countsText,
  freshnessText,
  jobDetail,
  jobTone,
  ordersWindowText,
  planText,
  problemText,
  scheduleText,
  setDisplayTimeZone,
  timeZoneText,
} from './format';

export function renderState(state: SidebarState): void {
  const { connection } = state;
  // Times below are in the spreadsheet's zone, named once at the foot of the sidebar.
  setDisplayTimeZone(state.schedule.timeZone);
  setText('time-zone', timeZoneText(state.schedule.timeZone));
  const headline = connectionHeadline(connection);
  setText('connection-text', headline.text);
  byId('connection-dot').className = `dot ${headline.tone}`;

  const store = connection.store;
  show('store-line', store !== null);
  setText('store-name', store ? store.name : '');
  setText('store-domain', store ? `(${store.domain})` : '');
  const by = connectedByText(state.connection);
  show('connected-by', by !== null);
  setText('connected-by', by ?? '');

  const buttons = connectionButtons(connection);
  show('connect', buttons.connect);
  show('reconnect', buttons.reconnect);
  show('disconnect', buttons.disconnect);
  show('disconnect-confirm', false);

  const connected = connection.state === 'connected';
  show('data-card', connected && (state.plan !== null || state.freshness !== null || state.jobs.length > 0));
  setText('plan-window', state.plan ? planText(state.plan) : 'Unknown');
  setText('freshness', state.freshness ? freshnessText(state.freshness) : 'Unknown');
  byId('freshness').className = state.freshness && state.freshness.stale ? 'stale' : '';
  const gaps = state.costGaps ?? null;
  show('cost-gaps', gaps !== null && gaps.ordersCounted > 0);
  setText('cost-gaps', gaps ? costGapsText(gaps) : '');
  byId('cost-gaps').className = gaps && gaps.orders > 0 ? 'small cost-gaps-warn' : 'small muted';
  show('jobs-title', state.jobs.length > 0);
  const jobs = byId('jobs');
  jobs.replaceChildren(
    ...state.jobs.map((job) => {
      const item = element('li', '', '');
      item.append(
        element('span', 'job-name', job.label),
        element('span', jobTone(job) === 'error' ? 'job-detail error' : 'job-detail', jobDetail(job)),
      );
      return item;
    }),
  );

  show('sync-card', connected);
  // Not connected, the card only says what happened to the schedule (nothing can be chosen then).
  show('schedule-card', connected || state.schedule.note !== null);
  show('schedule-controls', connected);
  renderSchedule(state.schedule);
  renderFailureNotices(state.failureNotices ?? { on: false, email: null });

  renderCells(state.cells);
  renderWindowOffer(state.cells, connected);

  // The connection card already carries Connect/Reconnect: the banner then only explains.
  renderProblem(connection.problem ?? state.problem, connection.problem !== null);
  renderGoogleConsent(state);
}

/** The cells gauge: from the state, and from each sync step as the sheets grow. */
export function renderCells(cells: CellsView): void {
  byId('cells-gauge').setAttribute('aria-valuenow', String(cells.percent));
  const fill = byId('cells-fill');
  fill.style.width = `${Math.min(100, cells.percent)}%`;
  fill.className = cells.percent >= 90 ? 'gauge-fill full' : cells.warn ? 'gauge-fill warn' : 'gauge-fill';
  setText('cells-text', cellsText(cells));
  const warning = cells.offer ? null : cellsWarning(cells);
  show('cells-warning', warning !== null);
  setText('cells-warning', warning ?? '');
}

/** The orders window in force, and the offer to keep only recent orders when room runs short. */
function renderWindowOffer(cells: CellsView, connected: boolean): void {
  show('orders-window', cells.ordersWindow !== null);
  setText('orders-window', cells.ordersWindow ? ordersWindowText(cells.ordersWindow) : '');
  const offer = connected ? cells.offer : null;
  show('window-offer', offer !== null);
  if (!offer) return;
  setText('window-offer-text', offer.message);
  const input = byId<HTMLInputElement>('window-from');
  input.max = offer.latest;
  input.value = offer.suggestedFrom;
}

export function renderSchedule(schedule: ScheduleView): void {
  byId<HTMLSelectElement>('schedule-mode').value = schedule.mode;
  byId<HTMLSelectElement>('schedule-hour').value = String(schedule.hour ?? 6);
  setText('schedule-summary', scheduleText(schedule));
  show('schedule-next', Boolean(schedule.nextRun));
  setText('schedule-next', schedule.nextRun ?? '');
  setText(
    'schedule-zone',
    schedule.timeZone ? `Hours are in ${schedule.timeZone} time, the spreadsheet's time zone (File → Settings).` : '',
  );
  showHourRow(schedule.mode === 'daily');
  const owner = scheduleOwnerText(schedule);
  show('schedule-owner', owner !== null);
  setText('schedule-owner', owner ?? '');
  // Another editor's schedule: shown, not changeable from here (the server refuses it too).
  const theirs = schedule.yours === false;
  for (const id of ['schedule-mode', 'schedule-hour']) {
    const control = byId<HTMLSelectElement>(id);
    control.disabled = theirs;
    // Locked, so the end of a busy state (setBusy) does not enable it again.
    control.dataset.locked = String(theirs);
  }
  const note = byId('schedule-note');
  note.hidden = schedule.note === null;
  note.textContent = schedule.note ? schedule.note.message : '';
  note.className = schedule.note && schedule.note.kind !== 'resumed' ? 'note paused small' : 'note small';
}

/** The failure e-mail switch, and who receives them. */
export function renderFailureNotices(view: FailureNoticeView): void {
  byId<HTMLInputElement>('failure-notices').checked = view.on;
  // Another editor's opt-in: no "E-mail me" switch (the server refuses the change too), only whose it is.
  show('failure-notices-switch', view.yours !== false);
  setText('failure-notices-note', failureNoticeText(view));
}

/** The hour and its time zone only matter for a daily sync. */
export function showHourRow(visible: boolean): void {
  show('schedule-hour-row', visible);
  show('schedule-zone', visible && byId('schedule-zone').textContent !== '');
}

/**
 * Shows a problem with its action button, or hides the banner when there is none. `fromSync`: the
 * problem stopped a sync, and its "Try again" runs the sync again.
 */
export function renderProblem(problem: ProblemView | null, cardHasConnect = false, fromSync = false): void {
  show('problem', problem !== null);
  if (!problem) return;
  byId('problem').className =
    problem.action === 'wait' || problem.action === 'retry_later' ? 'problem wait' : 'problem';
  setText('problem-message', problemText(problem));
  const offered = actionButton(problem.action, fromSync);
  const button = offered && offered.kind === 'connect' && cardHasConnect ? null : offered;
  const actionElement = byId<HTMLButtonElement>('problem-action');
  actionElement.hidden = button === null;
  actionElement.textContent = button ? button.label : '';
  actionElement.dataset.kind = button ? button.kind : '';
}

/**
 * The sync card's bar, phase and counts. `ended`: the run is over (finished, stopped on a problem,
 * paused or cancelled): the bar stands still, and disappears when it never knew how far it was.
 */
export function renderProgress(progress: SyncProgress | null, ended = false): void {
  show('progress', progress !== null && !(ended && progress.fraction === null));
  show('sync-phase', progress !== null);
  show('sync-counts', progress !== null);
  if (!progress) return;
  const bar = byId('progress');
  const fill = byId('progress-fill');
  if (progress.fraction === null && ended) {
    bar.classList.remove('indeterminate');
    bar.removeAttribute('aria-valuenow');
  } else if (progress.fraction === null) {
    bar.classList.add('indeterminate');
    bar.removeAttribute('aria-valuenow');
    fill.style.width = '';
  } else {
    const percent = Math.round(Math.max(0, Math.min(1, progress.fraction)) * 100);
    bar.classList.remove('indeterminate');
    bar.setAttribute('aria-valuenow', String(percent));
    fill.style.width = `${percent}%`;
  }
  setText('sync-phase', progress.phase);
  // While starting there is nothing to count yet; once a step has answered, every figure is said (zeros too).
  show('sync-counts', progress.phase !== 'Starting');
  setText('sync-counts', `Written: ${countsText(progress.counts)}`);
}

export function fillHourOptions(): void {
  const select = byId<HTMLSelectElement>('schedule-hour');
  for (let hour = 0; hour < 24; hour++) {
    const option = element('option', '', `${String(hour).padStart(2, '0')}:00`);
    option.value = String(hour);
    select.append(option);
  }
}
