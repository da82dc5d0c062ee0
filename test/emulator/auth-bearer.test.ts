import { startEmulator, type RunningEmulator } from '../../dev/emulator/index';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiGet, controlPost } from '../../dev/emulator/oauth/oauth-client';
import { httpRequest } from '../../dev/emulator/oauth/scripted-merchant';

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ orders: 20, products: 5, days: 30 });
});
beforeEach(async () => {
  expect((await controlPost(emulator.url, '/_emulator/reset', {})).status).toBe(200);
});
afterAll(() => emulator.close());

async function mint(body: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const response = await controlPost(emulator.url, '/_emulator/tokens', body);
  expect(response.status).toBe(200);
  return response.json;
}

function expectUnauthorized(call: Awaited<ReturnType<typeof apiGet>>, code: string): void {
  expect(call.status).toBe(401);
  expect(call.json).toEqual({ success: false, error: { code, message: expect.any(String) } });
  expect(String(call.headers['www-authenticate'])).toContain(
    `resource_metadata="${emulator.url}/.well-known/oauth-protected-resource/api/v1"`,
  );
}

describe('5.6 a valid Bearer header reaches the API', () => {
  it('answers 200 for the store the token is bound to', async () => {
    const tokens = await mint({ scope: 'store:read', store: emulator.state.storeRecords()[1]!.id });
    const call = await apiGet(emulator.url, '/api/v1/account', String(tokens['access_token']));
    expect(call.status).toBe(200);
    expect(call.json.data).toMatchObject({
      store: { id: emulator.state.storeRecords()[1]!.id },
      connection: { client_id: emulator.clientId, scopes: ['store:read'] },
    });
  });

  it('accepts the scheme name in any case', async () => {
    const tokens = await mint();
    const call = await apiGet(emulator.url, '/api/v1/account', undefined, {
      Authorization: `bearer ${String(tokens['access_token'])}`,
    });
    expect(call.status).toBe(200);
  });
});

describe('5.8 401 missing_token: no Bearer header', () => {
  for (const [name, headers] of [
    ['no Authorization header', {}],
    ['a blank header', { Authorization: '   ' }],
    ['the Bearer scheme with no token', { Authorization: 'Bearer' }],
    ['another scheme', { Authorization: 'Basic ZGVtbzpkZW1v' }],
  ] as const) {
    it(name, async () => {
      expectUnauthorized(await apiGet(emulator.url, '/api/v1/account', undefined, headers), 'missing_token');
    });
  }

  it('a token in the query string is refused and the message says why', async () => {
    const tokens = await mint();
    const call = await apiGet(emulator.url, `/api/v1/account?access_token=${String(tokens['access_token'])}`);
    expectUnauthorized(call, 'missing_token');
    expect(call.json.error?.message).toMatch(/query string/);
  });

  it('a token in the query string is refused even beside a valid header', async () => {
    const tokens = await mint();
    const call = await apiGet(
      emulator.url,
      `/api/v1/account?access_token=${String(tokens['access_token'])}`,
      String(tokens['access_token']),
    );
    expect(call.status).toBe(401);
  });
});

describe('5.8 401 invalid_token: expired, malformed, unknown', () => {
  it('an unknown token', async () => {
    expectUnauthorized(await apiGet(emulator.url, '/api/v1/account', 'A'.repeat(43)), 'invalid_token');
  });

  it('a malformed token', async () => {
    expectUnauthorized(await apiGet(emulator.url, '/api/v1/account', 'not a token!'), 'invalid_token');
  });

  it('an expired token', async () => {
    const tokens = await mint({ expired: true });
    expectUnauthorized(await apiGet(emulator.url, '/api/v1/account', String(tokens['access_token'])), 'invalid_token');
  });

  it('a refresh token used as an access token', async () => {
    const tokens = await mint({ scope: 'store:read offline_access' });
    expectUnauthorized(await apiGet(emulator.url, '/api/v1/account', String(tokens['refresh_token'])), 'invalid_token');
  });
});

describe('5.8 401 invalid_token_claims: token not bound to a store', () => {
  it('is refused with invalid_token_claims', async () => {
    const tokens = await mint({ claims: 'none' });
    expectUnauthorized(
      await apiGet(emulator.url, '/api/v1/account', String(tokens['access_token'])),
      'invalid_token_claims',
    );
  });
});

describe('5.8 401 grant_revoked', () => {
  it('after the merchant disconnects', async () => {
    const tokens = await mint();
    expect((await controlPost(emulator.url, '/_emulator/grants/revoke', {})).status).toBe(200);
    expectUnauthorized(await apiGet(emulator.url, '/api/v1/account', String(tokens['access_token'])), 'grant_revoked');
  });

  it('when the workspace has no plan', async () => {
    const tokens = await mint();
    await controlPost(emulator.url, '/_emulator/grants/revoke', { reason: 'no_plan' });
    const call = await apiGet(emulator.url, '/api/v1/account', String(tokens['access_token']));
    expectUnauthorized(call, 'grant_revoked');
    expect(call.json.error?.message).toMatch(/plan/);
  });

  it('takes precedence over expiry, because reconnecting is the action', async () => {
    const tokens = await mint({ expired: true });
    await controlPost(emulator.url, '/_emulator/grants/revoke', {});
    expectUnauthorized(await apiGet(emulator.url, '/api/v1/account', String(tokens['access_token'])), 'grant_revoked');
  });
});

describe('5.8 403 client_not_authorized: application disabled', () => {
  it('refuses every valid token while disabled and accepts them again once re-enabled', async () => {
    const tokens = await mint();
    await controlPost(emulator.url, '/_emulator/client/disable', { disabled: true });
    const call = await apiGet(emulator.url, '/api/v1/account', String(tokens['access_token']));
    expect(call.status).toBe(403);
    expect(call.json.error?.code).toBe('client_not_authorized');
    await controlPost(emulator.url, '/_emulator/client/disable', { disabled: false });
    expect((await apiGet(emulator.url, '/api/v1/account', String(tokens['access_token']))).status).toBe(200);
  });

  it('refuses a non-boolean value', async () => {
    expect((await controlPost(emulator.url, '/_emulator/client/disable', { disabled: 'yes' })).status).toBe(400);
  });
});

describe('5.8 403 insufficient_scope', () => {
  it('names the missing scope', async () => {
    const tokens = await mint({ scope: 'store:read' });
    const call = await apiGet(emulator.url, '/api/v1/orders', String(tokens['access_token']));
    expect(call.status).toBe(403);
    expect(call.json.error?.code).toBe('insufficient_scope');
    expect(call.json.error?.message).toContain('orders:read');
  });
});

describe('control API: minted and issued tokens', () => {
  it('mints with the token endpoint shape; no refresh token without offline_access', async () => {
    expect(await mint({ scope: 'orders:read' })).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'orders:read',
    });
  });

  it('refuses unknown scopes and stores', async () => {
    expect((await controlPost(emulator.url, '/_emulator/tokens', { scope: 'orders:write' })).status).toBe(400);
    expect((await controlPost(emulator.url, '/_emulator/tokens', { store: 'sto_nope' })).status).toBe(400);
  });

  it('lists every access and refresh token issued', async () => {
    const first = await mint();
    const second = await mint({ scope: 'orders:read' });
    const issued = JSON.parse((await httpRequest(`${emulator.url}/_emulator/issued-tokens`)).body) as Record<
      string,
      string[]
    >;
    expect(issued['access_tokens']).toEqual([first['access_token'], second['access_token']]);
    expect(issued['refresh_tokens']).toEqual([first['refresh_token']]);
  });
});
