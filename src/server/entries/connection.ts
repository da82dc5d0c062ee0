/**
 * Apps Script globals for the connection: the OAuth callback and the API connection check.
 */
import { handleAuthCallback as completeAuthorization, type AuthCallbackRequest } from '../auth';
import { checkConnection, type ConnectionCheck } from '../auth/connection-check';
import { refuseInCell } from '../platform/cell-guard';

/**
 * OAuth callback: Apps Script runs it when Merchant Analytics redirects back after the merchant
 * approved (or declined) access. Returns the page the browser shows.
 * @param {Object} request the callback request (query parameters and the state token's arguments)
 * @return {HtmlOutput} the result page
 */
export function authCallback(request: AuthCallbackRequest): GoogleAppsScript.HTML.HtmlOutput {
  return completeAuthorization(request);
}

/**
 * Test connection: reads the account with the connection's token (renewing it once if the
 * service says it expired) and reports the store and the hourly request allowance left.
 * @param {string=} tokenMode "trigger" (default) or "custom_function" (never renews, as formulas)
 * @return {Object} { ok, storeId, storeName, rateLimitRemaining, stats } or { ok: false, code, userMessage, action, retryAt, stats }
 */
export function checkApiConnection(tokenMode?: 'trigger' | 'custom_function'): ConnectionCheck {
  if (tokenMode !== 'custom_function') refuseInCell('checkApiConnection');
  return checkConnection(tokenMode === 'custom_function' ? 'custom_function' : 'trigger');
}
