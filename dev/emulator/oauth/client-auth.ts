import type { IncomingMessage } from 'node:http';
import { constantTimeEqual } from './secrets';
import type { RegisteredClient } from './types';

/** What the request carried, recorded per token request for /_emulator/stats. */
export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'both' | 'none';

export type ClientAuthResult =
  | { ok: true; method: ClientAuthMethod }
  | { ok: false; method: ClientAuthMethod; error: 'invalid_client' | 'invalid_request'; description: string };

export function detectClientAuthMethod(req: IncomingMessage, fields: Map<string, string[]>): ClientAuthMethod {
  const basic = /^Basic\s/i.test(req.headers.authorization ?? '');
  const inBody = fields.has('client_secret');
  if (basic && inBody) return 'both';
  if (basic) return 'client_secret_basic';
  return inBody ? 'client_secret_post' : 'none';
}

/** Spec 5.1/5.5: HTTP Basic only, and exactly one authentication method per request. */
export function authenticateClient(
  req: IncomingMessage,
  fields: Map<string, string[]>,
  client: RegisteredClient,
): ClientAuthResult {
  const method = detectClientAuthMethod(req, fields);
  const fail = (error: 'invalid_client' | 'invalid_request', description: string): ClientAuthResult => ({
    ok: false,
    method,
    error,
    description,
  });
  if (method === 'both') {
    return fail(
      'invalid_request',
      'client credentials were sent both in the Authorization header and in the body; use exactly one method: HTTP Basic',
    );
  }
  if (method === 'client_secret_post')
    return fail('invalid_client', 'client_secret in the body is not supported; authenticate with HTTP Basic');
  if (method === 'none') return fail('invalid_client', 'client authentication with HTTP Basic is required');

  const credentials = decodeBasic(req.headers.authorization ?? '');
  if (!credentials) return fail('invalid_client', 'the Basic credentials are malformed');
  const bodyIds = fields.get('client_id');
  if (bodyIds && (bodyIds.length !== 1 || bodyIds[0] !== credentials.id)) {
    return fail('invalid_request', 'client_id in the body does not match the authenticated client');
  }
  const secretMatches = constantTimeEqual(credentials.secret, client.clientSecret);
  if (credentials.id !== client.clientId || !secretMatches)
    return fail('invalid_client', 'client authentication failed');
  if (client.disabled) return fail('invalid_client', 'this application has been disabled by the operator');
  return { ok: true, method };
}

/** RFC 6749 2.3.1: id and secret are form-urlencoded before being joined with ':' and base64-encoded. */
function decodeBasic(header: string): { id: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    const unescape = (part: string): string => decodeURIComponent(part.replace(/\+/g, ' '));
    return { id: unescape(decoded.slice(0, colon)), secret: unescape(decoded.slice(colon + 1)) };
  } catch {
    return null;
  }
}
