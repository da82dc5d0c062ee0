import type { DeploymentConfig } from '../platform/config';
import type { OAuthService } from './service';
import { oauthErrorCode } from './errors';
import { refusedForGood } from './refresh-failure';
import { noteRenewedAccessToken } from './token-home';
import { adoptKeptRenewal, saveRenewedToken, saveToken } from './kept-renewal';
import {
  markedAnswerUnread,
  markedForRenewal,
  remainingExecutionMs,
  renewalAnswerWasUnread,
  renewalDeferred,
  renewalFits,
  renewalWasInterrupted,
  withoutRenewalMark,
} from './renewal-safety';
import { expiresAtMs, hasRefreshToken, savedToken, withUserLock, type AuthSession } from './session';
import {
  grantedScopesOf,
  isBearer,
  missingScopes,
  NarrowedGrantError,
  requestToken,
  unsupportedTokenType,
  type TokenRecord,
} from './token-request';

/** The library's margin: a token counts as expired this long before it does (its EXPIRATION_BUFFER_SECONDS_). */
const EXPIRY_MARGIN_MS = 60_000;

/** Spec 5.5: redeems the callback's code (with the PKCE verifier the state token carried) and stores the token. */
export function redeemAuthorizationCode(
  service: OAuthService,
  config: DeploymentConfig,
  code: string,
  codeVerifier: string | undefined,
): TokenRecord {
  const form: Record<string, string> = {
    code,
    client_id: config.clientId,
    redirect_uri: service.getRedirectUri(),
    grant_type: 'authorization_code',
  };
  if (codeVerifier) form['code_verifier'] = codeVerifier;
  const token = requestToken(config, form);
  if (!isBearer(token)) throw unsupportedTokenType();
  saveToken(service, token);
  return token;
}

/**
 * Spec 5.7: renews the stored token under the user lock and stores the answer with its rotated
 * refresh token (the old one, when the answer names none). Throws when refused; then the
 * stored access token stays as it was. A renewed token that lacks a scope the add-on uses is
 * stored (its refresh token has rotated) but throws NarrowedGrantError, as Connect refuses it.
 * Started only with time to finish (renewal-safety); the stored token is marked as being renewed
 * until the answer is saved, or until the endpoint answered with an error (it issued nothing). An
 * answer that could not be read leaves the mark, noting so: whether the endpoint acted is unknown.
 * A renewal the user properties refused to save is kept in the cache and saved first (kept-renewal).
 */
export function refreshAccessToken(s: AuthSession): void {
  withUserLock(() => {
    adoptKeptRenewal(s);
    const stored = savedToken(s);
    if (!stored || !hasRefreshToken(stored)) throw new Error('Offline access is required.');
    if (!renewalFits()) throw renewalDeferred();
    const marked = markedForRenewal(stored);
    saveToken(s.service, marked);
    let renewed: TokenRecord;
    try {
      renewed = requestToken(s.config, {
        refresh_token: String(stored['refresh_token']),
        client_id: s.config.clientId,
        grant_type: 'refresh_token',
      });
    } catch (e) {
      saveToken(s.service, oauthErrorCode(e) !== null ? stored : markedAnswerUnread(marked));
      throw e;
    }
    if (!isBearer(renewed)) {
      // The access token is not used (RFC 6749 7.1), but the server has rotated the refresh token
      // (spec 5.7): keeping the new one lets a fixed server renew later instead of losing the connection.
      if (hasRefreshToken(renewed))
        saveRenewedToken(s, { ...withoutRenewalMark(stored), refresh_token: renewed['refresh_token'] });
      throw unsupportedTokenType();
    }
    if (!hasRefreshToken(renewed)) renewed['refresh_token'] = stored['refresh_token'];
    if (renewed['refreshTokenExpiresAt'] === undefined && stored['refreshTokenExpiresAt'] !== undefined)
      renewed['refreshTokenExpiresAt'] = stored['refreshTokenExpiresAt'];
    // RFC 6749 5.1: an answer without `scope` keeps the scope the grant had.
    if (renewed['scope'] === undefined && stored['scope'] !== undefined) renewed['scope'] = stored['scope'];
    saveRenewedToken(s, renewed);
    noteRenewedAccessToken(renewed);
    if (missingScopes(renewed).length > 0) throw new NarrowedGrantError(grantedScopesOf(renewed));
  });
}

function lastsFor(token: object, ms: number): boolean {
  const expiry = expiresAtMs(token);
  return expiry === null || expiry - Date.now() >= ms;
}

export type AccessCheck = { ok: true } | { ok: false; error: unknown };

/**
 * The library's hasAccess, renewing through refreshAccessToken: ok when the stored token is
 * usable, renewing an expired one under the user lock after reading it again (another execution
 * may have renewed it meanwhile). error is the refusal, or null when there is nothing to renew.
 * `untilEndOfExecution`: a token that would run out before Google can end this execution is
 * renewed now, at its start, not near its deadline; if that early renewal fails for a reason that
 * may pass, the token still serves while the library would use it. A stored token marked by an
 * unfinished renewal is renewed at once, whatever its expiry: a refresh token that still works
 * clears the mark, so a later refusal is not told as a lost renewal.
 */
export function ensureAccess(s: AuthSession, untilEndOfExecution = false): AccessCheck {
  const needed = untilEndOfExecution ? remainingExecutionMs() + EXPIRY_MARGIN_MS : EXPIRY_MARGIN_MS;
  const serves = (token: object | null): boolean =>
    token !== null && lastsFor(token, needed) && !(renewalWasInterrupted(token) && renewalFits());
  try {
    adoptKeptRenewal(s);
  } catch (e) {
    return { ok: false, error: e };
  }
  const token = s.service.getToken();
  if (serves(token)) return { ok: true };
  if (!token || !hasRefreshToken(token)) return { ok: false, error: null };
  return withUserLock((): AccessCheck => {
    const current = savedToken(s);
    if (serves(current)) return { ok: true };
    if (!current || !hasRefreshToken(current)) return { ok: false, error: null };
    try {
      renewVerifyingUnreadAnswer(s);
      return { ok: true };
    } catch (e) {
      if (lastsFor(current, EXPIRY_MARGIN_MS) && !refusedForGood(e)) return { ok: true };
      return { ok: false, error: e };
    }
  });
}

/** A renewal whose answer could not be read is tried once more at once (a gateway's error often passes). */
function renewVerifyingUnreadAnswer(s: AuthSession): void {
  try {
    refreshAccessToken(s);
  } catch (e) {
    if (!renewalAnswerWasUnread(savedToken(s)) || !renewalFits()) throw e;
    refreshAccessToken(s);
  }
}
