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
      user !== null ? live.find((c) => c.userId === user) : live.length === 1 ? live[0] : live.find((c) => c.userId === DEMO_MERCHANT.email);
    if (!connection) return sendApiError(res, 409, 'no_connection', 'there is no live connection to move; connect first');
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
    if (typeof disabled !== 'boolean') return sendApiError(res, 400, 'invalid_parameter', 'disabled must be true or false');
    client.disabled = disabled;
    sendJson(res, 200, { client_id: client.clientId, disabled });
  }

  /** Mints tokens as a completed flow would (moving the connection like one), for tests. */
  mintTokens(res: ServerResponse, body: Body): void {
    const scope = parseScope(body['scope'] === undefined ? KNOWN_SCOPES.join(' ') : typeof body['scope'] === 'string' ? body['scope'] : null);
    if (!scope.ok) return sendApiError(res, 400, 'invalid_parameter', scope.message);
    const user = this.optionalUser(res, body);
    if (user === false) return;
    const userId = user ?? DEMO_MERCHANT.email;
    const store = body['store'] ?? this.ctx.defaultStoreId();
    if (typeof store !== 'string' || !this.ctx.stores().some((s) => s.id === store)) {
      return sendApiError(res, 400, 'invalid_parameter', 'store must be the id of one of the emulator stores');
    }
    const claims = body['claims'] ?? 'store';
    if (claims !== 'store' && claims !== 'none') return sendApiError(res, 400, 'invalid_parameter', 'claims must be "store" or "none"');
    let accessTokenSeconds: number | undefined;
    if (body['expired'] === true) accessTokenSeconds = 0;
    else if (body['expires_in'] !== undefined) {
      const value = body['expires_in'];
      if (typeof value !== 'number' || !Number.isFinite(value)) return sendApiError(res, 400, 'invalid_parameter', 'expires_in must be a number of seconds');
      accessTokenSeconds = value;
    }
    const clientId = this.ctx.client().clientId;
    const current = this.ctx.grants.current(userId, clientId);
    const unbound = claims === 'none';
    const connection =
      unbound && current && current.revoked === null && !this.ctx.grants.isLapsed(current) ? current : this.ctx.grants.connect(userId, clientId, store);
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
    return this.ctx.grants.allConnections().filter((c) => c.clientId === clientId && c.revoked === null && !this.ctx.grants.isLapsed(c));
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
    state: connection.revoked !== null ? `revoked:${connection.revoked}` : grants.isLapsed(connection) ? 'lapsed' : 'active',
    last_used_at: new Date(connection.lastUsedAt).toISOString(),
  });
}
