import { startEmulator, type RunningEmulator } from '../../dev/emulator/index';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiGet, authorizeUrl, controlPost, newPkcePair, postToken } from '../../dev/emulator/oauth/oauth-client';
import { approveAuthorization } from '../../dev/emulator/oauth/scripted-merchant';

const REDIRECT = 'http://127.0.0.1:1/usercallback';
const DAY = 86_400;
let emulator: RunningEmulator;
let basic: { clientId: string; clientSecret: string };

beforeAll(async () => {
  emulator = await startEmulator({ orders: 20, products: 5, days: 30, redirectUris: [REDIRECT] });
  basic = { clientId: emulator.clientId, clientSecret: emulator.clientSecret };
});
beforeEach(async () => {
  expect((await controlPost(emulator.url, '/_emulator/reset', {})).status).toBe(200);
});
afterAll(() => emulator.close());

interface Tokens {
  access: string;
  refresh: string;
}

/** The whole browser flow: authorize → consent (store picked) → code → token exchange. */
async function connect(storeId: string, email?: string): Promise<Tokens> {
  const pkce = newPkcePair();
  const url = authorizeUrl(emulator.url, {
    clientId: emulator.clientId,
    redirectUri: REDIRECT,
    scope: 'store:read offline_access',
    state: 'st',
    challenge: pkce.challenge,
  });
  const code = new URL(await approveAuthorization(url, { storeId, ...(email ? { email } : {}) })).searchParams.get(
    'code',
  )!;
  const response = await postToken(
    emulator.url,
    { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: pkce.verifier },
    basic,
  );
  expect(response.status).toBe(200);
  return { access: String(response.json['access_token']), refresh: String(response.json['refresh_token']) };
}

async function refresh(refreshToken: string) {
  return postToken(emulator.url, { grant_type: 'refresh_token', refresh_token: refreshToken }, basic);
}

async function storeOf(access: string): Promise<string | number> {
  const call = await apiGet(emulator.url, '/api/v1/account', access);
  return call.status === 200
    ? (call.json.data as { store: { id: string } }).store.id
    : `${call.status} ${call.json.error?.code}`;
}

async function advance(seconds: number): Promise<void> {
  expect((await controlPost(emulator.url, '/_emulator/clock', { advance_seconds: seconds })).status).toBe(200);
}

const storeA = (): string => emulator.state.storeRecords()[0]!.id;
const storeB = (): string => emulator.state.storeRecords()[1]!.id;

describe('3.2 authorization flow completed: the connection points at the chosen store', () => {
  it('tokens read the store the merchant picked', async () => {
    expect(await storeOf((await connect(storeB())).access)).toBe(storeB());
  });
});

describe('3.2 flow run again by the same merchant user picking a different store', () => {
  it('moves the connection: the previous store tokens fail with 401 invalid_token, refresh fails too', async () => {
    const first = await connect(storeA());
    const second = await connect(storeB());
    expect(await storeOf(first.access)).toBe('401 invalid_token');
    expect((await refresh(first.refresh)).json['error']).toBe('invalid_grant');
    expect(await storeOf(second.access)).toBe(storeB());
  });

  it('moving back does not revive the first store tokens', async () => {
    const first = await connect(storeA());
    await connect(storeB());
    await connect(storeA());
    expect(await storeOf(first.access)).toBe('401 invalid_token');
  });

  it('picking the same store again keeps the earlier tokens working', async () => {
    const first = await connect(storeA());
    await connect(storeA());
    expect(await storeOf(first.access)).toBe(storeA());
  });

  it('a different merchant user holds a separate connection (two stores need two users)', async () => {
    const demo = await connect(storeA());
    const other = await connect(storeB(), 'second-merchant@example.com');
    expect(await storeOf(demo.access)).toBe(storeA());
    expect(await storeOf(other.access)).toBe(storeB());
  });

  it('/_emulator/grants/switch-store does the same without the browser (default: the other store)', async () => {
    const first = await connect(storeA());
    const moved = await controlPost(emulator.url, '/_emulator/grants/switch-store', {});
    expect(moved).toEqual({
      status: 200,
      json: expect.objectContaining({ previous_store_id: storeA(), store_id: storeB() }),
    });
    expect(await storeOf(first.access)).toBe('401 invalid_token');
    const back = await controlPost(emulator.url, '/_emulator/grants/switch-store', { store: storeA() });
    expect(back.json['store_id']).toBe(storeA());
    expect((await controlPost(emulator.url, '/_emulator/grants/switch-store', { store: 'sto_nope' })).status).toBe(400);
  });

  it('switch-store without a connection answers 409', async () => {
    expect((await controlPost(emulator.url, '/_emulator/grants/switch-store', {})).status).toBe(409);
  });
});

