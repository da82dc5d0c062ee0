import { namesThisApi } from './discovery';
import { repeatedNames } from './http-io';
import { isWellFormedS256Challenge } from './pkce';
import { parseScope } from './scopes';
import type { RegisteredClient } from './types';

/** A validated authorize request, waiting for the merchant's sign-in and consent. */
export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  state: string;
  scopes: string[];
  codeChallenge: string;
}

export type AuthorizeCheck =
  | { kind: 'ok'; request: AuthorizationRequest }
  /** Client or redirect_uri cannot be trusted: never redirect, show a 400 page (RFC 6749 4.1.2.1). */
  | { kind: 'page_error'; message: string }
  | { kind: 'redirect_error'; redirectUri: string; state: string | null; error: string; description: string };

/** Spec 5.3, checked in this order; a `resource` is refused before any sign-in screen. */
export function checkAuthorizeRequest(
  params: URLSearchParams,
  client: RegisteredClient,
  baseUrl: string,
): AuthorizeCheck {
  const repeated = repeatedNames(params);
  if (repeated.includes('client_id') || repeated.includes('redirect_uri')) {
    return { kind: 'page_error', message: 'client_id and redirect_uri must each be sent exactly once.' };
  }
  const clientId = params.get('client_id');
  if (!clientId) return { kind: 'page_error', message: 'The client_id parameter is missing.' };
  if (clientId !== client.clientId)
    return { kind: 'page_error', message: 'This application is not known to Merchant Analytics.' };
  if (client.disabled) {
    return { kind: 'page_error', message: 'This application has been disabled by the Merchant Analytics operator.' };
  }
  const redirectUri = params.get('redirect_uri');
  if (!redirectUri) return { kind: 'page_error', message: 'The redirect_uri parameter is missing.' };
  if (!client.redirectUris.includes(redirectUri)) {
    return {
      kind: 'page_error',
      message: 'The redirect_uri does not match any address registered for this application.',
    };
  }

  const state = params.get('state');
  const fail = (error: string, description: string): AuthorizeCheck => ({
    kind: 'redirect_error',
    redirectUri,
    state: repeated.includes('state') ? null : state,
    error,
    description,
  });
  if (repeated.length > 0) return fail('invalid_request', `parameters sent more than once: ${repeated.join(', ')}`);
  const resource = params.get('resource');
  if (resource !== null) {
    return fail(
      'invalid_target',
      namesThisApi(resource, baseUrl)
        ? 'do not send resource for the public API at the authorize step; the scopes identify it'
        : 'unknown resource',
    );
  }
  const responseType = params.get('response_type');
  if (!responseType) return fail('invalid_request', 'response_type is required');
  if (responseType !== 'code') return fail('unsupported_response_type', 'only response_type=code is supported');
  if (!state) return fail('invalid_request', 'state is required');
  const scope = parseScope(params.get('scope'));
  if (!scope.ok) return fail('invalid_scope', scope.message);
  const method = params.get('code_challenge_method');
  if (!method) return fail('invalid_request', 'code_challenge_method is required and must be S256');
  if (method !== 'S256') return fail('invalid_request', `code_challenge_method ${method} is not supported; use S256`);
  const codeChallenge = params.get('code_challenge');
  if (!codeChallenge) return fail('invalid_request', 'code_challenge is required (PKCE)');
  if (!isWellFormedS256Challenge(codeChallenge)) {
    return fail('invalid_request', 'code_challenge must be BASE64URL(SHA-256(code_verifier)), 43 characters');
  }
  return { kind: 'ok', request: { clientId, redirectUri, state, scopes: scope.scopes, codeChallenge } };
}

/** Appends the response parameters to the registered redirect URI, keeping its own query. */
export function redirectWith(redirectUri: string, params: Record<string, string | null>): string {
  const target = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== null) target.searchParams.append(name, value);
  return target.toString();
}
