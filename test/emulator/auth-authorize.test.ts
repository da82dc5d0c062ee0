import { startEmulator, type RunningEmulator } from '../../dev/emulator/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeUrl, newPkcePair } from '../../dev/emulator/oauth/oauth-client';
import { httpRequest } from '../../dev/emulator/oauth/scripted-merchant';

const REDIRECT = 'https://script.google.com/macros/d/SCRIPT_ID/usercallback';
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ orders: 20, products: 5, days: 30, redirectUris: [REDIRECT] });
});
afterAll(() => emulator.close());

function goodParams(extra: Record<string, string | null> = {}): string {
  return authorizeUrl(emulator.url, {
    clientId: emulator.clientId,
    redirectUri: REDIRECT,
    scope: 'store:read orders:read offline_access',
    state: 'st-123',
    challenge: newPkcePair().challenge,
    extra,
  });
}

async function redirectedError(url: string): Promise<URLSearchParams> {
  const response = await httpRequest(url);
  expect(response.status).toBe(302);
  const location = new URL(String(response.headers.location));
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
  expect(response.body).not.toContain('<form');
  return location.searchParams;
}

describe('5.2 discovery documents', () => {
  it('authorization-server metadata (RFC 8414) names the endpoints, S256 only and HTTP Basic only', async () => {
    const response = await httpRequest(`${emulator.url}/.well-known/oauth-authorization-server`);
    expect(response.status).toBe(200);
    const doc = JSON.parse(response.body) as Record<string, unknown>;
    expect(doc['issuer']).toBe(emulator.url);
    expect(doc['authorization_endpoint']).toBe(`${emulator.url}/api/auth/oauth2/authorize`);
    expect(doc['token_endpoint']).toBe(`${emulator.url}/api/auth/oauth2/token`);
    expect(doc['response_types_supported']).toEqual(['code']);
    expect(doc['code_challenge_methods_supported']).toEqual(['S256']);
    expect(doc['token_endpoint_auth_methods_supported']).toEqual(['client_secret_basic']);
    expect(doc['grant_types_supported']).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    expect(doc['scopes_supported']).toEqual(
      expect.arrayContaining(['store:read', 'orders:read', 'products:read', 'profitability:read', 'offline_access']),
    );
  });

  it('protected-resource metadata (RFC 9728) names this API and the authorization server to ask', async () => {
    const response = await httpRequest(`${emulator.url}/.well-known/oauth-protected-resource/api/v1`);
    expect(response.status).toBe(200);
    const doc = JSON.parse(response.body) as Record<string, unknown>;
    expect(doc['resource']).toBe(`${emulator.url}/api/v1`);
    expect(doc['authorization_servers']).toEqual([emulator.url]);
    expect(doc['bearer_methods_supported']).toEqual(['header']);
    expect(doc['scopes_supported']).toEqual(expect.arrayContaining(['orders:read']));
  });

  it('discovery documents are GET only', async () => {
    const response = await httpRequest(`${emulator.url}/.well-known/oauth-authorization-server`, { method: 'POST' });
    expect(response.status).toBe(405);
  });
});

describe('5.3 authorize: a valid request shows the sign-in and consent page', () => {
  it('answers 200 with the consent form', async () => {
    const response = await httpRequest(goodParams());
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toContain('<form id="consent"');
  });
});

describe('5.3 authorize: resource naming the public API is rejected with invalid_target before any login screen', () => {
  for (const resource of ['/api/v1', '/api/v1/']) {
    it(`resource={base}${resource}`, async () => {
      const params = await redirectedError(goodParams({ resource: `${emulator.url}${resource}` }));
      expect(params.get('error')).toBe('invalid_target');
      expect(params.get('state')).toBe('st-123');
    });
  }
});

describe('5.3 authorize: each required parameter and rule', () => {
  const cases: Array<[string, Record<string, string | null>, string]> = [
    ['response_type missing', { response_type: null }, 'invalid_request'],
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
    ['scope missing', { scope: null }, 'invalid_scope'],
    ['unknown scope', { scope: 'orders:read orders:write' }, 'invalid_scope'],
    ['code_challenge missing', { code_challenge: null }, 'invalid_request'],
    ['code_challenge_method missing', { code_challenge_method: null }, 'invalid_request'],
    ['code_challenge_method=plain', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['code_challenge not a SHA-256 digest', { code_challenge: 'short' }, 'invalid_request'],
  ];
  for (const [name, extra, error] of cases) {
    it(`${name} → redirect with error=${error} and the state`, async () => {
      const params = await redirectedError(goodParams(extra));
      expect(params.get('error')).toBe(error);
      expect(params.get('state')).toBe('st-123');
      expect(params.get('code')).toBeNull();
    });
  }

  it('state missing → invalid_request without a state', async () => {
    const params = await redirectedError(goodParams({ state: null }));
    expect(params.get('error')).toBe('invalid_request');
    expect(params.has('state')).toBe(false);
  });

  it('a repeated parameter → invalid_request', async () => {
    const params = await redirectedError(`${goodParams()}&scope=orders:read`);
    expect(params.get('error')).toBe('invalid_request');
  });
});

describe('5.3 authorize: an untrusted client or redirect_uri never redirects', () => {
  const cases: Array<[string, Record<string, string | null>]> = [
    ['client_id missing', { client_id: null }],
    ['unknown client_id', { client_id: 'someone-else' }],
    ['redirect_uri missing', { redirect_uri: null }],
    ['redirect_uri not registered', { redirect_uri: 'https://evil.example/callback' }],
    ['redirect_uri differing only by a trailing slash', { redirect_uri: `${REDIRECT}/` }],
    ['redirect_uri differing only in case', { redirect_uri: REDIRECT.replace('script', 'Script') }],
  ];
  for (const [name, extra] of cases) {
    it(`${name} → 400 error page`, async () => {
      const response = await httpRequest(goodParams(extra));
      expect(response.status).toBe(400);
      expect(response.headers.location).toBeUndefined();
      expect(response.body).not.toContain('<form');
    });
  }

  it('echoes nothing unescaped from hostile input', async () => {
    const response = await httpRequest(goodParams({ client_id: '<script>alert(1)</script>' }));
    expect(response.status).toBe(400);
    expect(response.body).not.toContain('<script>');
  });
});
