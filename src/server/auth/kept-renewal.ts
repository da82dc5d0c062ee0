/**
 * A renewed token the user properties refused to save (the day's Properties allowance spent, or
 * the 500 KB store full: guides/services/quotas) is already the only one that works: the exchange
 * revoked the stored refresh token (spec 3.2, 8.4). It is kept in the user cache, which counts
 * against no Properties quota, and the user's next execution that needs the connection saves it.
 * Google's cache is best effort: an entry lives 6 hours at most and may go sooner
 * (reference/cache/cache, put(key, value, expirationInSeconds)), so each run that still cannot save
 * it puts it back for 6 more hours. The key names the connection, never a token.
 */
import { isPropertiesDailyLimit } from '../platform/properties-quota';
import { isPropertyStoreFull } from '../platform/owner-copy-full';
import { ConnectionError } from './errors';
import { renewalWasInterrupted } from './renewal-safety';
import { savedToken, withUserLock, type AuthSession } from './session';
import type { OAuthService } from './service';
import type { TokenRecord } from './token-request';

/** Google's longest cache expiry (reference/cache/cache). */
const KEEP_SECONDS = 21_600;

/**
 * Looked up once an execution (a global scope lives one execution): none pending stays none until
 * this one keeps one. Only a stored token that carries the renewal mark can have one: the mark is
 * saved before the token request, and a kept renewal is one whose answer could not replace it.
 */
let noneKept = false;

function keyOf(s: Pick<AuthSession, 'tokenProperty'>): string {
  return `ma.keptRenewal.${s.tokenProperty}`;
}

/** Through the library's storage (the property, and its memory for this execution), where getToken reads it. */
export function saveToken(service: OAuthService, token: TokenRecord): void {
  service.getStorage().setValue(null as unknown as string, token);
}

/** Saves the renewed token; when the user properties refuse it, keeps it in the cache and says why. */
export function saveRenewedToken(s: AuthSession, renewed: TokenRecord): void {
  try {
    saveToken(s.service, renewed);
  } catch (e) {
    if (!isPropertiesDailyLimit(e) && !isPropertyStoreFull(e)) throw e;
    CacheService.getUserCache().put(keyOf(s), JSON.stringify(renewed), KEEP_SECONDS);
    noneKept = false;
    throw renewalKept(e);
  }
}

/**
 * A renewal kept in the cache is saved now (under the user lock); false while none is pending.
 * `stored`: the stored token, when the caller has just read it.
 */
export function adoptKeptRenewal(s: AuthSession, stored?: object | null): boolean {
  if (noneKept) return false;
  if (!renewalWasInterrupted(stored === undefined ? savedToken(s) : stored)) {
    noneKept = true;
    return false;
  }
  const cache = CacheService.getUserCache();
  if (cache.get(keyOf(s)) === null) {
    noneKept = true;
    return false;
  }
  return withUserLock(() => {
    const raw = cache.get(keyOf(s));
    if (raw === null) return false;
    const kept = JSON.parse(raw) as TokenRecord;
    try {
      saveToken(s.service, kept);
    } catch (e) {
      if (!isPropertiesDailyLimit(e) && !isPropertyStoreFull(e)) throw e;
      cache.put(keyOf(s), raw, KEEP_SECONDS);
      throw renewalKept(e);
    }
    cache.remove(keyOf(s));
    noneKept = true;
    return true;
  });
}

/** Connect and Disconnect: a kept renewal must not bring back (or replace) the connection. */
export function dropKeptRenewal(s: Pick<AuthSession, 'tokenProperty'>): void {
  CacheService.getUserCache().remove(keyOf(s));
  noneKept = true;
}

function renewalKept(cause: unknown): ConnectionError {
  const why = isPropertiesDailyLimit(cause)
    ? 'Google’s daily limit on saved settings for your Google account was reached (Apps Script counts every read and write of the add-on’s settings)'
    : 'your Google account’s storage for Merchant Analytics (500 KB, shared by every spreadsheet you schedule) is full';
  const when = isPropertiesDailyLimit(cause)
    ? 'as the limit frees, over the next 24 hours'
    : 'once there is room (turn off the automatic sync of spreadsheets you no longer use: each keeps a copy there)';
  return new ConnectionError(
    'renewal_kept',
    `Merchant Analytics renewed this connection's access, but it could not be saved: ${why}. The renewed access is held in Google's temporary cache for up to 6 hours at a time, and the add-on saves it ${when}. If the cache loses it first, the connection has to be reconnected.`,
    'retry_later',
  );
}
