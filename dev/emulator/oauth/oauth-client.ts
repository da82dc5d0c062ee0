import { randomBytes } from 'node:crypto';
import { s256Challenge } from './pkce';
import { httpRequest, type RawResponse } from '../../shared/http-exchange';
import { AUTHORIZE_PATH, TOKEN_PATH } from './types';

/** A minimal OAuth client for driving the emulator's auth server over HTTP (tests, demo tooling). */

export interface PkcePair {
  verifier: string;
  challenge: string;
}

export function newPkcePair(): PkcePair {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: s256Challenge(verifier) };
}

export interface AuthorizeParams {
  clientId: string;
  redirectUri: string;
  scope: string;
  state: string;
  challenge: string;
  /** Extra or replacing parameters; a null value removes the parameter. */
  extra?: Record<string, string | null>;
}

export function authorizeUrl(baseUrl: string, params: AuthorizeParams): string {
  const query: Record<string, string | null> = {
    response_type: 'code',
    client_id: params.clientId,
    redirect_uri: params.redirectUri,
    scope: params.scope,
    state: params.state,
    code_challenge: params.challenge,
    code_challenge_method: 'S256',
    ...params.extra,
  };
  const url = new URL(AUTHORIZE_PATH, baseUrl);
  for (const [name, value] of Object.entries(query)) if (value !== null) url.searchParams.append(name, value);
  return url.toString();
}

export function basicAuthorization(clientId: string, clientSecret: string): string {
  const encode = (part: string): string => encodeURIComponent(part).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`;
}

export interface TokenCall {
  status: number;
  headers: RawResponse['headers'];
  json: Record<string, unknown>;
}

/** POSTs a form to the token endpoint; `basic` adds HTTP Basic client authentication. */
export async function postToken(
  baseUrl: string,
  form: Record<string, string> | string,
  basic?: { clientId: string; clientSecret: string },
  headers: Record<string, string> = {},
): Promise<TokenCall> {
  const response = await httpRequest(new URL(TOKEN_PATH, baseUrl).toString(), {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      ...(basic ? { Authorization: basicAuthorization(basic.clientId, basic.clientSecret) } : {}),
      ...headers,
    },
    body: typeof form === 'string' ? form : new URLSearchParams(form).toString(),
  });
  return {
    status: response.status,
    headers: response.headers,
    json: JSON.parse(response.body) as Record<string, unknown>,
  };
}

export interface ApiCall {
  status: number;
  headers: RawResponse['headers'];
  json: { success: boolean; data?: unknown; error?: { code: string; message: string } };
}

export async function apiGet(
  baseUrl: string,
  path: string,
  accessToken?: string,
  headers: Record<string, string> = {},
): Promise<ApiCall> {
  const response = await httpRequest(new URL(path, baseUrl).toString(), {
    headers: { ...(accessToken === undefined ? {} : { Authorization: `Bearer ${accessToken}` }), ...headers },
  });
  return { status: response.status, headers: response.headers, json: JSON.parse(response.body) as ApiCall['json'] };
}

export async function controlPost(
  baseUrl: string,
  path: string,
  body: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await httpRequest(new URL(path, baseUrl).toString(), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: JSON.parse(response.body) as Record<string, unknown> };
}
