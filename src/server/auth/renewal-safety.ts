/**
 * A renewal rotates the refresh token (spec 3.2, 8.4): once the token endpoint has answered, the
 * previous refresh token is revoked, and an execution ended before the new one is saved loses the
 * connection. Apps Script ends an execution at its limit wherever it is, or when the user stops it
 * (guides/services/quotas, "Script runtime"), so a renewal is started only with time to finish it,
 * and the stored token carries a mark while one is under way: a refusal that finds the mark (and
 * no sign of a store switch) followed an unfinished renewal, not 90 days of disuse. A mark left by
 * an unreadable answer says so: nothing proves the endpoint acted on that request.
 */
import { EXECUTION_LIMIT_MS, EXECUTION_STARTED_AT } from '../platform/budget';
import { ConnectionError } from './errors';
import type { TokenRecord } from './token-request';

/**
 * The time a renewal may need: the token request may take as long as UrlFetch's timeout (about
 * 60 s, unconfirmed: apps-script-facts.md), then the answer is saved. Taken whole, as the stricter reading.
 */
export const RENEWAL_RESERVE_MS = 90_000;

/** Spec 3.2 and 8.4: a connection with no use for 90 days lapses (its refresh token lives 90 days). */
export const IDLE_LAPSE_MS = 90 * 86_400_000;

/** Field of the stored token: when a renewal was started whose answer was never saved (epoch seconds). */
const RENEWAL_MARK = 'renewalStartedAt';
/**
 * Field of the stored token, beside the mark: the renewal's answer arrived but could not be read
 * (a gateway's HTML page, a failed fetch). Unlike a run ended mid-renewal, nothing says the
 * endpoint acted on it, so the mark proves no lost answer.
 */
const ANSWER_UNREAD = 'renewalAnswerUnread';

/** How long Google may still let this execution run. */
export function remainingExecutionMs(now: number = Date.now(), startedAt: number = EXECUTION_STARTED_AT): number {
  return Math.max(0, EXECUTION_LIMIT_MS - (now - startedAt));
}

/** True while this execution has the time to finish a renewal it starts now. */
export function renewalFits(now: number = Date.now(), startedAt: number = EXECUTION_STARTED_AT): boolean {
  return remainingExecutionMs(now, startedAt) >= RENEWAL_RESERVE_MS;
}

/** The access token ran out too close to the execution's limit to renew it safely: the next run renews first. */
export function renewalDeferred(): ConnectionError {
  return new ConnectionError(
    'renewal_deferred',
    "Merchant Analytics' access ran out near the end of this run, too late to renew it safely (a renewal cut off by Google's time limit would lose the connection). Nothing was lost; the next run renews it first and continues.",
    'retry_later',
  );
}

/** The stored token, marked as being renewed from now on. */
export function markedForRenewal(token: TokenRecord, now: number = Date.now()): TokenRecord {
  return { ...token, [RENEWAL_MARK]: Math.floor(now / 1000) };
}

/** The token without the mark (an earlier renewal's answer was lost, but the server had not acted on it). */
export function withoutRenewalMark(token: TokenRecord): TokenRecord {
  const copy = { ...token };
  delete copy[RENEWAL_MARK];
  delete copy[ANSWER_UNREAD];
  return copy;
}

/** The marked token, noting that the renewal's answer came back unreadable (not that the run ended). */
export function markedAnswerUnread(marked: TokenRecord): TokenRecord {
  return { ...marked, [ANSWER_UNREAD]: true };
}

/** True when the mark comes from an unreadable answer, not from a run ended mid-renewal. */
export function renewalAnswerWasUnread(token: object | null): boolean {
  return renewalWasInterrupted(token) && (token as TokenRecord)[ANSWER_UNREAD] === true;
}

/** True when the stored token carries the mark of a renewal that never saved its answer. */
export function renewalWasInterrupted(token: object | null): boolean {
  const mark = token ? (token as TokenRecord)[RENEWAL_MARK] : undefined;
  return typeof mark === 'number' && isFinite(mark);
}

/** When the stored token was issued (epoch ms), or null when it does not say. */
export function issuedAtMs(token: object | null): number | null {
  if (!token) return null;
  const t = token as TokenRecord;
  const expiresAt = Number(t['expiresAt']);
  const expiresIn = Number(t['expires_in']);
  if (!isFinite(expiresAt) || !isFinite(expiresIn) || expiresIn <= 0) return null;
  return (expiresAt - expiresIn) * 1000;
}

/**
 * Whether the connection went unused for 90 days: its stored token was issued that long ago (each
 * renewal is a use, and an access token serves one hour only). Null when the token does not say.
 */
export function unusedFor90Days(token: object | null, now: number = Date.now()): boolean | null {
  const issued = issuedAtMs(token);
  return issued === null ? null : now - issued >= IDLE_LAPSE_MS;
}
