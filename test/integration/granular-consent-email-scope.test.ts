/**
 * Granular consent (developers.google.com/apps-script/concepts/scopes, "Handle granular OAuth
 * permissions"): the connecting user withholds userinfo.email. Session then gives no e-mail, so the
 * add-on cannot tell whether the connection on record is this user's. Once the document's copy of the
 * access token has run out, the scheduled run, the sidebar and Disconnect must say exactly that and
 * how to grant the permission — never that the connection belongs to someone else, nor Reconnect.
 * Granted again, the next scheduled run syncs and the sheets equal the truth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { compareWithTruth, scheduleTrigger, syncUntilCaughtUp } from './sync-support';
import { connectedByText } from '../../src/sidebar/format';
import type { SidebarState } from '../../src/contract/sidebar';

const USER = 'user@example.com';
const EMAIL = 'https://www.googleapis.com/auth/userinfo.email';
const HOUR = 3_600_000;
const CANNOT_TELL = `Merchant Analytics cannot tell whether this spreadsheet's connection (made by ${USER}) is yours: Google has not given the add-on your permission to know which Google account you use`;
const GRANT = 'Open the add-on’s sidebar (Extensions → Merchant Analytics → Open sidebar) and grant it there';
const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };

let stack: Stack;
let uid: string;

beforeAll(async () => {
  stack = await startStack({ orders: 15, seed: 47 });
  expect((await stack.connect()).outcome).toBe('connected');
  uid = await scheduleTrigger(stack);
  await syncUntilCaughtUp(stack);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

/** The e-mail permission withdrawn, and time past the document's copy of the access token. */
async function withdrawEmail(): Promise<void> {
  stack.runtime.consent.withdraw(USER, EMAIL);
  await stack.advanceClocks(2 * HOUR);
}

describe('userinfo.email withdrawn by the user who connected', () => {
  it('the scheduled run says it cannot tell whose connection it is and how to grant that; granted, it syncs to the truth', async () => {
    await withdrawEmail();
    const r = await stack.runtime.fireTrigger(uid, { document: false });
    expect(r.ok, r.error?.message).toBe(true);
    const message = (r.value as { message: string }).message;
    expect(message).toContain(CANNOT_TELL);
    expect(message).toContain(GRANT);
    expect(message).not.toMatch(/belongs to|Ask them|Reconnect/);

    stack.runtime.consent.grant(USER, [EMAIL]);
    await stack.control('orders', { count: 2 });
    await stack.advanceClocks(HOUR);
    const next = await stack.runtime.fireTrigger(uid, { document: false });
    expect((next.value as { outcome: string }).outcome).not.toBe('error');
    await syncUntilCaughtUp(stack);
    expect(await compareWithTruth(stack)).toEqual(EXACT);
  }, 120_000);

  it('the sidebar names the missing permission and does not call the connection another person’s; Disconnect says the same', async () => {
    await withdrawEmail();
    await stack.runtime.run('startSync');
    const state = await stack.runtime.run('getSidebarState');
    expect(state.ok, state.error?.message).toBe(true);
    const view = state.value as SidebarState;
    expect(view.googleConsent?.missing).toEqual(['know which Google account you use']);
    expect(view.problem).toMatchObject({ code: 'google_account_unknown', action: 'refresh' });
    expect(view.problem?.userMessage).toContain(CANNOT_TELL);
    expect(view.problem?.userMessage).not.toMatch(/belongs to|Reconnect/);
    expect(view.connection.yours).toBeUndefined();
    expect(connectedByText(view.connection)).not.toMatch(/only they|Reconnect/);

    const disconnect = await stack.runtime.run('disconnectStore');
    const said = disconnect.error?.message ?? JSON.stringify((disconnect.value as SidebarState | undefined)?.problem);
    expect(said).toContain(CANNOT_TELL);
    expect(said).not.toContain('only they can disconnect it');
  }, 120_000);
});
