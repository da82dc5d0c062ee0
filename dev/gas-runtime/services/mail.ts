/**
 * MailApp (developers.google.com/apps-script/reference/mail/mail-app): sendEmail in its two
 * shapes and getRemainingDailyQuota. Nothing leaves the machine: each message is recorded in the
 * runtime's outbox (`runtime.mail`) for tests and tools to read.
 * Google's rules kept, strict where unknown:
 * - the manifest must list https://www.googleapis.com/auth/script.send_mail (or the full Gmail
 *   scope), else "You do not have permission to call MailApp.sendEmail. Required permissions: …";
 * - not from a custom function (the custom-function services list has no MailApp);
 * - 100 recipients a day per user (1,500 for Workspace), counted per recipient, on the runtime
 *   clock: past it "Service invoked too many times for one day: email." (guides/services/quotas);
 * - a recipient that is not an e-mail address: "Invalid email: …".
 */
import type { RuntimeClock } from '../clock.js';
import type { AccountKind } from '../quotas.js';
import { refuseInCustomFunction, type ExecutionServiceContext } from '../types.js';

export const SEND_MAIL_SCOPE = 'https://www.googleapis.com/auth/script.send_mail';
const GMAIL_SCOPE = 'https://mail.google.com/';
const RECIPIENTS_PER_DAY: Record<AccountKind, number> = { consumer: 100, workspace: 1_500 };
const DAY_MS = 86_400_000;
export const MAIL_QUOTA_MESSAGE = 'Service invoked too many times for one day: email.';

export interface SentMail {
  at: number;
  /** The account it was sent from: the user the execution ran as. */
  from: string;
  to: string[];
  subject: string;
  body: string;
  htmlBody: string | null;
}

/** Sent messages and per-user recipient counts, shared by every execution. */
export class Outbox {
  readonly sent: SentMail[] = [];

  constructor(
    private readonly clock: RuntimeClock,
    private readonly account: AccountKind = 'consumer',
  ) {}

  recipientsToday(user: string): number {
    const since = this.clock.now() - DAY_MS;
    return this.sent.filter((m) => m.from === user && m.at > since).reduce((n, m) => n + m.to.length, 0);
  }

  remaining(user: string): number {
    return Math.max(0, RECIPIENTS_PER_DAY[this.account] - this.recipientsToday(user));
  }
}

interface MessageInput {
  to?: unknown;
  subject?: unknown;
  body?: unknown;
  htmlBody?: unknown;
}

const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;

export class MailApp {
  constructor(
    private readonly outbox: Outbox,
    private readonly ctx: ExecutionServiceContext,
    private readonly user: string,
    private readonly scopes: readonly string[] | null,
    private readonly clock: RuntimeClock,
  ) {}

  sendEmail(recipientOrMessage: unknown, subject?: unknown, body?: unknown, options?: unknown): void {
    refuseInCustomFunction(this.ctx, 'MailApp.sendEmail');
    if (this.scopes !== null && !this.scopes.includes(SEND_MAIL_SCOPE) && !this.scopes.includes(GMAIL_SCOPE)) {
      throw new Error(`You do not have permission to call MailApp.sendEmail. Required permissions: ${SEND_MAIL_SCOPE}`);
    }
    const message: MessageInput =
      typeof recipientOrMessage === 'object' && recipientOrMessage !== null
        ? (recipientOrMessage as MessageInput)
        : {
            to: recipientOrMessage,
            subject,
            body,
            htmlBody: (options as { htmlBody?: unknown } | undefined)?.htmlBody,
          };
    const to = String(message.to ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    if (to.length === 0) throw new Error('Failed to send email: no recipient');
    for (const address of to) if (!EMAIL.test(address)) throw new Error(`Invalid email: ${address}`);
    if (typeof message.subject !== 'string')
      throw new Error("The parameters (String,null,String) don't match the method signature for MailApp.sendEmail.");
    if (this.outbox.remaining(this.user) < to.length) throw new Error(MAIL_QUOTA_MESSAGE);
    this.outbox.sent.push({
      at: this.clock.now(),
      from: this.user,
      to,
      subject: message.subject,
      body: String(message.body ?? ''),
      htmlBody: typeof message.htmlBody === 'string' ? message.htmlBody : null,
    });
  }

  getRemainingDailyQuota(): number {
    return this.outbox.remaining(this.user);
  }
}
