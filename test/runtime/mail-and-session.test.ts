/**
 * MailApp and Session's e-mail, as Google allows them: MailApp needs the send_mail scope, is not
 * available to custom functions, counts 100 recipients a day per user; Session's user e-mail needs
 * userinfo.email (reference/base/session, "Authorization"). Host classes, no worker needed.
 */
import { describe, expect, it } from 'vitest';
import { RuntimeClock } from '../../dev/gas-runtime/clock';
import { MAIL_QUOTA_MESSAGE, MailApp, Outbox, SEND_MAIL_SCOPE } from '../../dev/gas-runtime/services/mail';
import { Session, USERINFO_EMAIL_SCOPE } from '../../dev/gas-runtime/services/session';
import { emptyCounts, type AuthMode, type ExecutionServiceContext } from '../../dev/gas-runtime/types';

const ctx = (authMode: AuthMode): ExecutionServiceContext => ({
  authMode,
  timeZone: 'UTC',
  executionId: 'e1',
  counts: emptyCounts(),
});
const USER = 'owner@example.com';

function mail(
  scopes: string[] | null,
  authMode: AuthMode = 'FULL',
  clock = new RuntimeClock(Date.UTC(2026, 10, 1), false),
) {
  const outbox = new Outbox(clock);
  return { outbox, clock, app: new MailApp(outbox, ctx(authMode), USER, scopes, clock) };
}

describe('MailApp', () => {
  it('records a message from the executing user, in both call shapes', () => {
    const { outbox, app } = mail([SEND_MAIL_SCOPE]);
    app.sendEmail(USER, 'Subject', 'Body');
    app.sendEmail({ to: 'a@example.com, b@example.com', subject: 'Two', body: 'x' });
    expect(outbox.sent.map((m) => [m.from, m.to, m.subject])).toEqual([
      [USER, [USER], 'Subject'],
      [USER, ['a@example.com', 'b@example.com'], 'Two'],
    ]);
    expect(app.getRemainingDailyQuota()).toBe(97);
  });

  it('needs the send_mail scope when the manifest lists scopes', () => {
    const { app, outbox } = mail(['https://www.googleapis.com/auth/spreadsheets']);
    expect(() => app.sendEmail(USER, 's', 'b')).toThrow(
      `You do not have permission to call MailApp.sendEmail. Required permissions: ${SEND_MAIL_SCOPE}`,
    );
    expect(outbox.sent).toHaveLength(0);
  });

  it('is refused in a custom function, and refuses an address that is not one', () => {
    expect(() => mail([SEND_MAIL_SCOPE], 'CUSTOM_FUNCTION').app.sendEmail(USER, 's', 'b')).toThrow(
      'You do not have permission to call MailApp.sendEmail',
    );
    expect(() => mail([SEND_MAIL_SCOPE]).app.sendEmail('not an address', 's', 'b')).toThrow(
      'Invalid email: not an address',
    );
  });

  it('stops at 100 recipients a day per user, and counts again a day later', () => {
    const { app, clock } = mail([SEND_MAIL_SCOPE]);
    for (let i = 0; i < 100; i++) app.sendEmail(USER, `n${i}`, '');
    expect(() => app.sendEmail(USER, 'one more', '')).toThrow(MAIL_QUOTA_MESSAGE);
    expect(app.getRemainingDailyQuota()).toBe(0);
    clock.advance(86_400_001);
    expect(app.getRemainingDailyQuota()).toBe(100);
  });
});

describe("Session's user e-mail", () => {
  it('needs userinfo.email when the manifest lists scopes', () => {
    const without = new Session(ctx('FULL'), USER, 'UTC', ['https://www.googleapis.com/auth/spreadsheets']);
    expect(() => without.getEffectiveUser()).toThrow(`Required permissions: ${USERINFO_EMAIL_SCOPE}`);
    const granted = new Session(ctx('FULL'), USER, 'UTC', [USERINFO_EMAIL_SCOPE]);
    expect(granted.getEffectiveUser().getEmail()).toBe(USER);
    expect(new Session(ctx('CUSTOM_FUNCTION'), USER, 'UTC', [USERINFO_EMAIL_SCOPE]).getEffectiveUser().getEmail()).toBe(
      '',
    );
  });
});
