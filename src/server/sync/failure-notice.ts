/**
 * Failure notices: a scheduled run that fails in a way only a person can fix (the connection was
 * revoked or moved, a managed heading was edited, the sheet is full, the day's trigger time is
 * spent…) sends an e-mail to the user who opted in — at most once a day per problem. Google sends
 * no e-mail for add-on trigger failures (apps-script-facts.md), so without this a schedule can
 * stop for weeks unseen.
 *
 * The notice goes from the account the trigger runs as to that same account: the opt-in records
 * who asked, and a run under another account (another editor's trigger) sends nothing. Its words
 * are fixed per kind of failure (the failure notice text): nothing an editor or the API wrote, never
 * a token.
 */
import { noticeOwnerText } from '../../contract/notice-owner-text';
import { grantStep, missingGoogleScopes, SIDEBAR_SCOPES, USERINFO_EMAIL_SCOPE } from '../auth/google-consent';
import { boundSpreadsheet, currentSpreadsheet, hasActiveDocument } from '../platform/context';
import { documentProperties } from '../platform/properties';
import { clipText } from '../platform/property-size';
import type { SheetPlace } from '../sheets/sheet-tags';
import { NOTICE_SUBJECT, noticeBody } from './failure-notice-text';
import { scheduleOwnership } from './schedule';
import { spreadsheetOfTrigger } from './schedule-registry';

const OPT_IN_KEY = 'ma.failure-notice';
const SENT_KEY = 'ma.failure-notice.sent';
const DAY_MS = 86_400_000;

/** The failure codes that need a person; a connection loss always does. */
const NEEDS_A_PERSON = [
  'sheet_owner',
  'sheet_layout',
  'cell_limit',
  'backfill_too_large',
  'not_configured',
  'api_redirected',
  'trigger_allowance',
  'google_consent',
  'trigger_orphaned',
];

export interface FailureNoticeSetting {
  on: boolean;
  /** Who receives the notices (the account that opted in); null when off. */
  email: string | null;
  /** false when another account opted in: only they change it (absent when off or the current user's). */
  yours?: boolean;
}

/** Another editor tried to change the opt-in of the account that receives the e-mails. */
export class FailureNoticeError extends Error {
  constructor(readonly userMessage: string) {
    super(userMessage);
    this.name = 'FailureNoticeError';
  }
}

export interface NoticeInput {
  code: string;
  connectionLost: boolean;
  /** Which sheet and column, for a sheet's problem (the run's message is not taken: it quotes editors' text). */
  place?: SheetPlace;
  /** When the run ended (epoch ms): the same problem is e-mailed again no sooner than a day later. */
  at: number;
  /** The Google scopes the user has not granted, for a google_consent stop. */
  missingScopes?: string[];
}

function currentUserEmail(): string {
  try {
    return Session.getEffectiveUser().getEmail();
  } catch {
    return '';
  }
}

export function failureNoticeSetting(): FailureNoticeSetting {
  const raw = documentProperties().getProperty(OPT_IN_KEY);
  if (!raw) return { on: false, email: null };
  try {
    const parsed = JSON.parse(raw) as { email?: unknown };
    return typeof parsed.email === 'string' && parsed.email !== ''
      ? { on: true, email: parsed.email }
      : { on: false, email: null };
  } catch {
    return { on: false, email: null };
  }
}

/** The setting as the current user sees it: whether it is another account's to change. */
export function failureNoticeView(): FailureNoticeSetting {
  const setting = failureNoticeSetting();
  return setting.email !== null && !isMe(setting.email) ? { ...setting, yours: false } : setting;
}

function isMe(email: string): boolean {
  return email.toLowerCase() === currentUserEmail().toLowerCase();
}

/**
 * Without an e-mail from Google (userinfo.email withheld, granular consent): this user set the
 * schedule, as `email`, when their own trigger registry (user properties) holds its trigger, and a
 * trigger runs as the user who made it, so the e-mail still goes from that account to itself.
 */
function isScheduleOwner(email: string): boolean {
  if (currentUserEmail() !== '') return false;
  const { owner, triggerUid } = scheduleOwnership();
  return (
    owner !== null &&
    owner.toLowerCase() === email.toLowerCase() &&
    triggerUid !== null &&
    spreadsheetOfTrigger(triggerUid) !== null
  );
}

