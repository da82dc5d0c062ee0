import { startEmulator, type RunningEmulator } from '../../dev/emulator/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizeUrl,
  basicAuthorization,
  newPkcePair,
  postToken,
  type PkcePair,
} from '../../dev/emulator/oauth/oauth-client';
import { approveAuthorization, httpRequest } from '../../dev/emulator/oauth/scripted-merchant';

const REDIRECT = 'http://127.0.0.1:1/usercallback?app=sheets';
let emulator: RunningEmulator;
let basic: { clientId: string; clientSecret: string };

beforeAll(async () => {
  emulator = await startEmulator({ orders: 20, products: 5, days: 30, redirectUris: [REDIRECT] });
  basic = { clientId: emulator.clientId, clientSecret: emulator.clientSecret };
});
afterAll(() => emulator.close());

async function issueCode(scope = 'store:read orders:read offline_access'): Promise<{ code: string; pkce: PkcePair }> {
  const pkce = newPkcePair();
  const url = authorizeUrl(emulator.url, {
    clientId: emulator.clientId,
    redirectUri: REDIRECT,
    scope,
    state: 's',
    challenge: pkce.challenge,
  });
  const location = new URL(await approveAuthorization(url));
  return { code: location.searchParams.get('code')!, pkce };
}

interface AuthStatsView {
  token_requests: { by_grant_type: Record<string, number>; by_client_auth_method: Record<string, number> };
  token_failures: { by_error: Record<string, number> };
}

async function authStats(): Promise<AuthStatsView> {
  return (JSON.parse((await httpRequest(`${emulator.url}/_emulator/stats`)).body) as { auth: AuthStatsView }).auth;
}

function exchangeForm(code: string, verifier: string, extra: Record<string, string> = {}): Record<string, string> {
  return { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier, ...extra };
}

describe('5.5 token exchange: success', () => {
  it('returns access_token, Bearer, expires_in 3600, refresh_token with offline_access, and the scope; not cacheable', async () => {
    const { code, pkce } = await issueCode();
    const response = await postToken(emulator.url, exchangeForm(code, pkce.verifier), basic);
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      scope: 'store:read orders:read offline_access',
    });
    expect(response.json['refresh_token']).not.toBe(response.json['access_token']);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('without offline_access there is no refresh token', async () => {
    const { code, pkce } = await issueCode('orders:read');
    const response = await postToken(emulator.url, exchangeForm(code, pkce.verifier), basic);
    expect(response.status).toBe(200);
    expect(response.json['refresh_token']).toBeUndefined();
    expect(response.json['scope']).toBe('orders:read');
  });

  it('accepts resource={base}/api/v1 (RFC 8707) and refuses any other resource with invalid_target', async () => {
    const first = await issueCode();
    const ok = await postToken(
      emulator.url,
      exchangeForm(first.code, first.pkce.verifier, { resource: `${emulator.url}/api/v1` }),
      basic,
    );
    expect(ok.status).toBe(200);
    const second = await issueCode();
    const bad = await postToken(
      emulator.url,
      exchangeForm(second.code, second.pkce.verifier, { resource: 'https://other.example/api' }),
      basic,
    );
    expect(bad.status).toBe(400);
    expect(bad.json['error']).toBe('invalid_target');
  });

  it('accepts client_id in the body when it matches the Basic credentials', async () => {
    const { code, pkce } = await issueCode();
    const response = await postToken(
      emulator.url,
      exchangeForm(code, pkce.verifier, { client_id: emulator.clientId }),
      basic,
    );
    expect(response.status).toBe(200);
  });
});

describe('5.5 token exchange: PKCE verification', () => {
  it('a verifier whose S256 does not match the challenge → invalid_grant', async () => {
    const { code } = await issueCode();
    const response = await postToken(emulator.url, exchangeForm(code, newPkcePair().verifier), basic);
    expect(response.status).toBe(400);
    expect(response.json['error']).toBe('invalid_grant');
  });

  it('sending the challenge itself as verifier (plain) → invalid_grant', async () => {
    const { code, pkce } = await issueCode();
    const response = await postToken(emulator.url, exchangeForm(code, pkce.challenge), basic);
    expect(response.json['error']).toBe('invalid_grant');
  });

  it('a missing verifier → invalid_request', async () => {
    const { code } = await issueCode();
    const response = await postToken(
      emulator.url,
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
      basic,
    );
    expect(response.json['error']).toBe('invalid_request');
  });

  for (const [name, verifier] of [
    ['42 characters', 'a'.repeat(42)],
    ['129 characters', 'a'.repeat(129)],
    ['a character outside the unreserved set', `${'a'.repeat(50)}+`],
  ]) {
    it(`a verifier of ${name} → invalid_request`, async () => {
      const { code } = await issueCode();
      const response = await postToken(emulator.url, exchangeForm(code, verifier!), basic);
      expect(response.json['error']).toBe('invalid_request');
    });
  }
});

