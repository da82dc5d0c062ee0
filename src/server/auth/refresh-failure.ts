import { probeAccount } from './account-probe';
import { oauthErrorCode, refreshFailedTemporarily, ConnectionError } from './errors';
import { markConnectionBroken, markOperatorProblem, markScopesNarrowed } from './lifecycle';
import type { ConnectionStatus } from './types';
import type { AuthSession } from './session';
import { NarrowedGrantError, TOKEN_ENDPOINT_REDIRECTED, UNSUPPORTED_TOKEN_TYPE } from './token-request';

/**
 * The token endpoint refused a refresh. invalid_grant is all the endpoint says (revoked, moved to
 * another store, lapsed, rotated away), so the old access token is shown to the API once to learn
 * which; the state is recorded and a ConnectionError with the user's message is returned.
 * Anything else that is not the client's fault is temporary: nothing is recorded.
 */
export function connectionErrorAfterRefresh(
  session: AuthSession,
  error: unknown,
  oldAccessToken: string | null,
  accessTokenWasStillValid: boolean,
): ConnectionError {
  // Fewer permissions than the add-on uses: never "Connected", as at Connect (the callback); a reconnect that grants them fixes it.
  if (error instanceof NarrowedGrantError) return ConnectionError.fromStatus(markScopesNarrowed(error.granted));
  const code = oauthErrorCode(error);
  if (code === 'invalid_client' || code === 'unauthorized_client') {
    return ConnectionError.fromStatus(markOperatorProblem('client_not_authorized'));
  }
  // The token endpoint's answer could not be used: a set-up problem, not the merchant's.
  if (code === TOKEN_ENDPOINT_REDIRECTED || code === UNSUPPORTED_TOKEN_TYPE)
    return ConnectionError.fromStatus(markOperatorProblem(code));
  if (code !== 'invalid_grant') return refreshFailedTemporarily();
  const probe = oldAccessToken ? probeAccount(session.config.apiBaseUrl, oldAccessToken) : null;
  const probeCode = probe && !probe.ok ? probe.code : null;
  let status: ConnectionStatus;
  if (probeCode === 'grant_revoked') status = markConnectionBroken('revoked');
  else if (probeCode === 'invalid_token_claims') status = markConnectionBroken('invalid_claims');
  else if (probeCode === 'client_not_authorized') status = markOperatorProblem('client_not_authorized');
  // The old token still reads the store: only the refresh token is gone (rotated away elsewhere).
  else if (probe !== null && probe.ok) status = markConnectionBroken('lapsed', 'refresh_rejected');
  else if (accessTokenWasStillValid) status = markConnectionBroken('store_changed', 'moved_to_other_store');
  else status = markConnectionBroken('lapsed', 'refresh_rejected');
  return ConnectionError.fromStatus(status);
}
