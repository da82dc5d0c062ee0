import type { DeploymentConfig } from '../platform/config';
import { REQUESTED_SCOPES } from './constants';
import { authorizationEndpoints } from './discovery';
import { basicAuthorization } from './service';

/**
 * Requests to the token endpoint (spec 5.5 code exchange, 5.7 refresh) are made here, not by the
 * OAuth2 library: its fetch passes no followRedirects, so UrlFetchApp follows a 3xx (Google's
 * default) and the Basic credentials, the code and PKCE verifier, or the refresh token would go
 * to wherever it points; the library has no setting for it. Each answer is checked before it is
 * stored: a failure throws an Error whose message has the library's shape
 * ("Error retrieving token: <code>…", read by errors.oauthErrorCode) and never holds a token.
 */

/** The token endpoint answered with a redirect: not followed; whoever set up the add-on must fix the address. */
export const TOKEN_ENDPOINT_REDIRECTED = 'token_endpoint_redirected';
/** RFC 6749 7.1: a token_type the client does not understand must not be used; this add-on sends Bearer only (spec 5.5/5.6). */
export const UNSUPPORTED_TOKEN_TYPE = 'unsupported_token_type';

/** The library's stored form: the raw token response plus expiresAt (epoch seconds). */
export type TokenRecord = Record<string, unknown>;

function tokenError(reason: string): Error {
  return new Error(`Error retrieving token: ${reason}`);
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** What the library's ensureExpiresAtSet_ adds, so its getToken/hasAccess read the token as before. */
function withExpiry(token: TokenRecord): TokenRecord {
  const granted = nowSeconds();
  const expiresIn = Number(token['expires_in']);
  if (isFinite(expiresIn) && expiresIn > 0) token['expiresAt'] = granted + expiresIn;
  const refreshExpiresIn = Number(token['refresh_token_expires_in']);
  if (isFinite(refreshExpiresIn) && refreshExpiresIn > 0) token['refreshTokenExpiresAt'] = granted + refreshExpiresIn;
  return token;
}

function errorReason(status: number, body: unknown): string {
  const fields = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const parts = [fields['error'], fields['error_description']].filter(
    (part): part is string => typeof part === 'string' && part !== '',
  );
  return parts.length > 0 ? parts.join(', ') : String(status);
}

/** POST to the token endpoint with HTTP Basic client authentication; the checked token, or throws. */
export function requestToken(config: DeploymentConfig, form: Record<string, string>): TokenRecord {
  const response = UrlFetchApp.fetch(authorizationEndpoints(config.apiBaseUrl).tokenEndpoint, {
    method: 'post',
    headers: { Accept: 'application/json', Authorization: basicAuthorization(config.clientId, config.clientSecret) },
    payload: form,
    muteHttpExceptions: true,
    followRedirects: false,
  });
  const status = response.getResponseCode();
  if (status >= 300 && status < 400) throw tokenError(TOKEN_ENDPOINT_REDIRECTED);
  let body: unknown;
  try {
    body = JSON.parse(response.getContentText());
  } catch {
    // Not the parser's message: it quotes the text, which may hold a token cut short.
    throw new Error('Token response not valid JSON.');
  }
  if (status < 200 || status >= 300 || body === null || typeof body !== 'object' || 'error' in body)
    throw tokenError(errorReason(status, body));
  const token = body as TokenRecord;
  if (typeof token['access_token'] !== 'string' || token['access_token'] === '')
    throw new Error('Token response has no access token.');
  return withExpiry(token);
}

/** RFC 6749 5.1: token_type is case insensitive; only Bearer is sent (spec 5.6). */
export function isBearer(token: TokenRecord): boolean {
  const type = token['token_type'];
  return typeof type === 'string' && type.toLowerCase() === 'bearer';
}

export function unsupportedTokenType(): Error {
  return tokenError(UNSUPPORTED_TOKEN_TYPE);
}

/** A refresh granted fewer scopes than the add-on uses (RFC 6749 3.3): `granted` is what it has now. */
export class NarrowedGrantError extends Error {
  constructor(readonly granted: string[]) {
    super('Error retrieving token: insufficient_scope');
    this.name = 'NarrowedGrantError';
  }
}

/** RFC 6749 3.3/5.1: the scopes granted; an answer without `scope` granted what was asked. */
export function grantedScopesOf(token: TokenRecord): string[] {
  const scope = token['scope'];
  if (scope === undefined || scope === null) return [...REQUESTED_SCOPES];
  return typeof scope === 'string' ? scope.split(' ').filter((s) => s !== '') : [];
}

/** The scopes this add-on asked for (spec 5.1: each one is used) that the grant lacks. */
export function missingScopes(token: TokenRecord): string[] {
  const granted = grantedScopesOf(token);
  return REQUESTED_SCOPES.filter((scope) => !granted.includes(scope));
}
