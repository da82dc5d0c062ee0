import { describe, expect, it } from 'vitest';
import { ClientNotAuthorizedError, GrantRevokedError, InvalidTokenError, RateLimitedError } from '../../../src/server/api/errors';
import { sidebarState } from '../../../src/server/sidebar/state';
import { account, fakeWorld } from './fake-ports';

describe('getSidebarState: a working connection shows the store, plan window and freshness from GET /account', () => {
  it('shows name and shop domain, the plan window and last sync, and refreshes the token for custom functions', () => {
    const world = fakeWorld();
    const state = sidebarState(world.ports);
    expect(state.connection).toEqual({
      state: 'connected',
      store: { id: 'st_1', name: 'Acme <b>Goods</b>', domain: 'acme.myshopify.com', platform: 'shopify', currency: 'USD', timezone: 'America/New_York' },
      problem: null,
    });
    expect(state.plan).toEqual({ name: 'starter', historyAvailableFrom: '2026-08-23', historyDays: 90 });
    expect(state.freshness).toEqual({ lastSyncAt: '2026-11-21T16:00:00Z', stale: false });
    expect(state.schedule).toEqual({ mode: 'hourly', hour: null });
    expect(world.refreshes).toBe(1);
    expect(world.store?.id).toBe('st_1');
  });

  it('reports unlimited history (Plus) as null, which the sidebar shows as full history, and passes staleness on', () => {
    const world = fakeWorld();
    world.account = () => ({ ...account, data_availability: { history_days: null, available_from: null, last_sync_at: '2026-11-20T03:00:00Z', stale: true } });
    const state = sidebarState(world.ports);
    expect(state.plan).toEqual({ name: 'starter', historyAvailableFrom: null, historyDays: null });
    expect(state.freshness).toEqual({ lastSyncAt: '2026-11-20T03:00:00Z', stale: true });
  });
});

describe('getSidebarState: a refused connection is marked and explained (spec 3.2, 5.8)', () => {
  it('grant_revoked marks the connection revoked and offers Reconnect, keeping the last known store', () => {
    const world = fakeWorld();
    sidebarState(world.ports);
    world.account = () => {
      throw new GrantRevokedError({ status: 401 });
    };
    const state = sidebarState(world.ports);
    expect(world.marked).toEqual(['revoked']);
    expect(state.connection.state).toBe('revoked');
    expect(state.connection.store?.name).toBe('Acme <b>Goods</b>');
    expect(state.connection.problem).toMatchObject({ action: 'reconnect', code: 'revoked' });
  });

  it('invalid_token after a refresh means the user connection moved to another store', () => {
    const world = fakeWorld();
    world.account = () => {
      throw new InvalidTokenError({ status: 401 }, true);
    };
    const state = sidebarState(world.ports);
    expect(world.marked).toEqual(['store_changed']);
    expect(state.connection.state).toBe('store_changed');
  });

  it('client_not_authorized is an operator problem: contact the operator, no reconnect', () => {
    const world = fakeWorld();
    world.account = () => {
      throw new ClientNotAuthorizedError({ status: 403 });
    };
    const state = sidebarState(world.ports);
    expect(world.marked).toEqual([]);
    expect(state.connection.state).toBe('operator_problem');
    expect(state.connection.problem?.action).toBe('contact_operator');
  });

  it('a rate limit leaves the connection standing and shows when to try again', () => {
    const world = fakeWorld();
    const retryAt = Date.UTC(2026, 10, 21, 18, 0, 0);
    world.account = () => {
      throw new RateLimitedError({ status: 429, retryAt }, 'hour');
    };
    const state = sidebarState(world.ports);
    expect(world.marked).toEqual([]);
    expect(state.connection.state).toBe('connected');
    expect(state.problem).toMatchObject({ code: 'rate_limited', action: 'wait', retryAt: '2026-11-21T18:00:00.000Z' });
  });
});

describe('getSidebarState: no network call when there is nothing to call', () => {
  it('not configured: no account read, the operator action', () => {
    const world = fakeWorld();
    world.status = { state: 'not_configured', message: 'Ask whoever set it up.', action: 'configure' };
    world.account = () => {
      throw new Error('must not read the account');
    };
    const state = sidebarState(world.ports);
    expect(state.connection).toEqual({ state: 'not_configured', store: null, problem: { code: 'not_configured', userMessage: 'Ask whoever set it up.', action: 'configure', retryAt: null } });
  });

  it('not connected: no banner (the Connect button is the action), no account read', () => {
    const world = fakeWorld();
    world.status = { state: 'not_connected', message: 'Click Connect.', action: 'connect' };
    world.account = () => {
      throw new Error('must not read the account');
    };
    const state = sidebarState(world.ports);
    expect(state.connection).toEqual({ state: 'not_connected', store: null, problem: null });
    expect(world.refreshes).toBe(0);
  });
});
