/// <reference types="google-apps-script-oauth2" />
import type { DeploymentConfig } from '../platform/config';
import { CALLBACK_FUNCTION, REQUESTED_SCOPES, tokenServiceName } from './constants';
import { authorizationEndpoints } from './discovery';

export type OAuthService = GoogleAppsScriptOAuth2.OAuth2Service;

/** RFC 6749 2.3.1: client id and secret are form-encoded before they are joined for HTTP Basic. */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  const encode = (value: string): string => encodeURIComponent(value).replace(/%20/g, '+');
  return 'Basic ' + Utilities.base64Encode(encode(clientId) + ':' + encode(clientSecret));
}

/** One client-authentication method per token request: HTTP Basic, so the secret leaves the body. */
export function withoutClientSecret(payload: GoogleAppsScriptOAuth2.TokenPayload): object {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(payload)) {
    if (key !== 'client_secret') copy[key] = (payload as unknown as Record<string, unknown>)[key];
  }
  return copy;
}

/**
 * The library's service for this API and one spreadsheet. Token and lock are the current user's:
 * the connection lives with the Google user who connected (docs/architecture.md, "Where the
 * connection lives"), reachable from the callback and from their trigger without a document.
 * The lock passed in must be the same object the caller itself locks with, so the library sees it
 * as already held.
 * No cache: the add-on reads the token from the property (a cache one renewal behind holds a
 * revoked refresh token), and formulas read the document's copy, so the library's cache only
 * cost a put (100 ms) per save and a read before each property read. The token request is made
 * by the add-on (token-request.ts): the library's endpoints are set only where it builds the
 * authorization URL (withAuthorizationEndpoints), so a run reads the discovery document only to renew.
 */
export function createOAuthService(
  config: DeploymentConfig,
  spreadsheetId: string,
  lock: GoogleAppsScript.Lock.Lock | null,
): OAuthService {
  const service = OAuth2.createService(tokenServiceName(spreadsheetId))
    .setClientId(config.clientId)
    // Some library versions insist on a secret before a token request; the handler below drops it from the body.
    .setClientSecret(config.clientSecret)
    .setCallbackFunction(CALLBACK_FUNCTION)
    .setPropertyStore(PropertiesService.getUserProperties())
    .setScope(REQUESTED_SCOPES)
    .setTokenHeaders({ Authorization: basicAuthorization(config.clientId, config.clientSecret) })
    .setTokenPayloadHandler(withoutClientSecret);
  if (lock) service.setLock(lock);
  if (config.redirectUri) service.setRedirectUri(config.redirectUri);
  return service;
}

/** The authorization and token URLs (from the discovery document), for the library's authorization URL. */
export function withAuthorizationEndpoints(service: OAuthService, config: DeploymentConfig): OAuthService {
  const endpoints = authorizationEndpoints(config.apiBaseUrl);
  return service.setAuthorizationBaseUrl(endpoints.authorizationEndpoint).setTokenUrl(endpoints.tokenEndpoint);
}
