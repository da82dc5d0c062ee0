import type { ServerResponse } from 'node:http';
import { DEMO_MERCHANT } from './consent';
import type { Connection, GrantStore } from './grant-store';
import { sendApiError, sendJson } from './http-io';
import { KNOWN_SCOPES, parseScope } from './scopes';
import type { RegisteredClient, StoreSummary } from './types';

export interface ControlContext {
  grants: GrantStore;
  client: () => RegisteredClient;
  stores: () => StoreSummary[];
  defaultStoreId: () => string;
}

type Body = Record<string, unknown>;

const MAX_REDIRECT_URIS_PER_REQUEST = 50;
const MAX_REDIRECT_URIS = 1000;

/** Why a value cannot be registered as a redirect URI (RFC 6749 3.1.2: absolute, no fragment), or null. */
function redirectUriProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2000)
    return 'each redirect URI must be a string of at most 2000 characters';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${JSON.stringify(value)} is not an absolute URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${JSON.stringify(value)} must use http or https`;
  if (value.includes('#')) return `${JSON.stringify(value)} must not contain a fragment`;
  return null;
}

/** The auth part of the control API (/_emulator/...): test levers for spec 3.2 without a browser. */
export class AuthControl {
  constructor(private readonly ctx: ControlContext) {}

  revoke(res: ServerResponse, body: Body): void {
    const reason = body['reason'] ?? 'disconnected';
    if (reason !== 'disconnected' && reason !== 'no_plan') {
      return sendApiError(res, 400, 'invalid_parameter', 'reason must be "disconnected" or "no_plan"');
    }
    const user = this.optionalUser(res, body);
    if (user === false) return;
    const targets = this.liveConnections().filter((c) => user === null || c.userId === user);
    if (targets.length === 0) return sendApiError(res, 409, 'no_connection', 'there is no live connection to revoke');
    for (const connection of targets) this.ctx.grants.revoke(connection, reason);
    sendJson(res, 200, { revoked: targets.map(describe), reason });
  }

  switchStore(res: ServerResponse, body: Body): void {
    const user = this.optionalUser(res, body);
    if (user === false) return;
    const live = this.liveConnections();
    const connection =
      user !== null
        ? live.find((c) => c.userId === user)
        : live.length === 1
          ? live[0]
          : live.find((c) => c.userId === DEMO_MERCHANT.email);
    if (!connection)
      return sendApiError(res, 409, 'no_connection', 'there is no live connection to move; connect first');
    const stores = this.ctx.stores();
    let storeId: string;
    if (body['store'] === undefined) {
      const index = stores.findIndex((s) => s.id === connection.storeId);
      storeId = stores[(index + 1) % stores.length]!.id;
    } else if (typeof body['store'] === 'string' && stores.some((s) => s.id === body['store'])) {
      storeId = body['store'];
    } else {
      return sendApiError(res, 400, 'invalid_parameter', `store must be one of: ${stores.map((s) => s.id).join(', ')}`);
    }
    const previous = connection.storeId;
    this.ctx.grants.connect(connection.userId, connection.clientId, storeId);
    sendJson(res, 200, { user: connection.userId, previous_store_id: previous, store_id: storeId });
  }

  disableClient(res: ServerResponse, body: Body, client: RegisteredClient): void {
    const disabled = body['disabled'] ?? true;
    if (typeof disabled !== 'boolean')
      return sendApiError(res, 400, 'invalid_parameter', 'disabled must be true or false');
    client.disabled = disabled;
    sendJson(res, 200, { client_id: client.clientId, disabled });
  }

  /** POST /_emulator/redirect-uris {"add": [...]}: registers more redirect URIs; nothing else changes. */
  addRedirectUris(res: ServerResponse, body: Body, client: RegisteredClient): void {
    const unknown = Object.keys(body).filter((key) => key !== 'add');
    if (unknown.length > 0)
      return sendApiError(res, 400, 'invalid_parameter', `unknown field ${unknown.join(', ')}; allowed: add`);
    const add = body['add'];
    if (!Array.isArray(add) || add.length === 0 || add.length > MAX_REDIRECT_URIS_PER_REQUEST) {
      return sendApiError(
        res,
        400,
        'invalid_parameter',
        `add must be a list of 1 to ${MAX_REDIRECT_URIS_PER_REQUEST} redirect URIs`,
      );
    }
    // Every entry is checked before any is added, so a bad list registers nothing.
    for (const uri of add) {
      const problem = redirectUriProblem(uri);
      if (problem) return sendApiError(res, 400, 'invalid_parameter', problem);
    }
    const fresh = (add as string[]).filter(
      (uri, i, all) => !client.redirectUris.includes(uri) && all.indexOf(uri) === i,
    );
    if (client.redirectUris.length + fresh.length > MAX_REDIRECT_URIS) {
      return sendApiError(
        res,
        400,
        'invalid_parameter',
        `at most ${MAX_REDIRECT_URIS} redirect URIs can be registered; reset the emulator to start over`,
      );
    }
    client.redirectUris.push(...fresh);
    sendJson(res, 200, { client_id: client.clientId, added: fresh, redirect_uris: [...client.redirectUris] });
  }

  /** GET /_emulator/client: the demo client's credentials, for local tools that did not start the emulator. */
  describeClient(res: ServerResponse, client: RegisteredClient): void {
    sendJson(res, 200, {
      client_id: client.clientId,
      client_secret: client.clientSecret,
      redirect_uris: [...client.redirectUris],
      disabled: client.disabled,
    });
  }

  /** Mints tokens as a completed flow would (moving the connection like one), for tests. */
  mintTokens(res: ServerResponse, body: Body): void {
    const scope = parseScope(
      body['scope'] === undefined ? KNOWN_SCOPES.join(' ') : typeof body['scope'] === 'string' ? body['scope'] : null,
    );
    if (!scope.ok) return sendApiError(res, 400, 'invalid_parameter', scope.message);
    const user = this.optionalUser(res, body);
    if (user === false) return;
    const userId = user ?? DEMO_MERCHANT.email;
    const store = body['store'] ?? this.ctx.defaultStoreId();
    if (typeof store !== 'string' || !this.ctx.stores().some((s) => s.id === store)) {
      return sendApiError(res, 400, 'invalid_parameter', 'store must be the id of one of the emulator stores');
    }
    const claims = body['claims'] ?? 'store';
    if (claims !== 'store' && claims !== 'none')
      return sendApiError(res, 400, 'invalid_parameter', 'claims must be "store" or "none"');
    let accessTokenSeconds: number | undefined;
    if (body['expired'] === true) accessTokenSeconds = 0;
    else if (body['expires_in'] !== undefined) {
      const value = body['expires_in'];
      if (typeof value !== 'number' || !Number.isFinite(value))
        return sendApiError(res, 400, 'invalid_parameter', 'expires_in must be a number of seconds');
      accessTokenSeconds = value;
    }
    const clientId = this.ctx.client().clientId;
    const current = this.ctx.grants.current(userId, clientId);
    const unbound = claims === 'none';
    const connection =
      unbound && current && current.revoked === null && !this.ctx.grants.isLapsed(current)
        ? current
        : this.ctx.grants.connect(userId, clientId, store);
    const tokens = this.ctx.grants.issueTokens({
      clientId,
      connection,
      storeId: unbound ? null : store,
      scopes: scope.scopes,
      originCode: null,
      ...(accessTokenSeconds === undefined ? {} : { accessTokenSeconds }),
    });
    sendJson(res, 200, tokens);
  }

  issuedTokens(res: ServerResponse): void {
    sendJson(res, 200, this.ctx.grants.issuedValues());
  }

  listGrants(res: ServerResponse): void {
    sendJson(res, 200, { connections: this.ctx.grants.allConnections().map(describeWithState(this.ctx.grants)) });
  }

  private liveConnections(): Connection[] {
    const clientId = this.ctx.client().clientId;
    return this.ctx.grants
      .allConnections()
      .filter((c) => c.clientId === clientId && c.revoked === null && !this.ctx.grants.isLapsed(c));
  }

  /** null = not given; false = refused (the answer was sent). */
  private optionalUser(res: ServerResponse, body: Body): string | null | false {
    const user = body['user'];
    if (user === undefined) return null;
    if (typeof user === 'string' && user.trim() !== '') return user.trim().toLowerCase();
    sendApiError(res, 400, 'invalid_parameter', 'user must be a merchant user e-mail');
    return false;
  }
}

function describe(connection: Connection): Record<string, unknown> {
  return { user: connection.userId, client_id: connection.clientId, store_id: connection.storeId };
}

function describeWithState(grants: GrantStore) {
  return (connection: Connection): Record<string, unknown> => ({
    ...describe(connection),
    state:
      connection.revoked !== null ? `revoked:${connection.revoked}` : grants.isLapsed(connection) ? 'lapsed' : 'active',
    last_used_at: new Date(connection.lastUsedAt).toISOString(),
  });
}
