/**
 * A schedule whose spreadsheet was deleted while the user withheld script.scriptapp (granular
 * consent; ScriptApp's trigger methods need it, reference/script/script-app). The trigger cannot
 * remove itself: it keeps counting its failed opens, says in words what to grant (never Google's
 * raw refusal), e-mails the opted-in user once a day, and removes itself at the first run after
 * the permission is granted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { scheduleTrigger, syncUntilCaughtUp } from './sync-support';

const USER = 'user@example.com';
const SCRIPTAPP = 'https://www.googleapis.com/auth/script.scriptapp';
const HOUR = 3_600_000;

let stack: Stack;
let uid: string;
const exists = () => stack.runtime.triggers.some((t) => t.uid === uid);

beforeAll(async () => {
  stack = await startStack({ orders: 10, seed: 221 });
  expect((await stack.connect()).outcome).toBe('connected');
  uid = await scheduleTrigger(stack);
  expect((await stack.runtime.run('setFailureNotices', [true])).ok).toBe(true);
  await syncUntilCaughtUp(stack);
}, 120_000);
afterAll(async () => stack?.close());

describe('its spreadsheet deleted and script.scriptapp withheld', () => {
  it('the trigger keeps counting, says what to grant, e-mails once a day, and removes itself once granted', async () => {
    stack.runtime.consent.withdraw(USER, SCRIPTAPP);
    stack.runtime.deleteDocument(stack.runtime.workbook.id);
    const before = stack.runtime.mail.length;
    const days = new Set<string>();
    for (let run = 0; run < 5; run++) {
      if (run > 0) await stack.advanceClocks(HOUR);
      const r = await stack.runtime.fireTrigger(uid, { document: false });
      expect(r.error?.message).toBeUndefined();
      const message = (r.value as { message: string }).message;
      if (run >= 2) {
        days.add(new Date(stack.runtime.clock.now()).toISOString().slice(0, 10));
        expect(message).toContain('cannot remove its trigger');
        expect(message).toContain('your permission to run the automatic sync');
      }
      expect(exists()).toBe(true);
    }
    const sent = stack.runtime.mail.slice(before);
    expect(sent.map((m) => m.to)).toEqual([...days].map(() => [USER]));
    for (const m of sent) expect(m.body).toContain('cannot remove its own trigger');

    stack.runtime.consent.grant(USER);
    await stack.advanceClocks(HOUR);
    const r = await stack.runtime.fireTrigger(uid, { document: false });
    expect((r.value as { message: string }).message).toContain('it removed its trigger');
    expect(exists()).toBe(false);
    expect(stack.runtime.properties.user.get('ma.scheduleOpenFailures')).toBeNull();
  }, 120_000);
});
