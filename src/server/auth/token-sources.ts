import type { TokenSource } from '../api/transport';
import { CUSTOM_FUNCTION_TOKEN_MARGIN_MS, PROACTIVE_REFRESH_BELOW_MS, TOKEN_PROPERTY_KEY } from './constants';
import { ConnectionError, customFunctionTokenExpired, notConnectedError } from './errors';
import { probeAccount } from './account-probe';
import { confirmStore, connectionStatus, recordAuthFailure } from './lifecycle';
import { connectionErrorAfterRefresh } from './refresh-failure';
import { accessTokenOf, expiresAtMs, hasRefreshToken, openSession, withDocumentLock, type AuthSession } from './session';
import type { ConnectionStatus } from './types';
import { documentProperties } from '../platform/properties';

/** Throws the state's message when the connection is not usable (nothing is requested). */
function requireConnected(): void {
  const status = connectionStatus();
  if (status.state !== 'connected') throw ConnectionError.fromStatus(status);
}

/**
 * Tokens for triggers, menu actions and the sidebar. Expired tokens are refreshed by the library
 * under the document lock, re-reading the stored token after taking it, and the rotated refresh
 * token is saved by the library on every refresh.
 */
export function triggerTokenSource(): TokenSource {
  let session: AuthSession | null = null;
  let lastGiven: string | null = null;
  const open = (): AuthSession => session ?? (session = openSession());

  return {
    accessToken(): string {
      requireConnected();
      const s = open();
      if (!s.service.hasAccess()) {
        const stored = s.service.getToken(true);
        if (!stored || !hasRefreshToken(stored)) throw notConnectedError();
        throw connectionErrorAfterRefresh(s, s.service.getLastError(), accessTokenOf(stored), false);
      }
      const token = accessTokenOf(s.service.getToken());
      if (!token) throw notConnectedError();
      lastGiven = token;
      return token;
    },

    refreshAfterInvalidToken(): string | null {
      const s = open();
      return withDocumentLock(() => {
        const stored = s.service.getToken(true);
        const current = accessTokenOf(stored);
        // Another execution refreshed while this one's request was in flight: use its token.
        if (current && current !== lastGiven) return (lastGiven = current);
        if (!stored || !hasRefreshToken(stored)) return null;
        const expiry = expiresAtMs(stored);
        const wasStillValid = expiry === null || expiry - Date.now() > 60_000;
        try {
          s.service.refresh();
        } catch (e) {
          throw connectionErrorAfterRefresh(s, e, current, wasStillValid);
        }
        const next = accessTokenOf(s.service.getToken(true));
        lastGiven = next;
        return next;
      });
    },
  };
}

/**
 * Tokens for custom functions: the stored access token read straight from document properties,
 * used only while it has CUSTOM_FUNCTION_TOKEN_MARGIN_MS to live. Never refreshes (a refresh here
 * would rotate the refresh token and then fail to save the new one): it says how to fix it instead.
 */
export function customFunctionTokenSource(): TokenSource {
  return {
    accessToken(): string {
      requireConnected();
      const raw = documentProperties().getProperty(TOKEN_PROPERTY_KEY);
      let token: object | null = null;
      try {
        token = raw ? (JSON.parse(raw) as object) : null;
      } catch {
        token = null;
      }
      const accessToken = accessTokenOf(token);
      if (!accessToken) throw notConnectedError();
      const expiry = expiresAtMs(token);
      if (expiry !== null && expiry - Date.now() < CUSTOM_FUNCTION_TOKEN_MARGIN_MS) throw customFunctionTokenExpired();
      return accessToken;
    },
    refreshAfterInvalidToken(): string | null {
      return null;
    },
  };
}

/**
 * Renews the access token early (triggers, sidebar) so custom functions find a fresh one; also
 * keeps the connection from lapsing. Returns the connection status afterwards. A temporary
 * failure leaves everything as it was.
 */
export function refreshProactively(refreshBelowMs: number = PROACTIVE_REFRESH_BELOW_MS): ConnectionStatus {
  const before = connectionStatus();
  if (before.state === 'operator_problem') return recheckOperatorProblem();
  if (before.state !== 'connected') return before;
  const s = openSession();
  // A fresh token needs no lock: the sidebar must not wait behind a scheduled sync holding it.
  if (!needsRefresh(s.service.getToken(true), refreshBelowMs)) return before;
  try {
    withDocumentLock(() => {
      const stored = s.service.getToken(true);
      if (!stored || !needsRefresh(stored, refreshBelowMs)) return;
      const expiry = expiresAtMs(stored);
      try {
        s.service.refresh();
      } catch (e) {
        throw connectionErrorAfterRefresh(s, e, accessTokenOf(stored), expiry !== null && expiry - Date.now() > 60_000);
      }
    });
  } catch (e) {
    if (!(e instanceof ConnectionError)) throw e;
  }
  return connectionStatus();
}

function needsRefresh(stored: ReturnType<AuthSession['service']['getToken']>, refreshBelowMs: number): boolean {
  if (!stored || !hasRefreshToken(stored)) return false;
  const expiry = expiresAtMs(stored);
  return expiry === null || expiry - Date.now() < refreshBelowMs;
}

/**
 * An operator problem is fixed by the operator, not by the merchant: while the state says so, each
 * sidebar opening and scheduled run asks the API once whether it has been fixed.
 */
function recheckOperatorProblem(): ConnectionStatus {
  const s = openSession();
  let token: string | null = null;
  try {
    if (s.service.hasAccess()) token = accessTokenOf(s.service.getToken());
    else {
      // The refresh was refused: the grant may have been revoked or moved while the operator was
      // fixing their side; record that (Reconnect), else the merchant is told to wait for the operator forever.
      const stored = s.service.getToken(true);
      if (stored && hasRefreshToken(stored)) connectionErrorAfterRefresh(s, s.service.getLastError(), accessTokenOf(stored), false);
    }
  } catch {
    token = null;
  }
  if (!token) return connectionStatus();
  const probe = probeAccount(s.config.apiBaseUrl, token);
  if (probe.ok) confirmStore(probe.store);
  else recordAuthFailure(probe.code);
  return connectionStatus();
}
