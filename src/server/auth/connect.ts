/// <reference types="google-apps-script-oauth2" />
import { getDeploymentConfig } from '../config';
import { TOKEN_PROPERTY_KEY } from './constants';
import { openConnectFlow } from './connect-flow';
import { forgetConnection } from './lifecycle';
import { secureCodeVerifier } from './pkce';
import { createOAuthService } from './service';
import { documentLock, withDocumentLock } from './session';
import { documentProperties } from '../platform/properties';

/**
 * The URL that starts the flow (spec 5.3): code, S256 challenge of a fresh verifier (which the
 * library carries inside the state token), the scopes, and no `resource` parameter. The state also
 * names this flow's one-time mark and this spreadsheet (connect-flow.ts).
 */
export function authorizationUrl(): string {
  const config = getDeploymentConfig();
  const spreadsheet = SpreadsheetApp.getActive();
  if (!spreadsheet) throw new Error('Connect needs the spreadsheet: open the Merchant Analytics sidebar from the spreadsheet to connect.');
  const spreadsheetId = spreadsheet.getId();
  const service = createOAuthService(config, null)
    .setCodeVerififer(secureCodeVerifier())
    .setCodeChallengeMethod('S256' as GoogleAppsScriptOAuth2.CodeChallengeMethod);
  // Both travel sealed in the state token; the callback checks them against the user's flow mark.
  return service.getAuthorizationUrl({ flow: openConnectFlow(spreadsheetId), sheet: spreadsheetId });
}

/**
 * Disconnect: the stored tokens and the connection record are removed; the sheets and their store
 * tag stay, so reconnecting the same store continues where the sync left off.
 */
export function disconnect(): void {
  withDocumentLock(() => {
    let config = null;
    try {
      config = getDeploymentConfig();
    } catch {
      config = null;
    }
    if (config) createOAuthService(config, documentLock()).reset();
    else documentProperties().deleteProperty(TOKEN_PROPERTY_KEY);
    const cache = CacheService.getDocumentCache();
    if (cache) cache.remove(TOKEN_PROPERTY_KEY);
    forgetConnection();
  });
}
