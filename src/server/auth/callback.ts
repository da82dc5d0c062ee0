import { getDeploymentConfig, NotConfiguredError } from '../config';
import { probeAccount } from './account-probe';
import { oauthErrorCode } from './errors';
import { confirmStore, connectionStatus, markConnected, recordAuthFailure } from './lifecycle';
import { messageFor } from './messages';
import {
  connectedPage,
  deniedPage,
  expiredPage,
  linkUsedPage,
  operatorPage,
  renderCallbackPage,
  serverErrorPage,
  storeMismatchPage,
  wrongSpreadsheetPage,
  type CallbackPage,
} from './pages';
import { createOAuthService } from './service';
import { takeConnectFlow } from './connect-flow';
import { accessTokenOf, documentLock, grantedScopes, withDocumentLock } from './session';

/** What Apps Script passes to the callback function: query parameters plus the state's arguments. */
export interface AuthCallbackRequest {
  parameter?: Record<string, string | undefined>;
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
  // Before any token request: a replayed code would make the server revoke the tokens it gave for it.
  const flow = takeConnectFlow(parameter['flow']);
  if (!flow) return linkUsedPage();
  if (flow.spreadsheetId !== parameter['sheet'] || !isCallbackSpreadsheet(flow.spreadsheetId)) return wrongSpreadsheetPage();

  const service = createOAuthService(config, documentLock());
  let granted: boolean;
  try {
    granted = withDocumentLock(() => service.handleCallback({ parameter }));
  } catch (e) {
    const code = oauthErrorCode(e) ?? 'token_request_failed';
    if (code === 'invalid_grant') return expiredPage(code);
    if (code === 'invalid_client' || code === 'unauthorized_client') {
      recordAuthFailure('client_not_authorized');
      return operatorPage(messageFor('operator_problem', null, 'client_not_authorized').message, code);
    }
    return serverErrorPage(code);
  }
  if (!granted) return deniedPage();

  const token = service.getToken();
  const accessToken = accessTokenOf(token);
  const scopes = grantedScopes(token);
  // Record the connection before asking which store it reads, so a failed read still leaves it usable.
  markConnected(null, scopes);
  const probe = accessToken ? probeAccount(config.apiBaseUrl, accessToken) : null;
  if (probe && probe.ok) {
    if (!confirmStore(probe.store)) {
      // The merchant user's connection now reads the other store; keep nothing of it here.
      withDocumentLock(() => service.reset());
      return storeMismatchPage(connectionStatus().message);
    }
    markConnected(probe.store, scopes);
    return connectedPage(probe.store.name);
  }
  if (probe && !probe.ok) {
    const status = recordAuthFailure(probe.code);
    if (status && status.state === 'operator_problem') return operatorPage(status.message, probe.code);
    if (status) return serverErrorPage(probe.code);
  }
  return connectedPage(null);
}