describe('3.2 merchant disconnects: terminal, reconnect required', () => {
  it('API calls fail with grant_revoked at once, refresh fails with invalid_grant', async () => {
    const tokens = await connect(storeA());
    await controlPost(emulator.url, '/_emulator/grants/revoke', {});
    expect(await storeOf(tokens.access)).toBe('401 grant_revoked');
    const refreshed = await refresh(tokens.refresh);
    expect(refreshed.status).toBe(400);
    expect(refreshed.json['error']).toBe('invalid_grant');
  });

  it('reconnecting creates a new connection; the old tokens stay revoked', async () => {
    const old = await connect(storeA());
    await controlPost(emulator.url, '/_emulator/grants/revoke', {});
    const fresh = await connect(storeA());
    expect(await storeOf(fresh.access)).toBe(storeA());
    expect(await storeOf(old.access)).toBe('401 grant_revoked');
  });

  it('revoking with no connection answers 409; an unknown reason 400', async () => {
    expect((await controlPost(emulator.url, '/_emulator/grants/revoke', {})).status).toBe(409);
    await connect(storeA());
    expect((await controlPost(emulator.url, '/_emulator/grants/revoke', { reason: 'bored' })).status).toBe(400);
  });
});

describe('3.2 / 5.7 refresh token exchanged: rotation', () => {
  it('issues a new access token and a new refresh token; the previous refresh token is revoked', async () => {
    const tokens = await connect(storeA());
    const rotated = await refresh(tokens.refresh);
    expect(rotated.status).toBe(200);
    expect(rotated.json).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'store:read offline_access' });
    const next = String(rotated.json['refresh_token']);
    expect(next).not.toBe(tokens.refresh);
    expect(String(rotated.json['access_token'])).not.toBe(tokens.access);
    expect(await storeOf(String(rotated.json['access_token']))).toBe(storeA());
    const reuse = await refresh(tokens.refresh);
    expect(reuse.json['error']).toBe('invalid_grant');
  });

  it('a replayed rotated token never hurts the client that stored the new one', async () => {
    const tokens = await connect(storeA());
    const rotated = await refresh(tokens.refresh);
    await refresh(tokens.refresh);
    await refresh(tokens.refresh);
    const again = await refresh(String(rotated.json['refresh_token']));
    expect(again.status).toBe(200);
    expect(await storeOf(String(again.json['access_token']))).toBe(storeA());
  });

  it('the access token issued before a refresh stays valid until it expires', async () => {
    const tokens = await connect(storeA());
    await refresh(tokens.refresh);
    expect(await storeOf(tokens.access)).toBe(storeA());
  });

  it('a refresh may narrow the scopes but never widen them', async () => {
    const tokens = await connect(storeA());
    const narrowed = await postToken(
      emulator.url,
      { grant_type: 'refresh_token', refresh_token: tokens.refresh, scope: 'offline_access' },
      basic,
    );
    expect(narrowed.json['scope']).toBe('offline_access');
    const widened = await postToken(
      emulator.url,
      {
        grant_type: 'refresh_token',
        refresh_token: String(narrowed.json['refresh_token']),
        scope: 'orders:read offline_access',
      },
      basic,
    );
    expect(widened.json['error']).toBe('invalid_scope');
  });

  it('an unknown refresh token, or one missing, is refused', async () => {
    expect((await refresh('A'.repeat(43))).json['error']).toBe('invalid_grant');
    expect((await postToken(emulator.url, { grant_type: 'refresh_token' }, basic)).json['error']).toBe(
      'invalid_request',
    );
  });

  it('a disabled application cannot refresh (invalid_client)', async () => {
    const tokens = await connect(storeA());
    await controlPost(emulator.url, '/_emulator/client/disable', { disabled: true });
    const refused = await refresh(tokens.refresh);
    expect(refused.status).toBe(401);
    expect(refused.json['error']).toBe('invalid_client');
  });
});

describe('8.4 lifetimes on the emulator clock', () => {
  it('an access token works for 3600 s and then fails with invalid_token; a refresh recovers', async () => {
    const tokens = await connect(storeA());
    await advance(3599);
    expect(await storeOf(tokens.access)).toBe(storeA());
    await advance(1);
    expect(await storeOf(tokens.access)).toBe('401 invalid_token');
    const rotated = await refresh(tokens.refresh);
    expect(await storeOf(String(rotated.json['access_token']))).toBe(storeA());
  });

  it('a connection in active use renews indefinitely (refresh every 60 days for 300 days)', async () => {
    let refreshToken = (await connect(storeA())).refresh;
    for (let i = 0; i < 5; i++) {
      await advance(60 * DAY);
      const rotated = await refresh(refreshToken);
      expect(rotated.status).toBe(200);
      refreshToken = String(rotated.json['refresh_token']);
    }
  });

  it('no use for 90 days: the connection lapses and the refresh token fails with invalid_grant', async () => {
    const tokens = await connect(storeA());
    await advance(90 * DAY);
    const refused = await refresh(tokens.refresh);
    expect(refused.json['error']).toBe('invalid_grant');
    expect(String(refused.json['error_description'])).toMatch(/90 days/);
  });

  it('API calls count as use: a refresh token stays usable 89 days after the last call', async () => {
    const long = await controlPost(emulator.url, '/_emulator/tokens', {
      scope: 'store:read offline_access',
      expires_in: 200 * DAY,
    });
    await advance(80 * DAY);
    expect(await storeOf(String(long.json['access_token']))).toBe(storeA());
    await advance(9 * DAY);
    expect((await refresh(String(long.json['refresh_token']))).status).toBe(200);
  });

  it('a lapsed connection refuses its long-lived access token with invalid_token', async () => {
    const long = await controlPost(emulator.url, '/_emulator/tokens', { scope: 'store:read', expires_in: 200 * DAY });
    await advance(90 * DAY);
    expect(await storeOf(String(long.json['access_token']))).toBe('401 invalid_token');
  });
});