describe('5.5 token exchange: the code is bound, single-use and short-lived', () => {
  it('redirect_uri must match byte for byte', async () => {
    for (const redirect of [
      REDIRECT.replace('?app=sheets', ''),
      `${REDIRECT}&`,
      REDIRECT.replace('127.0.0.1', 'localhost'),
    ]) {
      const { code, pkce } = await issueCode();
      const response = await postToken(
        emulator.url,
        exchangeForm(code, pkce.verifier, { redirect_uri: redirect }),
        basic,
      );
      expect(response.json['error']).toBe('invalid_grant');
    }
  });

  it('a second use fails with invalid_grant and revokes the tokens issued from the code', async () => {
    const { code, pkce } = await issueCode();
    const first = await postToken(emulator.url, exchangeForm(code, pkce.verifier), basic);
    const accessToken = String(first.json['access_token']);
    const account = await httpRequest(`${emulator.url}/api/v1/account`, {
      headers: { Authorization: `Bearer ${accessToken}` },
    });
    expect(account.status).toBe(200);
    const second = await postToken(emulator.url, exchangeForm(code, pkce.verifier), basic);
    expect(second.json['error']).toBe('invalid_grant');
    const after = await httpRequest(`${emulator.url}/api/v1/account`, {
      headers: { Authorization: `Bearer ${accessToken}` },
    });
    expect(after.status).toBe(401);
    const refreshed = await postToken(
      emulator.url,
      { grant_type: 'refresh_token', refresh_token: String(first.json['refresh_token']) },
      basic,
    );
    expect(refreshed.json['error']).toBe('invalid_grant');
  });

  it('expires after 60 s on the emulator clock', async () => {
    const early = await issueCode();
    emulator.clock.advance(59);
    expect((await postToken(emulator.url, exchangeForm(early.code, early.pkce.verifier), basic)).status).toBe(200);
    const late = await issueCode();
    emulator.clock.advance(60);
    const response = await postToken(emulator.url, exchangeForm(late.code, late.pkce.verifier), basic);
    expect(response.json['error']).toBe('invalid_grant');
  });

  it('an unknown code → invalid_grant', async () => {
    const response = await postToken(emulator.url, exchangeForm('nope', newPkcePair().verifier), basic);
    expect(response.json['error']).toBe('invalid_grant');
  });
});

describe('5.1/5.5 client authentication: HTTP Basic only, exactly one method', () => {
  it('client_secret in the body only → invalid_client (401)', async () => {
    const { code, pkce } = await issueCode();
    const response = await postToken(
      emulator.url,
      exchangeForm(code, pkce.verifier, { client_id: emulator.clientId, client_secret: emulator.clientSecret }),
    );
    expect(response.status).toBe(401);
    expect(response.json['error']).toBe('invalid_client');
    expect(String(response.headers['www-authenticate'])).toMatch(/^Basic /);
  });

  it('credentials in both the header and the body → invalid_request', async () => {
    const { code, pkce } = await issueCode();
    const response = await postToken(
      emulator.url,
      exchangeForm(code, pkce.verifier, { client_secret: emulator.clientSecret }),
      basic,
    );
    expect(response.status).toBe(400);
    expect(response.json['error']).toBe('invalid_request');
  });

  it('no client authentication, a wrong secret, or an unknown client → invalid_client', async () => {
    const { code, pkce } = await issueCode();
    const form = exchangeForm(code, pkce.verifier);
    expect((await postToken(emulator.url, form)).json['error']).toBe('invalid_client');
    expect((await postToken(emulator.url, form, { ...basic, clientSecret: 'wrong' })).json['error']).toBe(
      'invalid_client',
    );
    expect((await postToken(emulator.url, form, { ...basic, clientId: 'other' })).json['error']).toBe('invalid_client');
  });

  it('a body client_id differing from the Basic one → invalid_request', async () => {
    const { code, pkce } = await issueCode();
    const response = await postToken(emulator.url, exchangeForm(code, pkce.verifier, { client_id: 'other' }), basic);
    expect(response.json['error']).toBe('invalid_request');
  });

  it('counts token requests by grant type and by client-authentication method in /_emulator/stats', async () => {
    const before = await authStats();
    const both = before.token_requests.by_client_auth_method['both'] ?? 0;
    const post = before.token_requests.by_client_auth_method['client_secret_post'] ?? 0;
    await postToken(emulator.url, { grant_type: 'refresh_token', refresh_token: 'x', client_secret: 's' }, basic);
    await postToken(emulator.url, {
      grant_type: 'refresh_token',
      refresh_token: 'x',
      client_id: basic.clientId,
      client_secret: 's',
    });
    const after = await authStats();
    expect(after.token_requests.by_client_auth_method['both']).toBe(both + 1);
    expect(after.token_requests.by_client_auth_method['client_secret_post']).toBe(post + 1);
    expect(after.token_requests.by_grant_type['refresh_token']).toBeGreaterThanOrEqual(2);
    expect(after.token_failures.by_error['invalid_client']).toBeGreaterThan(0);
  });
});

describe('RFC 6749 token endpoint request rules', () => {
  it('an unknown grant_type → unsupported_grant_type; a missing one → invalid_request', async () => {
    expect((await postToken(emulator.url, { grant_type: 'password' }, basic)).json['error']).toBe(
      'unsupported_grant_type',
    );
    expect((await postToken(emulator.url, {}, basic)).json['error']).toBe('invalid_request');
  });

  it('a JSON body → invalid_request; GET → 405', async () => {
    const json = await postToken(emulator.url, '{"grant_type":"authorization_code"}', basic, {
      'Content-Type': 'application/json',
    });
    expect(json.json['error']).toBe('invalid_request');
    const get = await httpRequest(`${emulator.url}/api/auth/oauth2/token`, {
      headers: { Authorization: basicAuthorization(basic.clientId, basic.clientSecret) },
    });
    expect(get.status).toBe(405);
  });

  it('a repeated parameter → invalid_request', async () => {
    const { code, pkce } = await issueCode();
    const body = `${new URLSearchParams(exchangeForm(code, pkce.verifier)).toString()}&code=${code}`;
    expect((await postToken(emulator.url, body, basic)).json['error']).toBe('invalid_request');
  });
});
