/**
 * Google ends a trigger's execution when the user's daily trigger runtime is spent
 * (guides/services/quotas: "Triggers total runtime", 90 min a day for a consumer account; "Service
 * using too much computer time for one day"), and the script cannot read what is left. A renewal
 * ended between the token endpoint's answer and its save loses the connection (spec 3.2, 8.4). So
 * a scheduled run renews only a token with under 45 minutes left (formula cells, which never renew,
 * need one that lasts until the next run); when the run is stopped inside the renewal, the message
 * names the ways a run is stopped.
 * Modelled time only, so each allowance gives the same run. Needs dist/ (npm run build).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '../../dev/harness/index';
import { sidebarConnection } from '../../dev/harness/inspect';
import { scheduledRun, scheduleTrigger } from './sync-support';
import {
  connectedStack,
  DAY_MS,
  exchange,
  leaveAccessTokenFor,
  MINUTE_MS,
  refreshes,
  storedToken,
  USER,
} from './renewal-support';

const QUOTA_MESSAGE = 'Service using too much computer time for one day';

let stack: Stack;

/** The user's trigger runtime left today is `ms`, and the stored access token has `tokenLeftMs` to live. */
async function leaveTriggerRuntime(ms: number, tokenLeftMs: number): Promise<void> {
  const quotas = stack.runtime.quotas;
  if (quotas.triggerRemainingMs(USER) < ms) await stack.advanceClocks(DAY_MS + MINUTE_MS);
  // A run outside a trigger (the allowance does not count it) renews a token with less left: under
  // 45 minutes, so the token is first let run down to 10.
  if (storedToken(stack).expiresAt * 1000 - stack.runtime.clock.now() < tokenLeftMs) {
    if (storedToken(stack).expiresAt * 1000 - stack.runtime.clock.now() > 10 * MINUTE_MS)
      await leaveAccessTokenFor(stack, 10 * MINUTE_MS);
    expect((await scheduledRun(stack, 'direct')).ok).toBe(true);
  }
  await leaveAccessTokenFor(stack, tokenLeftMs);
  quotas.recordTriggerRun(USER, quotas.triggerRemainingMs(USER) - ms);
  expect(quotas.triggerRemainingMs(USER)).toBe(ms);
}

beforeAll(async () => {
  stack = await connectedStack({ orders: 30, seed: 31, modelledTimeOnly: true, emulatorClockInStep: true });
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

describe("a scheduled run's renewal and the user's daily trigger runtime", () => {
  it('a run whose access token has over 45 minutes left does not renew, however little trigger runtime is left', async () => {
    const trigger = await scheduleTrigger(stack);
    let stopped = 0;
    for (const ms of [6_000, 3_000, 1_500, 1_100, 700, 300, 100]) {
      await leaveTriggerRuntime(ms, 50 * MINUTE_MS);
      const before = storedToken(stack);
      const exchanges = await refreshes(stack);
      const run = await stack.runtime.fireTrigger(trigger, {});
      if (!run.ok) {
        expect(run.error?.message).toBe(QUOTA_MESSAGE);
        stopped++;
      }
      expect(await refreshes(stack), `a run with ${ms} ms of trigger runtime left renewed`).toBe(exchanges);
      expect(storedToken(stack).refresh_token).toBe(before.refresh_token);
    }
    // Not vacuous: the allowance did stop runs.
    expect(stopped).toBeGreaterThan(0);
    expect((await sidebarConnection(stack.runtime)).state).toBe('connected');
  }, 600_000);

  it('a run stopped inside a renewal it had to make says the run was stopped, naming the daily trigger allowance', async () => {
    const trigger = await scheduleTrigger(stack);
    let lostWith: number | null = null;
    for (let ms = 3_000; ms >= 50 && lostWith === null; ms -= 25) {
      // Two minutes: the token would not last the run, so the run renews at its start.
      await leaveTriggerRuntime(ms, 2 * MINUTE_MS);
      const before = storedToken(stack);
      const exchanges = await refreshes(stack);
      const run = await stack.runtime.fireTrigger(trigger, {});
      if (run.ok) continue;
      expect(run.error?.message).toBe(QUOTA_MESSAGE);
      if ((await refreshes(stack)) > exchanges && storedToken(stack).refresh_token === before.refresh_token) {
        // The emulator's truth: the exchange revoked the refresh token kept here.
        expect(await exchange(stack, before.refresh_token)).toBe(400);
        lostWith = ms;
      }
    }
    // The loss is inherent to rotation (the script cannot read the allowance): the scan finds it.
    expect(lostWith, 'no run was stopped between the exchange and the save').not.toBeNull();
    await stack.advanceClocks(DAY_MS + MINUTE_MS);
    await stack.runtime.fireTrigger(trigger, {});
    const shown = await sidebarConnection(stack.runtime);
    expect(shown).toMatchObject({ state: 'lapsed', action: 'reconnect' });
    expect(shown.message).toContain('the run was stopped before the add-on could save the new access');
    expect(shown.message).toContain("the day's allowance of trigger run time");
  }, 600_000);
});
