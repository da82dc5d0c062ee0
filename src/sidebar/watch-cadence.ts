/**
 * How long the open sidebar waits before its next look for changes made elsewhere. Every look is an
 * execution on Google (and counts toward the user's 30 simultaneous ones), so a sidebar left open all
 * day looks less often the longer nothing has happened: at once while someone works, slower after.
 */

/** While the user or a change was active within ACTIVE_FOR_MS: a run elsewhere shows within seconds. */
export const ACTIVE_LOOK_MS = 4_000;
const ACTIVE_FOR_MS = 2 * 60_000;
/** Then, up to QUIET_FOR_MS of quiet. */
export const QUIET_LOOK_MS = 15_000;
const QUIET_FOR_MS = 10 * 60_000;
/** Left open and idle: a background run still shows within half a minute. */
export const IDLE_LOOK_MS = 30_000;

/** The wait before the next look, given how long ago the last activity (a user action or a change seen) was. */
export function nextLookInMs(quietForMs: number): number {
  if (quietForMs < ACTIVE_FOR_MS) return ACTIVE_LOOK_MS;
  if (quietForMs < QUIET_FOR_MS) return QUIET_LOOK_MS;
  return IDLE_LOOK_MS;
}
