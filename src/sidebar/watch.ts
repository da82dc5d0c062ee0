/**
 * While the sidebar is open and idle: a scheduled run, a revoke or a lost connection shows within
 * seconds, without Reload. Each look is one cheap call; the whole state is read only on a change.
 */
import type { SidebarState } from '../contract/sidebar';
import { setText } from './dom';
import { call } from './server';
import { apply, session } from './session';

/** How often the open, idle sidebar asks whether anything changed elsewhere (a cheap stamp, not the whole state). */
const WATCH_INTERVAL_MS = 4000;

let watching = false;

/** The newest run as shown under Last sync: the part of the state a run elsewhere changes. */
function newestRun(state: SidebarState | null): string {
  const run = state && state.jobs[0];
  return run ? `${run.lastRunAt}/${run.outcome}` : '';
}

async function watchForChanges(): Promise<void> {
  if (session.busy || watching || document.hidden) return;
  watching = true;
  try {
    const stamp = await call('getSidebarStamp');
    // A server whose state carries no stamp: the first look is the baseline.
    if (session.watchedStamp === null) session.watchedStamp = stamp;
    else if (stamp !== session.watchedStamp && !session.busy) {
      const before = session.current;
      const state = await call('getSidebarState');
      if (!session.busy) {
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

export function startWatching(): void {
  setInterval(() => void watchForChanges(), WATCH_INTERVAL_MS);
}
