/// <reference types="google-apps-script-oauth2" />
import { getDeploymentConfig } from '../platform/config';
import { currentSpreadsheet } from '../platform/context';
import {
  STATE_FLOW,
  STATE_SHEETS_STORE,
  STATE_SHEETS_STORE_NAME,
  STATE_SPREADSHEET_ID,
  STATE_USER_KEY,
} from './callback';
import { openConnectFlow } from './connect-flow';
import { readConnectionRecord, storeTag, storeTagName } from './connection-record';
import { cannotTellConnector, unknownGoogleAccount } from './account-unknown';
import { anotherUsersDisconnect } from './errors';
import { dropHandoff } from './handoff';
import { forgetConnection } from './lifecycle';
import { secureCodeVerifier } from './pkce';
import { withAuthorizationEndpoints } from './service';
import { openSession, withDocumentLock, withUserLock } from './session';
import { dropKeptRenewal } from './kept-renewal';
import { clearSharedAccessToken, isConnector } from './token-home';

/**
 * The URL that starts the flow (spec 5.3): code, S256 challenge of a fresh verifier (which the
 * library carries inside the state token), the scopes, and no `resource` parameter. The state
 * token also names this flow's one-time mark, this spreadsheet and the store its
 * sheets hold: the callback has no document.
 */
export function authorizationUrl(): string {
  getDeploymentConfig();
  const spreadsheet = currentSpreadsheet('starting to connect');
  const session = openSession();
  const service = withAuthorizationEndpoints(session.service, session.config)
    .setCodeVerififer(secureCodeVerifier())
    .setCodeChallengeMethod('S256' as GoogleAppsScriptOAuth2.CodeChallengeMethod);
  // Sealed in the state token; the callback checks flow and spreadsheet against the user's flow mark.
  const spreadsheetId = spreadsheet.getId();
  const state: Record<string, string> = {
    [STATE_FLOW]: openConnectFlow(spreadsheetId),
    [STATE_SPREADSHEET_ID]: spreadsheetId,
    [STATE_USER_KEY]: Session.getTemporaryActiveUserKey(),
  };
  const tag = storeTag();
  if (tag) {
    state[STATE_SHEETS_STORE] = tag;
    state[STATE_SHEETS_STORE_NAME] = storeTagName() ?? tag;
  }
  return service.getAuthorizationUrl(state);
}

/**
 * Disconnect: the connection record, the document's access token and the user's own tokens are
 * removed; only the user who connected may (another editor is refused, anotherUsersDisconnect).
 * A record of an older version that does not say who connected can be disconnected by anyone.
 * The sheets and their store tag stay, so reconnecting the same store continues where the sync left off.
 */
export function disconnect(): void {
  withDocumentLock(() => {
    const record = readConnectionRecord();
    if (record && record.connectedBy && cannotTellConnector(record))
      throw unknownGoogleAccount(record.connectedBy, 'disconnect');
    if (record && record.connectedBy && !isConnector(record)) throw anotherUsersDisconnect(record.connectedBy);
    let config = null;
    try {
      config = getDeploymentConfig();
    } catch {
      config = null;
    }
    if (config && isConnector(record))
      withUserLock(() => {
        const session = openSession();
        session.service.reset();
        dropKeptRenewal(session);
      });
    dropHandoff();
    clearSharedAccessToken();
    forgetConnection();
  });
}
