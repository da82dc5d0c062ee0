import { getDeploymentConfig, NotConfiguredError } from '../platform/config';
import { probeAccount } from './account-probe';
import { oauthErrorCode } from './errors';
import { leaveHandoff } from './handoff';
import { messageFor } from './messages';
import {
  connectedPage,
  deniedPage,
  expiredPage,
  linkUsedPage,
  missingScopePage,
  operatorPage,
  otherAccountPage,
  renderCallbackPage,
  serverErrorPage,
  storeMismatchPage,
  wrongSpreadsheetPage,
  type CallbackPage,
} from './pages';
import { createOAuthService } from './service';
import { takeConnectFlow } from './connect-flow';
import { recordEnvironment } from '../platform/environment';
import { accessTokenOf, userLock, withUserLock } from './session';
import { dropKeptRenewal } from './kept-renewal';
import { tokenPropertyOf } from './constants';
import { isOperatorDetail } from './lifecycle';
import { redeemAuthorizationCode } from './token-grant';
import { grantedScopesOf, missingScopes, type TokenRecord } from './token-request';

/** What Apps Script passes to the callback function: query parameters plus the state's arguments. */
export interface AuthCallbackRequest {
  parameter?: Record<string, string | undefined>;
}

/** The state token's arguments that authorizationUrl() adds at Connect: `flow` (the Connect flow's mark), the spreadsheet, the sheets' store. */
export const STATE_FLOW = 'flow';
export const STATE_SPREADSHEET_ID = 'sheet';
export const STATE_SHEETS_STORE = 'sheetsStore';
export const STATE_SHEETS_STORE_NAME = 'sheetsStoreName';
/**
 * Who clicked Connect (Session.getTemporaryActiveUserKey: opaque, per user and script). With several
 * accounts signed in, Google runs the callback as the browser's default one, which may be another.
 */
export const STATE_USER_KEY = 'who';

/** The callback runs as another Google account than the one that clicked Connect. */
function isOtherAccount(parameter: Record<string, string | undefined>): boolean {
  const who = parameter[STATE_USER_KEY];
  return who !== undefined && who !== Session.getTemporaryActiveUserKey();
}

/** authCallback: finishes the flow, learns which store was picked and returns the page to show. */
export function handleAuthCallback(request: AuthCallbackRequest): GoogleAppsScript.HTML.HtmlOutput {
  const page = completeAuthorization(request);
  return HtmlService.createHtmlOutput(renderCallbackPage(page)).setTitle(page.title);
}

/** A callback that runs with a document may only complete that document's flow; without one, the flow names it. */
function isCallbackSpreadsheet(spreadsheetId: string): boolean {
  const active = SpreadsheetApp.getActive();
  return active === null || active.getId() === spreadsheetId;
}

/**
 * Runs without a document (Google's /usercallback belongs to the add-on, not to a spreadsheet):
 * everything it needs comes from the state token (the spreadsheet, the store its sheets hold) and
 * the user's own storage; the result is handed to the spreadsheet's sidebar (the handoff).
 */
function completeAuthorization(request: AuthCallbackRequest): CallbackPage {
  let config;
  try {
    config = getDeploymentConfig();
  } catch (e) {
    if (e instanceof NotConfiguredError) return operatorPage(e.userMessage, 'not_configured');
    throw e;
  }
  const parameter = (request && request.parameter) || {};
  const error = parameter['error'];
  if (error === 'access_denied') return deniedPage();
  if (error) return serverErrorPage(String(error).slice(0, 64));
  if (!parameter['code']) return serverErrorPage('missing_code');
  // Before the flow mark (it is in the other account's properties) and before any token request.
  if (isOtherAccount(parameter)) return otherAccountPage();
  // Before any token request: a replayed code would make the server revoke the tokens it gave for it.
  const flow = takeConnectFlow(parameter[STATE_FLOW]);
  if (!flow) return linkUsedPage();
  if (flow.spreadsheetId !== parameter[STATE_SPREADSHEET_ID] || !isCallbackSpreadsheet(flow.spreadsheetId))
    return wrongSpreadsheetPage();
  const spreadsheetId = flow.spreadsheetId;

  recordEnvironment('callback', spreadsheetId);
  const service = createOAuthService(config, spreadsheetId, userLock());
  const at = Date.now();
  let token: TokenRecord;
  try {
    // The library carried the PKCE verifier in the state token (codeVerifier_); the request is made here (the token request).
    token = withUserLock(() => {
      dropKeptRenewal({ tokenProperty: tokenPropertyOf(spreadsheetId) });
      return redeemAuthorizationCode(service, config, String(parameter['code']), parameter['codeVerifier_']);
    });
  } catch (e) {
    const code = oauthErrorCode(e) ?? 'token_request_failed';
    if (code === 'invalid_grant') return expiredPage(code);
    const operatorCode = code === 'invalid_client' || code === 'unauthorized_client' ? 'client_not_authorized' : code;
    if (isOperatorDetail(operatorCode)) {
      leaveHandoff(spreadsheetId, { kind: 'auth_failure', code: operatorCode, scopes: [], at });
      return operatorPage(messageFor('operator_problem', null, operatorCode).message, code);
    }
    return serverErrorPage(code);
  }

  const accessToken = accessTokenOf(token);
  const scopes = grantedScopesOf(token);
  if (missingScopes(token).length > 0) {
    // Approved with fewer permissions than the add-on uses: never "Connected" (RFC 6749 3.3).
    leaveHandoff(spreadsheetId, { kind: 'auth_failure', code: 'insufficient_scope', scopes, at });
    return missingScopePage(messageFor('missing_scope', null, 'insufficient_scope').message);
  }
  const probe = accessToken ? probeAccount(config.apiBaseUrl, accessToken) : null;
  if (probe && probe.ok) {
    const sheetsStore = parameter[STATE_SHEETS_STORE];
    if (sheetsStore && sheetsStore !== probe.store.id) {
      // The merchant user's connection now reads the other store; keep nothing of it.
      withUserLock(() => service.reset());
      const tagged = { id: sheetsStore, name: parameter[STATE_SHEETS_STORE_NAME] || sheetsStore };
      leaveHandoff(spreadsheetId, { kind: 'store_mismatch', sheetsStore: tagged, otherStore: probe.store, scopes, at });
      return storeMismatchPage(messageFor('store_changed', tagged, 'store_differs_from_sheets', probe.store).message);
    }
    leaveHandoff(spreadsheetId, { kind: 'connected', store: probe.store, scopes, at });
    return connectedPage(probe.store.name);
  }
  if (probe && !probe.ok && isConnectionCode(probe.code)) {
    leaveHandoff(spreadsheetId, { kind: 'auth_failure', code: probe.code, scopes, at });
    if (probe.code === 'client_not_authorized')
      return operatorPage(messageFor('operator_problem', null, probe.code).message, probe.code);
    return serverErrorPage(probe.code);
  }
  // The account could not be read right now: the connection stands; the sidebar reads the store later.
  leaveHandoff(spreadsheetId, { kind: 'connected', store: null, scopes, at });
  return connectedPage(null);
}

/** API error codes that say something about the connection (lifecycle.recordAuthFailure). */
function isConnectionCode(code: string): boolean {
  return (
    code === 'grant_revoked' ||
    code === 'invalid_token_claims' ||
    code === 'client_not_authorized' ||
    code === 'insufficient_scope'
  );
}
