/**
 * What the open sidebar holds between calls: the state shown, whether a server call runs, and the
 * stamp it watches; plus the one way every user action runs (busy while it runs, failures shown).
 */
import type { SidebarState } from '../contract/sidebar';
import { renderChecks } from './checks';
import { renderColumns } from './columns';
import { renderDestination } from './destination';
import { byId } from './dom';
import { renderFinance } from './finance';
import { renderProblem, renderState } from './render';

export const session = {
  current: null as SidebarState | null,
  busy: false,
  syncing: false,
  cancelRequested: false,
  /**
   * The stamp of what the sidebar shows (set by apply from the state's own stamp; null until the
   * first state is read). Taken from the state, not from the next poll: a scheduled run that ends
   * between this sidebar's own sync and its next look is then still seen as a change.
   */
  watchedStamp: null as string | null,
};

/** Status line plus disabled controls while a server call runs; null = idle with a final message. */
export function setBusy(label: string | null, idleMessage = ''): void {
  session.busy = label !== null;
  const busy = session.busy;
  const status = byId('status');
  status.textContent = label ?? idleMessage;
  status.classList.toggle('busy', busy);
  byId('status').closest('main')?.setAttribute('aria-busy', String(busy));
  document
    .querySelectorAll<HTMLButtonElement | HTMLSelectElement | HTMLInputElement>('button, select, input')
    .forEach((control) => {
      // A locked control (a column always synced) stays disabled whatever the busy state.
      control.disabled =
        control.dataset.locked === 'true' || (busy && !(session.syncing && control.id === 'sync-cancel'));
    });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Runs one user action: busy while it runs, and any failure shown with what to do. */
export async function perform(label: string, what: string, action: () => Promise<string>): Promise<void> {
  if (session.busy) return;
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

export function apply(state: SidebarState): void {
  session.current = state;
  // The stamp this state answers to: a later poll that differs from it is a change not shown yet.
  if (typeof state.stamp === 'string') session.watchedStamp = state.stamp;
  renderState(state);
  renderChecks(state);
  renderFinance(state);
  renderColumns(state);
  renderDestination(state);
}
