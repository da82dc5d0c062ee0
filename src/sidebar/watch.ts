/**
 * While the sidebar is open and idle: a scheduled run, a revoke or a lost connection shows without
 * Reload. Each look is one cheap call; the whole state is read only on a change. Looks slow down
 * while nothing happens (watch-cadence.ts) and come back to every few seconds at the user's first
 * action or a change seen.
 */
import type { SidebarState } from '../contract/sidebar';
import { setText } from './dom';
import { call } from './server';
import { apply, session } from './session';
import { ACTIVE_LOOK_MS, nextLookInMs } from './watch-cadence';

let watching = false;
let lastActivityAt = Date.now();
let nextLook: ReturnType<typeof setTimeout> | undefined;
let nextLookAt = 0;

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
      lastActivityAt = Date.now();
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
    // A look that failed (offline, busy server) is simply tried again at the next look.
  } finally {
    watching = false;
  }
}

function scheduleLook(inMs: number): void {
  if (nextLook !== undefined) clearTimeout(nextLook);
  nextLookAt = Date.now() + inMs;
  nextLook = setTimeout(() => {
    nextLook = undefined;
    void watchForChanges().finally(() => scheduleLook(nextLookInMs(Date.now() - lastActivityAt)));
  }, inMs);
}

/** The user did something: looks come every few seconds again, starting now if the next was further off. */
function active(): void {
  lastActivityAt = Date.now();
  if (nextLook !== undefined && nextLookAt - Date.now() > ACTIVE_LOOK_MS) scheduleLook(ACTIVE_LOOK_MS);
}

export function startWatching(): void {
  for (const event of ['pointerdown', 'keydown', 'focus'] as const) window.addEventListener(event, active, true);
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) active();
  });
  scheduleLook(ACTIVE_LOOK_MS);
}
