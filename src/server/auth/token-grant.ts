import type { DeploymentConfig } from '../platform/config';
import type { OAuthService } from './service';
import { expiresAtMs, hasRefreshToken, withUserLock, type AuthSession } from './session';
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

/** Through the library's storage (its property under `oauth2.<service>` and its caches), where getToken reads it. */
function saveToken(service: OAuthService, token: TokenRecord): void {
  service.getStorage().setValue(null as unknown as string, token);
}

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
 */
export function refreshAccessToken(s: AuthSession): void {
  withUserLock(() => {
    const stored = s.service.getToken(true) as TokenRecord | null;
    if (!stored || !hasRefreshToken(stored)) throw new Error('Offline access is required.');
    const renewed = requestToken(s.config, {
      refresh_token: String(stored['refresh_token']),
      client_id: s.config.clientId,
      grant_type: 'refresh_token',
    });
    if (!isBearer(renewed)) {
      // The access token is not used (RFC 6749 7.1), but the server has rotated the refresh token
      // (spec 5.7): keeping the new one lets a fixed server renew later instead of losing the connection.
      if (hasRefreshToken(renewed)) saveToken(s.service, { ...stored, refresh_token: renewed['refresh_token'] });
      throw unsupportedTokenType();
    }
    if (!hasRefreshToken(renewed)) renewed['refresh_token'] = stored['refresh_token'];
    if (renewed['refreshTokenExpiresAt'] === undefined && stored['refreshTokenExpiresAt'] !== undefined)
      renewed['refreshTokenExpiresAt'] = stored['refreshTokenExpiresAt'];
    // RFC 6749 5.1: an answer without `scope` keeps the scope the grant had.
    if (renewed['scope'] === undefined && stored['scope'] !== undefined) renewed['scope'] = stored['scope'];
    saveToken(s.service, renewed);
    if (missingScopes(renewed).length > 0) throw new NarrowedGrantError(grantedScopesOf(renewed));
  });
}

function isFresh(token: object): boolean {
  const expiry = expiresAtMs(token);
  return expiry === null || expiry - Date.now() >= EXPIRY_MARGIN_MS;
}

export type AccessCheck = { ok: true } | { ok: false; error: unknown };

/**
 * The library's hasAccess, renewing through refreshAccessToken: ok when the stored token is
 * usable, renewing an expired one under the user lock after reading it again (another execution
 * may have renewed it meanwhile). error is the refusal, or null when there is nothing to renew.
 */
export function ensureAccess(s: AuthSession): AccessCheck {
  const token = s.service.getToken();
  if (token && isFresh(token)) return { ok: true };
  if (!token || !hasRefreshToken(token)) return { ok: false, error: null };
  return withUserLock((): AccessCheck => {
    const current = s.service.getToken(true);
    if (current && isFresh(current)) return { ok: true };
    if (!current || !hasRefreshToken(current)) return { ok: false, error: null };
    try {
      refreshAccessToken(s);
      return { ok: true };
    } catch (e) {
      return { ok: false, error: e };
    }
  });
}
