/**
 * Granular consent on the strict runtime (developers.google.com/apps-script/concepts/scopes,
 * "Handle granular OAuth permissions"): the user withdraws the add-on's permission to connect to an
 * external service. The hourly trigger keeps firing: each run stops before any request, the Sync log
 * says why once (not a raw "You do not have permission" every hour); the sidebar names what is
 * missing with Google's link, and Sync now asks for it (requireScopes). Granted again through that
 * link, the next scheduled run syncs and the sheets equal the truth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { advanceToStoreHour, compareWithTruth, scheduleTrigger, sheetTable, syncUntilCaughtUp } from './sync-support';

const USER = 'user@example.com';
const EXTERNAL = 'https://www.googleapis.com/auth/script.external_request';
const SPREADSHEETS = 'https://www.googleapis.com/auth/spreadsheets';
const HOUR = 3_600_000;

let stack: Stack;
let uid: string;

function consentNotes(): string[] {
  const [header, ...rows] = sheetTable(stack, 'Sync log');
  const message = (header as unknown[]).indexOf('message');
  return rows.map((r) => String((r as unknown[])[message])).filter((m) => m.includes('Google has not given'));
}

beforeAll(async () => {
  stack = await startStack({ orders: 30, seed: 83 });
  expect((await stack.connect()).outcome).toBe('connected');
  uid = await scheduleTrigger(stack);
  expect((await stack.runtime.run('setFailureNotices', [true])).ok).toBe(true);
  await syncUntilCaughtUp(stack);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('a Google scope withdrawn, then granted again', () => {
  it('scheduled runs stop before any request and say why once in the Sync log and the opted-in e-mail; the trigger stays', async () => {
    // The Sync log's note is once per calendar day: both runs fall in one day wherever CI's clock starts.
    await advanceToStoreHour(stack, 8);
    stack.runtime.consent.withdraw(USER, EXTERNAL);
    for (let run = 0; run < 2; run++) {
      if (run > 0) await stack.advanceClocks(HOUR);
      const r = await stack.runtime.fireTrigger(uid, { document: false });
      expect(r.ok, r.error?.message).toBe(true);
      const value = r.value as { outcome: string; message: string };
      expect(value.outcome).toBe('error');
      expect(value.message).toContain('your permission to connect to Merchant Analytics');
      expect(value.message).toContain('Open the add-on’s sidebar');
      expect(r.counts.requests).toEqual([]);
    }
    expect(consentNotes()).toHaveLength(1);
    // The opted-in user's failure e-mail, once a day as every notice.
    const notices = stack.runtime.mail.filter((m) =>
      m.body.includes('Google has not given the add-on every permission'),
    );
    expect(notices.map((m) => m.to)).toEqual([[USER]]);
    expect(stack.runtime.triggers.some((t) => t.uid === uid)).toBe(true);
  });

  it('the sidebar names what is missing with the link to grant it; Sync now asks for it', async () => {
    const state = await stack.runtime.run('getSidebarState');
    expect(state.error).toBeUndefined();
    const consent = (state.value as { googleConsent: { missing: string[]; authorizationUrl: string } }).googleConsent;
    expect(consent.missing).toEqual(['connect to Merchant Analytics']);
    expect(consent.authorizationUrl).toMatch(/\/authorize\?consent=/);
    const sync = await stack.runtime.run('startSync');
    expect(sync.error?.message).toBe('Authorization is required to perform that action.');
    expect(stack.runtime.ui.authorizationPrompts.at(-1)).toMatchObject({ user: USER, scopes: [EXTERNAL] });
  });

  it('granted again through that link, the next scheduled run syncs and the sheets equal the truth', async () => {
    const state = await stack.runtime.run('getSidebarState');
    const url = (state.value as { googleConsent: { authorizationUrl: string } }).googleConsent.authorizationUrl;
    expect((await fetch(url)).status).toBe(200);
    expect(((await stack.runtime.run('getSidebarState')).value as { googleConsent: unknown }).googleConsent).toBeNull();
    await stack.advanceClocks(HOUR);
    const r = await stack.runtime.fireTrigger(uid, { document: false });
    expect((r.value as { outcome: string }).outcome).not.toBe('error');
    expect(r.counts.requests.length).toBeGreaterThan(0);
    await syncUntilCaughtUp(stack);
    const comparison = await compareWithTruth(stack);
    expect(comparison.mismatches).toEqual([]);
  }, 120_000);

  it('without the spreadsheets scope the trigger cannot open its spreadsheet, yet it is not taken for a deleted one: it stays', async () => {
    stack.runtime.consent.withdraw(USER, SPREADSHEETS);
    for (let run = 0; run < 3; run++) {
      await stack.advanceClocks(HOUR);
      const r = await stack.runtime.fireTrigger(uid, { document: false });
      expect(r.ok, r.error?.message).toBe(true);
      expect((r.value as { message: string }).message).toContain('write the store’s data into this spreadsheet');
    }
    // Three failed opens over two hours remove a trigger whose spreadsheet is gone; this one stays.
    expect(stack.runtime.triggers.some((t) => t.uid === uid)).toBe(true);
    stack.runtime.consent.grant(USER);
    await stack.advanceClocks(HOUR);
    const r = await stack.runtime.fireTrigger(uid, { document: false });
    expect((r.value as { outcome: string }).outcome).not.toBe('error');
  }, 120_000);
});
