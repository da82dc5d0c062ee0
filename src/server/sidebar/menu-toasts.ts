/** What the menu's items say when they are done: menu runs have no sidebar, so a toast. Pure. */
import { countsText } from '../../contract/counts-text';
import type { SyncProgress } from '../../contract/sidebar';

export interface Toast {
  message: string;
  title: string;
  seconds: number;
}

/** Sync now: what the run wrote and what comes next, or the problem it stopped on. */
export function menuSyncToast(progress: SyncProgress): Toast {
  if (progress.problem)
    return { message: progress.problem.userMessage, title: 'Merchant Analytics: sync stopped', seconds: 15 };
  const written = `${countsText(progress.counts)}.`;
  if (progress.pausedUntil)
    return { message: `${written} ${progress.phase}.`, title: 'Merchant Analytics: sync paused', seconds: 15 };
  return {
    message: progress.done
      ? `Caught up. ${written}`
      : `${written} More to fetch: run Sync now again or open the sidebar.`,
    title: 'Merchant Analytics',
    seconds: 10,
  };
}

/** Refresh formulas: how many cells recalculate. */
export function refreshFormulasToast(formulas: number): Toast {
  const message = formulas === 1 ? '1 formula recalculates.' : `${formulas} formulas recalculate.`;
  return { message, title: 'Merchant Analytics', seconds: 5 };
}
