import type { TokenSource } from '../api/transport-contract';
import { CUSTOM_FUNCTION_TOKEN_MARGIN_MS, PROACTIVE_REFRESH_BELOW_MS } from './constants';
import { anotherUsersConnection, ConnectionError, customFunctionTokenExpired, notConnectedError } from './errors';
import { probeAccount } from './account-probe';
import { cannotTellConnector, unknownGoogleAccount } from './account-unknown';
import { readConnectionRecord } from './connection-record';
import { adoptPendingConnection } from './handoff';
import { confirmStore, connectionStatus, recordAuthFailure, recordedConnectionStatus } from './lifecycle';
import { connectionErrorAfterRefresh } from './refresh-failure';
import {
  accessTokenOf,
  expiresAtMs,
  hasRefreshToken,
  openSession,
  savedToken,
  withUserLock,
  type AuthSession,
} from './session';
import { ensureAccess, refreshAccessToken } from './token-grant';
import { adoptKeptRenewal } from './kept-renewal';
import { renewalWasInterrupted } from './renewal-safety';
import {
  isConnector,
  publishSharedAccessToken,
  readOwnersAccessToken,
  readSharedAccessToken,
  type SharedAccessToken,
} from './token-home';
import { nameUnnamedConnection } from './unnamed-connection';
import type { ConnectionStatus } from './types';

/** Throws the state's message when the connection is not usable (nothing is requested). */
function requireConnected(status: ConnectionStatus = connectionStatus()): void {
  if (status.state !== 'connected') throw ConnectionError.fromStatus(status);
}

/** The document's access token while it has `marginMs` to live; else the error that says what to do. */
function sharedToken(marginMs: number, expired: () => ConnectionError): string {
  const shared = readSharedAccessToken();
  if (!shared) throw notConnectedError();
  if (shared.expiresAt !== null && shared.expiresAt - Date.now() < marginMs) throw expired();
  return shared.accessToken;
}

/**
 * Tokens for triggers, menu actions and the sidebar. The connecting user's executions use their
 * own token: expired tokens are refreshed by the library under the user lock, re-reading the
 * stored token after taking it, and the rotated refresh token is saved on every refresh; with the
 * document, the new access token is copied where formulas read it. Another editor's executions
 * use that copy while it lasts (they cannot renew someone else's connection).
 * `untilEndOfExecution` (a sync): a token that would run out before Google can end the execution
 * is renewed at its first request, so that no renewal is needed near the deadline.
 */
export function triggerTokenSource(options: { untilEndOfExecution?: boolean } = {}): TokenSource {
  let session: AuthSession | null = null;
  let lastGiven: string | null = null;
  let mine: boolean | null = null;
  const open = (): AuthSession => session ?? (session = openSession());
  const connector = (): boolean => (mine ??= isConnector(nameUnnamedConnection()));

  return {
    accessToken(): string {
      adoptPendingConnection();
      requireConnected();
      if (!connector())
        return (lastGiven = sharedToken(60_000, () => {
          const record = readConnectionRecord();
          return cannotTellConnector(record)
            ? unknownGoogleAccount(record?.connectedBy ?? '')
            : anotherUsersConnection(record?.connectedBy ?? null);
        }));
      const s = open();
      const access = ensureAccess(s, options.untilEndOfExecution === true);
      if (!access.ok) {
        const stored = s.service.getToken(true);
        if (!stored || !hasRefreshToken(stored)) throw notConnectedError();
        throw connectionErrorAfterRefresh(s, access.error, accessTokenOf(stored), false);
      }
      const stored = s.service.getToken();
      const token = accessTokenOf(stored);
      if (!token) throw notConnectedError();
      publishSharedAccessToken(stored);
      lastGiven = token;
      return token;
    },

    refreshAfterInvalidToken(): string | null {
      if (!connector()) return null;
      const s = open();
      return withUserLock(() => {
        const stored = savedToken(s);
        const current = accessTokenOf(stored);
        // Another execution refreshed while this one's request was in flight: use its token.
        if (current && current !== lastGiven) return (lastGiven = current);
        if (!stored || !hasRefreshToken(stored)) return null;
        const expiry = expiresAtMs(stored);
        const wasStillValid = expiry === null || expiry - Date.now() > 60_000;
        try {
          refreshAccessToken(s);
        } catch (e) {
          throw connectionErrorAfterRefresh(s, e, current, wasStillValid);
        }
        const renewed = savedToken(s);
        publishSharedAccessToken(renewed);
        const next = accessTokenOf(renewed);
        lastGiven = next;
        return next;
      });
    },
  };
}

/**
 * Tokens for custom functions: the document's copy of the access token, used only while it has
 * CUSTOM_FUNCTION_TOKEN_MARGIN_MS to live; when it has not, the copy a run without the document
 * left in the connector's user properties (a custom function's getUserProperties is the spreadsheet
 * owner's store: read only then, one billed call). Never refreshes (a refresh here would rotate the
 * refresh token, spec 5.7, and then fail to save the new one): it says when it works again instead.
 */
