/**
 * Granular consent: the user withheld userinfo.email (Google's granular-permissions page lets a user
 * agree to the sign-in scopes separately, developers.google.com/apps-script/concepts/scopes), so
 * Session gives no e-mail. A connection made then is still the user's, and is named once the
 * e-mail is granted; the user is never called someone else, and is told to grant the permission
 * (not to Reconnect); the opted-in failure e-mail still reaches them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { scheduleTrigger, syncUntilCaughtUp } from './sync-support';

const USER = 'user@example.com';
const EMAIL = 'https://www.googleapis.com/auth/userinfo.email';
const EXTERNAL = 'https://www.googleapis.com/auth/script.external_request';
const HOUR = 3_600_000;
const ASKS_FOR_EMAIL = /Google has not given the add-on your permission to know/;

describe('connected while the e-mail was withheld, then granted', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ orders: 5, seed: 9 });
  }, 60_000);
  afterAll(async () => stack?.close());

  it('the connection stays the user’s after its access runs out, and learns who they are', async () => {
    stack.runtime.consent.withdraw(USER, EMAIL);
    expect((await stack.connect()).outcome).toBe('connected');
    stack.runtime.consent.grant(USER);
    await stack.advanceClocks(2 * HOUR); // the access token has expired: only the connector can renew it
    const r = await stack.runtime.run('onScheduledSync', []);
    const value = r.value as { outcome: string; message: string };
    expect(value.message).not.toMatch(/belongs to/);
    expect(value.outcome).not.toBe('error');
    const state = await stack.runtime.run('getSidebarState');
    const connection = (state.value as { connection: { state: string; connectedBy: string | null; yours: boolean } })
      .connection;
    expect(connection).toMatchObject({ state: 'connected', connectedBy: USER, yours: true });
  }, 120_000);
});

describe('connected with the e-mail, then it is withheld', () => {
  let stack: Stack;
  let uid: string;
  beforeAll(async () => {
    stack = await startStack({ orders: 8, seed: 12 });
    await stack.connect();
    await syncUntilCaughtUp(stack);
  }, 120_000);
  afterAll(async () => stack?.close());

  it('turning the schedule on asks for the permission, not to Reconnect, and does not call the connection another’s', async () => {
    stack.runtime.consent.withdraw(USER, EMAIL);
    try {
      const on = await stack.runtime.run('setSchedule', [{ mode: 'hourly' }]);
      expect(on.error?.message).toMatch(ASKS_FOR_EMAIL);
      expect(on.error?.message).not.toMatch(/belongs to|Reconnect/);
    } finally {
      stack.runtime.consent.grant(USER);
    }
  });

  it('turning failure e-mails on asks for the permission', async () => {
    stack.runtime.consent.withdraw(USER, EMAIL);
    try {
      const on = await stack.runtime.run('setFailureNotices', [true]);
      expect(on.error?.message).toMatch(ASKS_FOR_EMAIL);
    } finally {
      stack.runtime.consent.grant(USER);
    }
  });

  it('a scheduled stop for another missing permission still e-mails the opted-in user', async () => {
    uid = await scheduleTrigger(stack);
    expect((await stack.runtime.run('setFailureNotices', [true])).ok).toBe(true);
    await syncUntilCaughtUp(stack); // the owner's copy of the document state, which a documentless run reads, takes the opt-in
    stack.runtime.consent.withdraw(USER, EXTERNAL);
    stack.runtime.consent.withdraw(USER, EMAIL);
    try {
      const before = stack.runtime.mail.length;
      await stack.advanceClocks(HOUR);
      const r = await stack.runtime.fireTrigger(uid, { document: false });
      expect((r.value as { outcome: string }).outcome).toBe('error');
      expect(stack.runtime.mail.slice(before).map((m) => m.to)).toEqual([[USER]]);
    } finally {
      stack.runtime.consent.grant(USER);
    }
  }, 120_000);
});
