/**
 * Granular consent (developers.google.com/apps-script/concepts/scopes, "Handle granular OAuth
 * permissions") when the user has also withheld the sidebar's own scope, script.container.ui: the
 * sidebar cannot open (getUi needs it), so a scheduled run's stop must not send the user there. Its
 * Sync log note and opted-in e-mail name every missing permission, the sidebar's included, and give
 * the way that works: the menu's "Open sidebar", which asks Google for the sidebar's scope
 * (requireScopes) instead of failing; granted, the sidebar opens and lists what is still missing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { scheduleTrigger, sheetTable, syncUntilCaughtUp } from './sync-support';

const USER = 'user@example.com';
const EXTERNAL = 'https://www.googleapis.com/auth/script.external_request';
const UI = 'https://www.googleapis.com/auth/script.container.ui';
const HOUR = 3_600_000;
const MISSING = 'your permission to connect to Merchant Analytics; show its sidebar and menu';
const MENU_WAY =
  'Choose Extensions → Merchant Analytics → Open sidebar: Google first asks you to let the add-on show its sidebar and menu';

let stack: Stack;
let uid: string;

beforeAll(async () => {
  stack = await startStack({ orders: 12, seed: 29 });
  expect((await stack.connect()).outcome).toBe('connected');
  uid = await scheduleTrigger(stack);
  expect((await stack.runtime.run('setFailureNotices', [true])).ok).toBe(true);
  await syncUntilCaughtUp(stack);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('the sync’s scope and the sidebar’s scope both withdrawn', () => {
  it('the scheduled stop names both and gives the menu’s way, not the sidebar that cannot open (run, Sync log, e-mail)', async () => {
    stack.runtime.consent.withdraw(USER, EXTERNAL);
    stack.runtime.consent.withdraw(USER, UI);
    await stack.advanceClocks(HOUR);
    const r = await stack.runtime.fireTrigger(uid, { document: false });
    expect(r.ok, r.error?.message).toBe(true);
    const message = (r.value as { message: string }).message;
    expect(message).toContain(MISSING);
    expect(message).toContain(MENU_WAY);
    expect(message).not.toContain('Open the add-on’s sidebar');
    expect(r.counts.requests).toEqual([]);

    const [header, ...rows] = sheetTable(stack, 'Sync log');
    const column = (header as unknown[]).indexOf('message');
    const notes = rows
      .map((row) => String((row as unknown[])[column]))
      .filter((m) => m.includes('Google has not given'));
    expect(notes).toEqual([message]);

    const mail = stack.runtime.mail.filter((m) => m.body.includes('Google has not given the add-on every permission'));
    expect(mail.map((m) => m.to)).toEqual([[USER]]);
    expect(mail[0].body).toContain(`Missing: ${MISSING}.`);
    expect(mail[0].body).toContain(MENU_WAY);
  });

  it('that way works: the menu’s Open sidebar asks Google for the sidebar’s scope; granted, the sidebar opens and shows what is still missing', async () => {
    const shown = stack.runtime.ui.sidebars.length;
    const open = await stack.runtime.run('showSidebar');
    expect(open.ok).toBe(false);
    expect(open.error?.message).toBe('Authorization is required to perform that action.');
    expect(stack.runtime.ui.authorizationPrompts.at(-1)).toMatchObject({ user: USER, scopes: [UI] });
    expect(stack.runtime.ui.sidebars.length).toBe(shown);

    stack.runtime.consent.grant(USER, [UI]);
    const reopened = await stack.runtime.run('showSidebar');
    expect(reopened.ok, reopened.error?.message).toBe(true);
    expect(stack.runtime.ui.sidebars.length).toBe(shown + 1);
    const state = await stack.runtime.run('getSidebarState');
    expect((state.value as { googleConsent: { missing: string[] } }).googleConsent.missing).toEqual([
      'connect to Merchant Analytics',
    ]);
  });
});
