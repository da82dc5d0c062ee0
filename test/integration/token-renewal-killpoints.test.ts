/**
 * A scheduled run that renews the access token, ended (as Google's time limit ends one, wherever
 * it is) at each service call of the renewal in turn. Whatever the point, the next run either
 * works or says that a renewal was interrupted: the connection is lost only while the token
 * endpoint's answer is on its way to the saved property, and never reported as 90 days of
 * disuse. Built bundle, the real OAuth2 library, the emulator over HTTP; needs dist/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { sidebarConnection, tokenRequestStats } from '../../dev/harness/inspect';
import { oauth2Source } from '../../dev/harness/libraries';
import { connectionToken } from '../../dev/harness/tokens';
import { scheduleTrigger, syncUntilCaughtUp } from './sync-support';

const MINUTE_MS = 60_000;
const INTERRUPTED = 'was lost while its access was being renewed';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ orders: 8, seed: 31 });
  expect(oauth2Source(stack.runtime.libraryFiles)).toBe('real');
  expect((await stack.connect()).outcome).toBe('connected');
  await syncUntilCaughtUp(stack);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

const refreshes = async () => (await tokenRequestStats(stack.control)).byGrantType['refresh_token'] ?? 0;

/** A fresh connection whose access token has 3 minutes left: the next scheduled run renews it at its start (it would not last the run). */
async function connectedAndDueForRenewal(): Promise<void> {
  expect((await stack.connect()).outcome).toBe('connected');
  const expiresAt = connectionToken<{ expiresAt: number }>(stack.runtime)!.expiresAt * 1000;
  await stack.advanceClocks(expiresAt - stack.runtime.clock.now() - 3 * MINUTE_MS);
}

describe('a renewal ended at each of its service calls', () => {
  it('the next run works, or says the renewal was interrupted; only the answer in flight loses it', async () => {
    const lost: number[] = [];
    let exchangedAt: number | null = null;
    for (let k = 1; k < 400; k++) {
      await connectedAndDueForRenewal();
      const before = await refreshes();
      const killed = await stack.runtime.fireTrigger(await scheduleTrigger(stack), { killAtServiceCall: k });
      if (!killed.timedOut) break;
      const exchanged = (await refreshes()) > before;
      if (exchanged && exchangedAt === null) exchangedAt = k;
      const next = await stack.runtime.fireTrigger(await scheduleTrigger(stack));
      expect(next.ok, `kill at ${k}`).toBe(true);
      const shown = await sidebarConnection(stack.runtime);
      if (shown.state !== 'connected') {
        expect(shown.state, `kill at ${k}`).toBe('lapsed');
        expect(shown.message, `kill at ${k}`).toContain(INTERRUPTED);
        lost.push(k);
      }
      // Past the renewal (the token was renewed and saved before the kill): the later points are the sync's.
      if (exchanged && lost.length > 0 && !lost.includes(k)) break;
    }
    if (process.env.KILLPOINTS_PRINT) console.log(JSON.stringify({ exchangedAt, lost }));
    expect(exchangedAt).not.toBeNull();
    // The window: from the token endpoint's answer to the saved property, nothing else. A kill
    // between the property and the library's cache (3 points with a renewal that read the cache) is not in it.
    expect(lost[0]).toBe(exchangedAt);
    expect(lost).toEqual(lost.map((_, i) => lost[0]! + i));
    // Three points at most: the answer's status, its text, the property's write (with 3 minutes
    // left the run renews at once, so a kill at each of them is met by the next run's renewal).
    expect(lost.length).toBeLessThanOrEqual(3);
  }, 600_000);
});
