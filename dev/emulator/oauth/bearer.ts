import type { IncomingMessage } from 'node:http';
import type { EmulatorClock } from '../clock';
import type { GrantStore } from './grant-store';
import type { BearerFailureCode, BearerResult, RegisteredClient } from './types';

export interface BearerContext {
  clock: EmulatorClock;
  grants: GrantStore;
  client: () => RegisteredClient;
}

/** RFC 6750 b64token. */
const TOKEN_SYNTAX = /^[A-Za-z0-9\-._~+/]+=*$/;

function fail(status: 401 | 403, code: BearerFailureCode, message: string): BearerResult {
  return { ok: false, status, code, message };
}

/** Spec 5.6/5.8: the Bearer check for /api/v1, failures in the order a client can act on them. */
export function checkBearer(
  ctx: BearerContext,
  req: IncomingMessage,
  url: URL,
  requiredScope: string | null,
): BearerResult {
  const header = (req.headers.authorization ?? '').trim();
  if (url.searchParams.has('access_token')) {
    return fail(
      401,
      header === '' ? 'missing_token' : 'invalid_token',
      'tokens in query strings are not accepted; send only the header Authorization: Bearer <token>',
    );
  }
  if (header === '') return fail(401, 'missing_token', 'send the header Authorization: Bearer <token>');
  const match = /^Bearer(?:\s+(.*))?$/i.exec(header);
  if (!match) return fail(401, 'missing_token', 'the Authorization header must use the Bearer scheme');
  const value = (match[1] ?? '').trim();
  if (value === '') return fail(401, 'missing_token', 'the Bearer token is empty');
  if (!TOKEN_SYNTAX.test(value)) return fail(401, 'invalid_token', 'the access token is malformed');
  const token = ctx.grants.findAccessToken(value);
  if (!token) return fail(401, 'invalid_token', 'the access token is not valid');

  const client = ctx.client();
  if (client.disabled || client.clientId !== token.clientId) {
    return fail(
      403,
      'client_not_authorized',
      'this application is not provisioned or has been disabled; contact the service operator',
    );
  }
  const connection = token.connection;
  if (connection.revoked === 'no_plan')
    return fail(401, 'grant_revoked', 'the workspace no longer has a plan; the merchant must reconnect');
  if (connection.revoked !== null)
    return fail(401, 'grant_revoked', 'the merchant disconnected this application; the merchant must reconnect');
  if (token.storeId === null)
    return fail(401, 'invalid_token_claims', 'the token is not bound to a store; run the authorization flow again');
  if (token.killed === 'code_replayed')
    return fail(401, 'invalid_token', 'the access token was revoked because its authorization code was used twice');
  if (token.killed !== null || connection.storeId !== token.storeId) {
    return fail(
      401,
      'invalid_token',
      'the connection now reads another store; tokens for the previous store no longer work',
    );
  }
  if (token.expiresAt <= ctx.clock.now()) return fail(401, 'invalid_token', 'the access token has expired; refresh it');
  if (ctx.grants.isLapsed(connection))
    return fail(401, 'invalid_token', 'the connection lapsed after 90 days without use; reconnect');
  if (requiredScope !== null && !token.scopes.includes(requiredScope)) {
    return fail(403, 'insufficient_scope', `this endpoint needs the scope ${requiredScope}`);
  }
  ctx.grants.touch(connection);
  return { ok: true, clientId: token.clientId, storeId: token.storeId, scopes: [...token.scopes] };
}
