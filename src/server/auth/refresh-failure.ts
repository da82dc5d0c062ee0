import { probeAccount } from './account-probe';
import { oauthErrorCode, refreshFailedTemporarily, ConnectionError } from './errors';
import { markConnectionBroken, markOperatorProblem, markScopesNarrowed } from './lifecycle';
import { renewalAnswerWasUnread, renewalWasInterrupted, unusedFor90Days } from './renewal-safety';
import { isPropertiesDailyLimit, PROPERTIES_DAILY_LIMIT_MESSAGE } from '../platform/properties-quota';
import { isPropertyStoreFull } from '../platform/owner-copy-full';
import type { ConnectionStatus } from './types';
import { savedToken, type AuthSession } from './session';
import { NarrowedGrantError, TOKEN_ENDPOINT_REDIRECTED, UNSUPPORTED_TOKEN_TYPE } from './token-request';

const STORE_FULL =
  'Merchant Analytics’ access could not be renewed: your Google account’s storage for Merchant Analytics (500 KB, shared by every spreadsheet you schedule) is full, so the renewal was not started and nothing was spent. Turn off the automatic sync of spreadsheets you no longer use (each keeps a copy there); the next run renews once there is room.';

const REFUSED_FOR_GOOD: readonly string[] = [
  'invalid_grant',
  'invalid_client',
  'unauthorized_client',
  TOKEN_ENDPOINT_REDIRECTED,
  UNSUPPORTED_TOKEN_TYPE,
];

/** A refusal the next try would meet again (the grant, the client or the endpoint's answer); anything else may pass. */
export function refusedForGood(error: unknown): boolean {
  if (error instanceof NarrowedGrantError) return true;
  const code = oauthErrorCode(error);
  return code !== null && REFUSED_FOR_GOOD.includes(code);
}

/**
 * The token endpoint refused a refresh. invalid_grant is all the endpoint says (revoked, moved to
 * another store, lapsed, rotated away), so the old access token is shown to the API once to learn
 * which, and the stored token tells an interrupted renewal and 90 days of disuse apart from the
 * rest; the state is recorded and a ConnectionError with the user's message is returned.
 * Anything else that is not the client's fault is temporary: nothing is recorded.
 */
export function connectionErrorAfterRefresh(
  session: AuthSession,
  error: unknown,
  oldAccessToken: string | null,
  accessTokenWasStillValid: boolean,
): ConnectionError {
  // Already the user's words (a renewal put off to the next run).
  if (error instanceof ConnectionError) return error;
  // Before the exchange (the mark's write, the stored token's read): nothing was spent.
  if (isPropertiesDailyLimit(error))
    return new ConnectionError('token_refresh_failed', PROPERTIES_DAILY_LIMIT_MESSAGE, 'retry_later');
  if (isPropertyStoreFull(error)) return new ConnectionError('token_refresh_failed', STORE_FULL, 'retry_later');
  if (!refusedForGood(error)) return refreshFailedTemporarily();
  // Fewer permissions than the add-on uses: never "Connected", as at Connect (the callback); a reconnect that grants them fixes it.
  if (error instanceof NarrowedGrantError) return ConnectionError.fromStatus(markScopesNarrowed(error.granted));
  const code = oauthErrorCode(error);
  if (code === 'invalid_client' || code === 'unauthorized_client') {
    return ConnectionError.fromStatus(markOperatorProblem('client_not_authorized'));
  }
  // The token endpoint's answer could not be used: a set-up problem, not the merchant's.
  if (code === TOKEN_ENDPOINT_REDIRECTED || code === UNSUPPORTED_TOKEN_TYPE)
    return ConnectionError.fromStatus(markOperatorProblem(code));
  const probe = oldAccessToken ? probeAccount(session.config.apiBaseUrl, oldAccessToken) : null;
  const probeCode = probe && !probe.ok ? probe.code : null;
  let status: ConnectionStatus;
  if (probeCode === 'grant_revoked') status = markConnectionBroken('revoked');
  else if (probeCode === 'invalid_token_claims') status = markConnectionBroken('invalid_claims');
  else if (probeCode === 'client_not_authorized') status = markOperatorProblem('client_not_authorized');
  else status = refusedRefreshStatus(savedToken(session), probe?.ok === true, accessTokenWasStillValid);
  return ConnectionError.fromStatus(status);
}

/** The refresh token was refused and the grant was not revoked: why, as far as the add-on can know. */
function refusedRefreshStatus(stored: object | null, oldTokenReads: boolean, wasStillValid: boolean): ConnectionStatus {
  const idle = unusedFor90Days(stored);
  // No renewal for 90 days: the refresh token lapsed, whatever else happened (spec 3.2, 8.4).
  if (idle === true) return markConnectionBroken('lapsed', 'unused_90_days');
  // Positive evidence first: an access token that should still work was refused with the refresh token: the grant moved.
  if (!oldTokenReads && wasStillValid) return markConnectionBroken('store_changed', 'moved_to_other_store');
  // A renewal whose answer could not be read: the endpoint may have rotated the token, or access ended elsewhere.
  if (renewalAnswerWasUnread(stored)) return markConnectionBroken('lapsed', 'renewal_unanswered');
  // A run ended during a renewal: the exchange revoked the refresh token kept here (spec 3.2).
  if (renewalWasInterrupted(stored)) return markConnectionBroken('lapsed', 'renewal_interrupted');
  // Used within 90 days: its access was ended or replaced on Merchant Analytics' side.
  return markConnectionBroken('lapsed', idle === false ? 'access_ended' : 'refresh_rejected');
}