export function customFunctionTokenSource(): TokenSource {
  return {
    accessToken(): string {
      requireConnected(recordedConnectionStatus());
      const shared = readSharedAccessToken();
      if (shared && lastsForFormula(shared)) return shared.accessToken;
      const owners = readOwnersAccessToken();
      if (owners && lastsForFormula(owners)) return owners.accessToken;
      const latest = [shared, owners].filter((t): t is SharedAccessToken => t !== null);
      if (latest.length === 0) throw notConnectedError();
      latest.sort((a, b) => (b.expiresAt ?? 0) - (a.expiresAt ?? 0));
      throw customFunctionTokenExpired(latest[0].nextRun);
    },
    refreshAfterInvalidToken(): string | null {
      return null;
    },
  };
}

function lastsForFormula(token: SharedAccessToken): boolean {
  return token.expiresAt === null || token.expiresAt - Date.now() >= CUSTOM_FUNCTION_TOKEN_MARGIN_MS;
}

/**
 * Renews the access token early (triggers, sidebar) so custom functions find a fresh one; also
 * keeps the connection from lapsing. Returns the connection status afterwards. A temporary
 * failure leaves everything as it was.
 */
export function refreshProactively(refreshBelowMs: number = PROACTIVE_REFRESH_BELOW_MS): ConnectionStatus {
  adoptPendingConnection();
  const before = connectionStatus();
  // Only the connecting user's executions can renew; other editors' read what they renew.
  if (!isConnector(nameUnnamedConnection())) return before;
  if (before.state === 'operator_problem') return recheckOperatorProblem();
  if (before.state !== 'connected') return before;
  const s = openSession();
  let current = savedToken(s);
  try {
    if (adoptKeptRenewal(s, current)) current = savedToken(s);
  } catch (e) {
    if (!(e instanceof ConnectionError)) throw e;
    return before;
  }
  // A fresh token needs no lock: the sidebar must not wait behind a scheduled sync holding it.
  if (!needsRefresh(current, refreshBelowMs)) {
    publishSharedAccessToken(current);
    return before;
  }
  try {
    withUserLock(() => {
      const stored = savedToken(s);
      if (!stored || !needsRefresh(stored, refreshBelowMs)) return;
      const expiry = expiresAtMs(stored);
      try {
        refreshAccessToken(s);
      } catch (e) {
        throw connectionErrorAfterRefresh(s, e, accessTokenOf(stored), expiry !== null && expiry - Date.now() > 60_000);
      }
      publishSharedAccessToken(savedToken(s));
    });
  } catch (e) {
    if (!(e instanceof ConnectionError)) throw e;
    // The refusal was recorded: the status says what it is now.
    return connectionStatus();
  }
  // Renewed, or another execution had renewed: this one wrote nothing the status is made of.
  return before;
}

function needsRefresh(stored: ReturnType<AuthSession['service']['getToken']>, refreshBelowMs: number): boolean {
  if (!stored || !hasRefreshToken(stored)) return false;
  // An unfinished renewal's mark is checked at once: a refresh token that still works clears it.
  if (renewalWasInterrupted(stored)) return true;
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
    const access = ensureAccess(s);
    if (access.ok) token = accessTokenOf(s.service.getToken());
    else {
      // The refresh was refused: the grant may have been revoked or moved while the operator was
      // fixing their side; record that (Reconnect), else the merchant is told to wait for the operator forever.
      const stored = savedToken(s);
      if (stored && hasRefreshToken(stored)) connectionErrorAfterRefresh(s, access.error, accessTokenOf(stored), false);
    }
  } catch {
    token = null;
  }
  if (!token) return connectionStatus();
  let probe = probeAccount(s.config.apiBaseUrl, token);
  if (!probe.ok && probe.code === 'invalid_token') {
    // The token is no longer accepted (the grant moved to another store, or it ended early):
    // "refresh or re-run the flow" (spec 5.8). A refused refresh records why (Reconnect).
    const renewed = renewRefusedToken(s, token);
    if (!renewed) return connectionStatus();
    probe = probeAccount(s.config.apiBaseUrl, renewed);
  }
  if (probe.ok) confirmStore(probe.store);
  else recordAuthFailure(probe.code);
  return connectionStatus();
}

/** Refreshes after the API refused `refused`; the new access token, or null (the reason recorded, or a temporary failure). */
function renewRefusedToken(s: AuthSession, refused: string): string | null {
  try {
    return withUserLock(() => {
      try {
        refreshAccessToken(s);
      } catch (e) {
        throw connectionErrorAfterRefresh(s, e, refused, false);
      }
      const token = savedToken(s);
      publishSharedAccessToken(token);
      return accessTokenOf(token);
    });
  } catch (e) {
    if (e instanceof ConnectionError) return null;
    throw e;
  }
}
