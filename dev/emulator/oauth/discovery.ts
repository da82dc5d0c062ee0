import { KNOWN_SCOPES } from './scopes';
import { API_PATH, AUTHORIZE_PATH, RESOURCE_METADATA_PATH, TOKEN_PATH } from './types';

export function origin(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}

/** RFC 8414 authorization-server metadata (spec 5.2). */
export function authorizationServerMetadata(baseUrl: string): Record<string, unknown> {
  const issuer = origin(baseUrl);
  return {
    issuer,
    authorization_endpoint: `${issuer}${AUTHORIZE_PATH}`,
    token_endpoint: `${issuer}${TOKEN_PATH}`,
    scopes_supported: [...KNOWN_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic'],
  };
}

/** RFC 9728 protected-resource metadata: names the authorization server to ask. */
export function protectedResourceMetadata(baseUrl: string): Record<string, unknown> {
  const issuer = origin(baseUrl);
  return {
    resource: `${issuer}${API_PATH}`,
    authorization_servers: [issuer],
    scopes_supported: [...KNOWN_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Merchant Analytics Public API',
  };
}

export function resourceMetadataUrl(baseUrl: string): string {
  return `${origin(baseUrl)}${RESOURCE_METADATA_PATH}`;
}

/** True when value names this API, {base}/api/v1, with or without a trailing slash. */
export function namesThisApi(value: string, baseUrl: string): boolean {
  return value.replace(/\/+$/, '') === `${origin(baseUrl)}${API_PATH}`;
}