/** Google gives no e-mail: the switch cannot tell whose it is, and the fix is to grant that permission. */
function refuseUnknownAccount(): void {
  if (currentUserEmail() !== '') return;
  throw new FailureNoticeError(
    'Failure e-mails need to know which Google account you use, and Google has not given the add-on your permission to know it. ' +
      `${grantStep([USERINFO_EMAIL_SCOPE, ...missingGoogleScopes(SIDEBAR_SCOPES)])}; then try again.`,
  );
}

/**
 * The sidebar's switch: on records the current user as the recipient; off removes it. One opt-in
 * per document, changed only by the account that made it (as the schedule): the
 * e-mail goes from the trigger's account to itself, so another editor replacing it (off, or
 * themselves as recipient) would silence the e-mails of the person who asked for them.
 */
export function setFailureNotices(on: boolean): FailureNoticeSetting {
  refuseUnknownAccount();
  const current = failureNoticeSetting();
  if (current.email !== null && !isMe(current.email)) {
    throw new FailureNoticeError(noticeOwnerText(current.email));
  }
  if (!on) {
    documentProperties().deleteProperty(OPT_IN_KEY);
    return { on: false, email: null };
  }
  const email = currentUserEmail();
  documentProperties().setProperty(OPT_IN_KEY, JSON.stringify({ email: clipText(email, 320) }));
  return { on: true, email };
}

export function needsAPerson(input: Pick<NoticeInput, 'code' | 'connectionLost'>): boolean {
  return input.connectionLost || NEEDS_A_PERSON.indexOf(input.code) >= 0;
}

/**
 * Sends the notice when it is wanted, due and possible; returns whether it was sent. Never throws:
 * a notice that cannot go (quota, no permission) is logged, and the run's own result stands.
 */
export function sendFailureNotice(input: NoticeInput): boolean {
  try {
    if (!needsAPerson(input)) return false;
    const setting = failureNoticeSetting();
    if (!setting.on || setting.email === null) return false;
    // Only the account that opted in sends, to itself.
    if (!isMe(setting.email) && !isScheduleOwner(setting.email)) return false;
    const props = documentProperties();
    const sent = readSent(props.getProperty(SENT_KEY));
    // A rolling day, not a calendar one: runs at 23:30 and 00:30 would otherwise send two e-mails an hour apart.
    const last = sent[input.code];
    if (last !== undefined && input.at - last < DAY_MS) return false;
    if (MailApp.getRemainingDailyQuota() < 1) return false;
    MailApp.sendEmail(
      setting.email,
      NOTICE_SUBJECT,
      noticeBody({
        code: input.code,
        connectionLost: input.connectionLost,
        place: input.place,
        missingScopes: input.missingScopes,
        spreadsheetUrl: spreadsheetUrl(),
      }),
    );
    sent[input.code] = input.at;
    props.setProperty(SENT_KEY, JSON.stringify(sent));
    return true;
  } catch (e) {
    console.log(`Failure notice not sent: ${e instanceof Error ? e.message.slice(0, 200) : 'unknown error'}`);
    return false;
  }
}

/**
 * The link to the spreadsheet (its URL is Google's; its name is any editor's), or null when this run
 * cannot reach it: a run without the spreadsheets scope still sends the notice, unlinked.
 */
function spreadsheetUrl(): string | null {
  try {
    // A scheduled run without its document opened its spreadsheet by id: link it too.
    return hasActiveDocument() || boundSpreadsheet() ? currentSpreadsheet('the failure notice').getUrl() : null;
  } catch {
    return null;
  }
}

/** When each problem was last e-mailed (epoch ms); an earlier version's day (YYYY-MM-DD) reads as that day's UTC midnight. */
function readSent(raw: string | null): Record<string, number> {
  if (!raw) return {};
  try {
    const parsed = JSON.parse(raw) as Record<string, unknown>;
    const out: Record<string, number> = {};
    // Bounded: one entry per problem code (a few dozen bytes each).
    for (const [code, when] of Object.entries(parsed)) {
      if (code.length > 40) continue;
      const at = typeof when === 'number' ? when : typeof when === 'string' ? Date.parse(when) : NaN;
      if (Number.isFinite(at)) out[code] = at;
    }
    return out;
  } catch {
    return {};
  }
}
