/**
 * The sidebar's checks: the latest tie-out under Data (from the state, no request of its own) with
 * "Check again" (tieOutNow) and, on ✗, Sync now; and "Check for vanished orders" in the Sync card,
 * which steps the reconciliation pass until done and says how many orders it marked gone.
 */
import { emptyCounts, sumCounts } from '../contract/counts-text';
import { pauseCauseText } from '../contract/pause-text';
import type { RunStepView, SidebarState, SyncProgress } from '../contract/sidebar';
import { tieoutAdvice, tieoutBad, tieoutScopeText, tieoutText } from '../contract/tieout-text';
import { skippedRecordsText } from '../contract/skipped-text';
import { byId, setText, show } from './dom';
import { formatTime } from './format';
import { renderProgress } from './render';
import { call } from './server';

/** As Sync now's steps: short, so the bar moves and the sidebar's call never nears Apps Script's limit. */
const RECONCILE_STEP_MS = 45_000;
const RECONCILE_PHASE = 'Checking for vanished orders';

export interface ChecksActions {
  perform(label: string, what: string, action: () => Promise<string>): Promise<void>;
  reload(): Promise<void>;
  syncNow(): void;
  /** The status line while a long action runs. */
  status(label: string): void;
}

export function renderChecks(state: SidebarState): void {
  const skipped = state.skipped ? skippedRecordsText(state.skipped) : null;
  show('skipped-records', skipped !== null);
  setText('skipped-records', skipped ?? '');
  const view = state.tieout ?? null;
  show('tieout', view !== null);
  if (!view) return;
  const failed = view.failedCount > 0;
  setText('tieout-text', tieoutText(view));
  byId('tieout-text').className = tieoutBad(view) ? 'small tieout-bad' : 'small tieout-ok';
  setText('tieout-checked', `Checked ${formatTime(view.checkedAt)}.`);
  const scope = tieoutScopeText(view, formatTime);
  show('tieout-scope', scope !== '');
  setText('tieout-scope', scope);
  const advice = tieoutAdvice(view);
  show('tieout-advice', advice !== null);
  setText('tieout-advice', advice ?? '');
  // ✗: the run that fixes it is Sync now (it fetches the days again); Check again re-reads as they are.
  show('tieout-sync', failed);
}

function progressOf(step: RunStepView, counts: SyncProgress['counts']): SyncProgress {
  return {
    done: step.done,
    phase: step.done ? 'Checked every order' : RECONCILE_PHASE,
    counts,
    fraction: step.fraction,
    problem: null,
    pausedUntil: step.pausedUntil,
  };
}

function goneText(gone: number): string {
  if (gone === 0) return 'Checked every order: none has vanished.';
  return `Checked every order: ${gone} ${gone === 1 ? 'order was' : 'orders were'} marked gone (they no longer count in the Daily P&L).`;
}

const checkAgain = (actions: ChecksActions) =>
  actions.perform('Checking Orders against the Daily P&L…', 'check the figures', async () => {
    const step = await call('tieOutNow');
    if (step.outcome === 'error') throw new Error(step.message);
    if (step.outcome === 'busy') return 'Another sync of this spreadsheet is running: check again when it ends.';
    await actions.reload();
    return 'Checked: see Data.';
  });

const checkVanished = (actions: ChecksActions) =>
  actions.perform('Checking for vanished orders…', 'check for vanished orders', async () => {
    let counts = emptyCounts();
    renderProgress({ done: false, phase: RECONCILE_PHASE, counts, fraction: null, problem: null, pausedUntil: null });
    for (;;) {
      const step = await call('reconcileOrdersNow', RECONCILE_STEP_MS);
      if (step.outcome === 'error') throw new Error(step.message);
      if (step.outcome === 'busy') return 'Another sync of this spreadsheet is running: check again when it ends.';
      counts = sumCounts(counts, step.counts);
      renderProgress(progressOf(step, counts), step.done || step.pausedUntil !== null);
      if (step.pausedUntil) {
        await actions.reload();
        return `${pauseCauseText(step.pauseFor)}; press the button again after ${formatTime(step.pausedUntil)} to continue. ${counts.ordersGone} marked gone so far.`;
      }
      if (step.done) break;
      actions.status(`${RECONCILE_PHASE}: ${counts.ordersGone} marked gone so far…`);
    }
    // Orders marked gone leave their days' sums: the tie-out shown must not be the one from before.
    if (counts.ordersGone > 0) {
      actions.status('Checking Orders against the Daily P&L…');
      await call('tieOutNow');
    }
    await actions.reload();
    return goneText(counts.ordersGone);
  });

export function wireChecks(actions: ChecksActions): void {
  byId('tieout-check').addEventListener('click', () => void checkAgain(actions));
  byId('tieout-sync').addEventListener('click', () => actions.syncNow());
  byId('reconcile').addEventListener('click', () => void checkVanished(actions));
}
