/**
 * Granular consent: the opted-in user withheld the spreadsheets scope. The scheduled run cannot
 * write the Sync log, so the failure e-mail is how they learn the schedule has stopped; MailApp
 * needs script.send_mail (reference/mail/mail-app), not spreadsheets. Once a day per problem, as
 * every notice: one e-mail per day the runs cover. Without the spreadsheets scope the add-on cannot
 * read the spreadsheet's time zone (nor an hourly schedule's record name one), so its day is UTC's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { scheduleTrigger, syncUntilCaughtUp } from './sync-support';

const USER = 'user@example.com';
const SPREADSHEETS = 'https://www.googleapis.com/auth/spreadsheets';
const HOUR = 3_600_000;
let stack: Stack;
let uid: string;

function utcDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

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
    it(`a day of hourly runs ${document ? 'with' : 'without'} the document e-mails the user once per day`, async () => {
      stack.runtime.consent.withdraw(USER, SPREADSHEETS);
      try {
        const before = stack.runtime.mail.length;
        const runDays = new Set<string>();
        for (let h = 0; h < 24; h++) {
          await stack.advanceClocks(HOUR);
          runDays.add(utcDay(stack.runtime.clock.now()));
          const r = await stack.runtime.fireTrigger(uid, { document });
          expect(r.error?.message).toBeUndefined();
          expect((r.value as { message: string }).message).toContain('write the store’s data into this spreadsheet');
          if (h === 0) expect(stack.runtime.mail.length - before, 'e-mail after the first stopped run').toBe(1);
        }
        const sent = stack.runtime.mail.slice(before);
        expect(sent.map((m) => m.to)).toEqual([...runDays].map(() => [USER]));
        expect(new Set(sent.map((m) => utcDay(m.at))).size).toBe(sent.length);
        for (const m of sent) expect(m.body).toContain('Google has not given the add-on every permission');
        expect(stack.runtime.triggers.some((t) => t.uid === uid)).toBe(true);
      } finally {
        stack.runtime.consent.grant(USER);
      }
    }, 300_000);
  }
});
