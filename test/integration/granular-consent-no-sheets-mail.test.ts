/**
 * Granular consent: the opted-in user withheld the spreadsheets scope. The scheduled run cannot
 * write the Sync log, so the failure e-mail is how they learn the schedule has stopped; MailApp
 * needs script.send_mail (reference/mail/mail-app), not spreadsheets. Once in 24 hours per problem,
 * as every notice: a day and an hour of hourly runs send two e-mails, 24 hours apart, whatever the
 * time zone (the add-on cannot read the spreadsheet's without the spreadsheets scope).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { scheduleTrigger, syncUntilCaughtUp } from './sync-support';

const USER = 'user@example.com';
const SPREADSHEETS = 'https://www.googleapis.com/auth/spreadsheets';
const HOUR = 3_600_000;
let stack: Stack;
let uid: string;

beforeAll(async () => {
  stack = await startStack({ orders: 10, seed: 21 });
  await stack.connect();
  uid = await scheduleTrigger(stack);
  expect((await stack.runtime.run('setFailureNotices', [true])).ok).toBe(true);
  await syncUntilCaughtUp(stack);
}, 120_000);
afterAll(async () => stack?.close());

describe('spreadsheets withheld, failure e-mails opted in', () => {
  for (const document of [false, true]) {
    it(`a day of hourly runs ${document ? 'with' : 'without'} the document e-mails the user once in 24 hours`, async () => {
      stack.runtime.consent.withdraw(USER, SPREADSHEETS);
      try {
        // The previous case's last e-mail is a day old: this case starts with a problem not e-mailed for 24 hours.
        await stack.advanceClocks(24 * HOUR);
        const before = stack.runtime.mail.length;
        for (let h = 0; h <= 24; h++) {
          if (h > 0) await stack.advanceClocks(HOUR);
          const r = await stack.runtime.fireTrigger(uid, { document });
          expect(r.error?.message).toBeUndefined();
          expect((r.value as { message: string }).message).toContain('write the store’s data into this spreadsheet');
          if (h === 0) expect(stack.runtime.mail.length - before, 'e-mail after the first stopped run').toBe(1);
          if (h === 23) expect(stack.runtime.mail.length - before, 'e-mails over the first 24 runs').toBe(1);
        }
        const sent = stack.runtime.mail.slice(before);
        expect(sent.map((m) => m.to)).toEqual([[USER], [USER]]);
        // Each e-mail goes a few modelled seconds into its run: 24 hours apart, give or take those.
        expect(Math.abs(sent[1].at - sent[0].at - 24 * HOUR)).toBeLessThan(60_000);
        for (const m of sent) expect(m.body).toContain('Google has not given the add-on every permission');
        expect(stack.runtime.triggers.some((t) => t.uid === uid)).toBe(true);
      } finally {
        stack.runtime.consent.grant(USER);
      }
    }, 300_000);
  }
});
