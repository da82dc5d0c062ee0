import { describe, expect, it } from 'vitest';
import {
  ClientNotAuthorizedError,
  GrantRevokedError,
  InvalidTokenError,
  RateLimitedError,
} from '../../../src/server/api/errors';
import { CONNECTION_CHECK_INTERVAL_MS, sidebarStamp, sidebarState } from '../../../src/server/sidebar/state';
import { account, fakeWorld } from './fake-ports';

describe('getSidebarState: a working connection shows the store, plan window and freshness from GET /account', () => {
  it('shows name and shop domain, the plan window and last sync, and refreshes the token for custom functions', () => {
    const world = fakeWorld();
    const state = sidebarState(world.ports);
    expect(state.connection).toEqual({
      state: 'connected',
      store: {
        id: 'st_1',
        name: 'Acme <b>Goods</b>',
        domain: 'acme.myshopify.com',
        platform: 'shopify',
        currency: 'USD',
        timezone: 'America/New_York',
      },
      problem: null,
    });
    expect(state.plan).toEqual({ name: 'starter', historyAvailableFrom: '2026-08-23', historyDays: 90 });
    expect(state.freshness).toEqual({ lastSyncAt: '2026-11-21T16:00:00Z', stale: false });
    expect(state.schedule).toEqual({ mode: 'hourly', hour: null, timeZone: 'Europe/Berlin', note: null });
    expect(world.refreshes).toBe(1);
    expect(world.store?.id).toBe('st_1');
  });

  it('reports unlimited history (Plus) as null, which the sidebar shows as full history, and passes staleness on', () => {
    const world = fakeWorld();
    world.account = () => ({
      ...account,
      data_availability: {
        history_days: null,
        available_from: null,
        last_sync_at: '2026-11-20T03:00:00Z',
        stale: true,
      },
    });
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
    expect(state.connection).toEqual({
      state: 'not_configured',
      store: null,
      problem: { code: 'not_configured', userMessage: 'Ask whoever set it up.', action: 'configure', retryAt: null },
    });
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

describe('getSidebarState: a revoke shows within about a minute (spec: disconnect takes effect within about one minute)', () => {
  const T0 = Date.parse('2026-11-21T12:00:00Z');

  it('asks the service itself, past the cached /account answer, at most once a minute', () => {
    const world = fakeWorld();
    sidebarState(world.ports, T0);
    sidebarState(world.ports, T0 + 30_000);
    sidebarState(world.ports, T0 + 59_999);
    sidebarState(world.ports, T0 + 60_000);
    expect(world.reads).toEqual([true, false, false, true]);
    expect(world.checkedAt).toBe(T0 + 60_000);
  });

  it('so a grant revoked after a check is shown at the next check, a minute later at most', () => {
    const world = fakeWorld();
    sidebarState(world.ports, T0);
    // The service now refuses the grant; the cached answer (up to 5 minutes old) still shows the store.
    world.ports.account.account = ({ fresh }) => {
      if (fresh) throw new GrantRevokedError({ status: 401 });
      return account;
    };
    expect(sidebarState(world.ports, T0 + 20_000).connection.state).toBe('connected');
    expect(sidebarState(world.ports, T0 + 61_000).connection.state).toBe('revoked');
  });
});

describe('getSidebarState: a schedule paused by a lost connection comes back after reconnecting the same store', () => {
  it('a broken connection pauses the schedule and says automatic sync is off', () => {
    const world = fakeWorld();
    world.schedule = { mode: 'daily', hour: 7, timeZone: 'Europe/Berlin', note: null };
    world.status = { state: 'revoked', message: 'Click Reconnect to resume syncing.', action: 'reconnect' };
    const state = sidebarState(world.ports);
    expect(world.paused).toMatchObject({ mode: 'daily', hour: 7 });
    expect(state.schedule).toMatchObject({ mode: 'off', note: { kind: 'paused' } });
    expect(world.jobsAsked).toEqual([false]);
  });

  it("after a successful reconnect to the sheets' store the schedule is restored, confirmed by the service, and said so", () => {
    const world = fakeWorld();
    world.paused = { mode: 'daily', hour: 7, timeZone: 'Europe/Berlin', note: null };
    world.pausedFor = 'st_1';
    world.schedule = { mode: 'off', hour: null, timeZone: 'Europe/Berlin', note: { kind: 'paused', message: 'off' } };
    world.checkedAt = Date.now(); // a check moments ago does not excuse confirming the reconnect
    const state = sidebarState(world.ports);
    expect(world.reads).toEqual([true]);
    expect(state.schedule).toMatchObject({ mode: 'daily', hour: 7, note: { kind: 'resumed' } });
    expect(world.jobsAsked).toEqual([true]);
  });

  it('a reconnect refused by the service keeps it off', () => {
    const world = fakeWorld();
    world.paused = { mode: 'hourly', hour: null, timeZone: 'Europe/Berlin', note: null };
    world.pausedFor = 'st_1';
    world.schedule = { mode: 'off', hour: null, timeZone: 'Europe/Berlin', note: { kind: 'paused', message: 'off' } };
    world.account = () => {
      throw new GrantRevokedError({ status: 401 });
    };
    const state = sidebarState(world.ports);
    expect(state.connection.state).toBe('revoked');
    expect(state.schedule).toMatchObject({ mode: 'off', note: { kind: 'paused' } });
    expect(world.paused).toMatchObject({ mode: 'hourly' });
  });
});

describe('getSidebarStamp: what the open sidebar polls is cheap and changes when something happened elsewhere', () => {
  it('a run that ended elsewhere changes it; nothing else does, and the service is asked at most once a minute', () => {
    const world = fakeWorld();
    const now = Date.parse('2026-11-21T12:00:00Z');
    const first = sidebarStamp(world.ports, now);
    expect(world.reads).toEqual([true]);
    expect(sidebarStamp(world.ports, now + 4_000)).toBe(first);
    expect(world.reads).toEqual([true]);
    world.runStamp = '/1700000000000/1700000060000/ok';
    expect(sidebarStamp(world.ports, now + 8_000)).not.toBe(first);
    expect(world.reads).toEqual([true]);
  });

  it("a revoke the service reports at the minute's check marks the connection and changes the stamp", () => {
    const world = fakeWorld();
    const now = Date.parse('2026-11-21T12:00:00Z');
    const first = sidebarStamp(world.ports, now);
    world.account = () => {
      throw new GrantRevokedError({ status: 401 });
    };
    expect(sidebarStamp(world.ports, now + 10_000)).toBe(first);
    const later = sidebarStamp(world.ports, now + CONNECTION_CHECK_INTERVAL_MS);
    expect(world.marked).toEqual(['revoked']);
    expect(later).not.toBe(first);
    expect(later.startsWith('revoked|')).toBe(true);
  });

  it('the state carries the stamp it answers to: the same as the next poll when nothing changed, a run ending after the read differs', () => {
    const world = fakeWorld();
    const now = Date.parse('2026-11-21T12:00:00Z');
    const state = sidebarState(world.ports, now);
    expect(state.stamp).toBe(sidebarStamp(world.ports, now + 4_000));
    // A scheduled run ends right after this sidebar's own sync read the state: the next poll differs from the state's stamp.
    world.runStamp = '/1700000000000/1700000060000/ok';
    expect(sidebarStamp(world.ports, now + 5_000)).not.toBe(state.stamp);
  });

  it('a connection the state read found revoked is in its stamp, so the next poll does not read it again', () => {
    const world = fakeWorld();
    world.account = () => {
      throw new GrantRevokedError({ status: 401 });
    };
    const state = sidebarState(world.ports, Date.parse('2026-11-21T12:00:00Z'));
    expect(state.connection.state).toBe('revoked');
    expect(state.stamp).toMatch(/^revoked\|/);
  });
});

describe('getSidebarState: the latest tie-out comes from the sync state, without a request of its own', () => {
  it('passes the stored tie-out on, and null before the first', () => {
    const world = fakeWorld();
    const view = {
      checkedAt: '2026-11-24T06:00:00.000Z',
      days: 40,
      failedDays: ['2026-10-03'],
      failedCount: 1,
      cutFrom: null,
    };
    let asked = 0;
    world.ports.sync.tieout = () => {
      asked++;
      return view;
    };
    expect(sidebarState(world.ports).tieout).toEqual(view);
    expect(asked).toBe(1);
    world.ports.sync.tieout = () => null;
    expect(sidebarState(world.ports).tieout).toBeNull();
  });
});
