/**
 * Granular consent (developers.google.com/apps-script/concepts/scopes, "Handle granular OAuth
 * permissions"): the user leaves script.scriptapp unticked. ScriptApp.getUserTriggers then throws
 * "You do not have permission…", so the sidebar must not read the schedule through it: the sidebar
 * opens, shows the consent card with Google's link naming the automatic sync, and changing the
 * schedule says which permission is missing instead of Google's raw error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { scheduleTrigger, syncUntilCaughtUp } from './sync-support';

const USER = 'user@example.com';
const SCRIPTAPP = 'https://www.googleapis.com/auth/script.scriptapp';

let stack: Stack;
let uid: string;

beforeAll(async () => {
  stack = await startStack({ orders: 10, seed: 91 });
  expect((await stack.connect()).outcome).toBe('connected');
  uid = await scheduleTrigger(stack);
  await syncUntilCaughtUp(stack);
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

describe('script.scriptapp withdrawn', () => {
  it('the sidebar opens with the consent card for the automatic sync; the schedule shown is the one still firing', async () => {
    stack.runtime.consent.withdraw(USER, SCRIPTAPP);
    const state = await stack.runtime.run('getSidebarState');
    expect(state.ok, state.error?.message).toBe(true);
    const value = state.value as {
      googleConsent: { missing: string[]; authorizationUrl: string | null } | null;
      schedule: { mode: string };
    };
    expect(value.googleConsent?.missing).toEqual(['run the automatic sync']);
    expect(value.googleConsent?.authorizationUrl).toMatch(/\/authorize\?/);
    // Google keeps firing the installed trigger: the sidebar does not call it off.
    expect(stack.runtime.triggers.some((t) => t.uid === uid)).toBe(true);
    expect(value.schedule.mode).toBe('hourly');
  });

  it('turning the schedule off says which permission is missing, and leaves the trigger as it was', async () => {
    stack.runtime.consent.withdraw(USER, SCRIPTAPP);
    const set = await stack.runtime.run('setSchedule', [{ mode: 'off' }]);
    expect(set.ok).toBe(false);
    expect(set.error?.message).toBe(
      'Google has not given the add-on your permission to run the automatic sync: grant it with the link at the top of the sidebar, then set the schedule again.',
    );
    expect(stack.runtime.triggers.some((t) => t.uid === uid)).toBe(true);
  });
});
