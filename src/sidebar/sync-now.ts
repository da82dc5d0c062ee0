/**
 * Sync now and Cancel: the run step by step with its bar, and what the status line says when it
 * ends (caught up, stopped on a problem, paused for a request limit, cancelled).
 */
import { emptyCounts } from '../contract/counts-text';
import { pauseCauseText } from '../contract/pause-text';
import type { SyncProgress } from '../contract/sidebar';
import { byId, show } from './dom';
import { formatTime } from './format';
import { renderCells, renderProblem, renderProgress } from './render';
import { call } from './server';
import { apply, perform, session, setBusy } from './session';

/** Whether a schedule will pick up a paused sync by itself. */
function scheduleIsOn(): boolean {
  return session.current !== null && session.current.schedule.mode !== 'off';
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
    const cause = pauseCauseText(progress.pauseFor);
    renderProgress({ ...progress, phase: `${cause}; resumes after ${after}` }, true);
    const next = scheduleIsOn()
      ? `The schedule continues it by itself after ${after}.`
      : `Press Sync now after ${after} to continue.`;
    return `${cause}. Rows written so far are kept. ${next}`;
  }
  if (session.cancelRequested && !progress.done) {
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

export const syncNow = () => {
  session.cancelRequested = false;
  session.syncing = true;
  show('sync-cancel', true);
  renderProblem(null);
  renderProgress(STARTING);
  return perform('Starting sync…', 'sync', async () => {
    // The first step also starts the run: a store caught up in one step costs one execution.
    let progress = await call('runSyncStep', { start: true });
    renderProgress(progress);
    if (progress.cells) renderCells(progress.cells);
    while (!progress.done && !progress.problem && !progress.pausedUntil && !session.cancelRequested) {
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
    session.syncing = false;
    show('sync-cancel', false);
  });
};

export function wireSyncNow(): void {
  byId('sync-now').addEventListener('click', () => void syncNow());
  byId('sync-cancel').addEventListener('click', () => {
    session.cancelRequested = true;
    setBusy('Cancelling: the sync stops before its next page (the page being written now is saved)…');
    // Runs beside the step in progress; if it fails, the sync still stops after this step.
    call('cancelSync').catch(() => undefined);
  });
}
