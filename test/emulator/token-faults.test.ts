/**
 * POST /_emulator/faults with path_prefix "/api/auth/oauth2/token": the token endpoint fails too.
 * 500/502/429 are answered in front of the authorization server (the code or refresh token sent
 * is not spent); "truncated" lets the exchange happen and cuts the answer in half.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../dev/emulator/index';
import { authorizeUrl, basicAuthorization, newPkcePair } from '../../dev/emulator/oauth/oauth-client';
import { approveAuthorization, httpRequest } from '../../dev/emulator/oauth/scripted-merchant';

const REDIRECT = 'http://127.0.0.1:1/usercallback';
const TOKEN_PATH = '/api/auth/oauth2/token';
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ orders: 5, products: 3, days: 10, redirectUris: [REDIRECT] });
});
afterAll(() => emulator.close());
beforeEach(async () => {
  expect((await control('/_emulator/reset', {})).status).toBe(200);
});

async function control(path: string, body: unknown): Promise<{ status: number; body: string }> {
  const res = await httpRequest(emulator.url + path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: res.body };
}

async function tokenRequest(form: Record<string, string>) {
  return httpRequest(emulator.url + TOKEN_PATH, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Authorization: basicAuthorization(emulator.clientId, emulator.clientSecret),
    },
    body: new URLSearchParams(form).toString(),
  });
}

async function mintedRefreshToken(): Promise<string> {
  const res = await control('/_emulator/tokens', {});
  return String((JSON.parse(res.body) as { refresh_token: string }).refresh_token);
}

const refresh = (token: string) => tokenRequest({ grant_type: 'refresh_token', refresh_token: token });

describe('a 500 or 502 at the token endpoint never reaches the authorization server', () => {
  it('500 (JSON): RFC 6749 error body; the refresh token sent still works afterwards', async () => {
    const token = await mintedRefreshToken();
    await control('/_emulator/faults', { status: 500, path_prefix: TOKEN_PATH });
    const failed = await refresh(token);
    expect(failed.status).toBe(500);
    expect(JSON.parse(failed.body)).toMatchObject({ error: 'server_error' });
    const next = await refresh(token);
    expect(next.status).toBe(200);
    expect(JSON.parse(next.body)).toHaveProperty('access_token');
  });

  it('502 with an HTML body; the authorization code sent can still be redeemed', async () => {
    const pkce = newPkcePair();
    const url = authorizeUrl(emulator.url, {
      clientId: emulator.clientId,
      redirectUri: REDIRECT,
      scope: 'store:read offline_access',
      state: 's',
      challenge: pkce.challenge,
    });
    const code = new URL(await approveAuthorization(url)).searchParams.get('code')!;
    const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: pkce.verifier };
    await control('/_emulator/faults', { status: 502, body: 'html', path_prefix: TOKEN_PATH });
    const failed = await tokenRequest(form);
    expect(failed.status).toBe(502);
    expect(String(failed.headers['content-type'])).toMatch(/^text\/html/);
    expect(failed.body).toContain('<html>');
    const redeemed = await tokenRequest(form);
    expect(redeemed.status).toBe(200);
  });

  it('count n fails the next n token requests, then the endpoint answers again', async () => {
    const token = await mintedRefreshToken();
    await control('/_emulator/faults', { status: 502, count: 2, path_prefix: TOKEN_PATH });
    expect((await refresh(token)).status).toBe(502);
    expect((await refresh(token)).status).toBe(502);
    expect((await refresh(token)).status).toBe(200);
  });

  it('429 carries Retry-After', async () => {
    const token = await mintedRefreshToken();
    await control('/_emulator/faults', { status: 429, retry_after: 7, path_prefix: TOKEN_PATH });
    const failed = await refresh(token);
    expect(failed.status).toBe(429);
    expect(failed.headers['retry-after']).toBe('7');
  });

  it('a fault for the API (/api/v1) leaves the token endpoint alone', async () => {
    const token = await mintedRefreshToken();
    await control('/_emulator/faults', { status: 500, path_prefix: '/api/v1' });
    expect((await refresh(token)).status).toBe(200);
  });
});

describe('a truncated answer: the exchange happened, half of its answer is lost', () => {
  it('200 with half a JSON body; the refresh token sent was rotated away', async () => {
    const token = await mintedRefreshToken();
    await control('/_emulator/faults', { body: 'truncated', path_prefix: TOKEN_PATH });
    const cut = await refresh(token);
    expect(cut.status).toBe(200);
    expect(() => JSON.parse(cut.body)).toThrow();
    expect(cut.body.startsWith('{"access_token":')).toBe(true);
    const replay = await refresh(token);
    expect(replay.status).toBe(400);
    expect(JSON.parse(replay.body)).toMatchObject({ error: 'invalid_grant' });
  });
});

describe('POST /_emulator/faults/clear: the service recovers', () => {
  it('drops every pending fault and says how many uses were left', async () => {
    const token = await mintedRefreshToken();
    await control('/_emulator/faults', { status: 502, count: 5, path_prefix: TOKEN_PATH });
    expect((await refresh(token)).status).toBe(502);
    const cleared = await control('/_emulator/faults/clear', {});
    expect(cleared.status).toBe(200);
    expect(JSON.parse(cleared.body)).toEqual({ cleared: 4, pending: [] });
    expect((await refresh(token)).status).toBe(200);
  });
});

describe('POST /_emulator/token-answers: a token endpoint that answers other than spec 5.5 (test control)', () => {
  it('token_type: the next successful answer names it; the one after says Bearer again', async () => {
    const token = await mintedRefreshToken();
    expect((await control('/_emulator/token-answers', { token_type: 'mac' })).status).toBe(200);
    const odd = JSON.parse((await refresh(token)).body) as { token_type: string; refresh_token: string };
    expect(odd.token_type).toBe('mac');
    const next = JSON.parse((await refresh(odd.refresh_token)).body) as { token_type: string };
    expect(next.token_type).toBe('Bearer');
  });

  it('scope: the code is redeemed for fewer scopes than were approved, and the API enforces them', async () => {
    const pkce = newPkcePair();
    const url = authorizeUrl(emulator.url, {
      clientId: emulator.clientId,
      redirectUri: REDIRECT,
      scope: 'store:read orders:read offline_access',
      state: 's',
      challenge: pkce.challenge,
    });
    const code = new URL(await approveAuthorization(url)).searchParams.get('code')!;
    await control('/_emulator/token-answers', { scope: 'store:read offline_access' });
    const answer = JSON.parse(
      (
        await tokenRequest({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT,
          code_verifier: pkce.verifier,
        })
      ).body,
    ) as { access_token: string; scope: string };
    expect(answer.scope).toBe('store:read offline_access');
    const orders = await httpRequest(emulator.url + '/api/v1/orders', {
      headers: { Authorization: `Bearer ${answer.access_token}` },
    });
    expect(orders.status).toBe(403);
    expect(JSON.parse(orders.body)).toMatchObject({ error: { code: 'insufficient_scope' } });
  });

  it('refuses an unknown field or scope, and is forgotten by /_emulator/reset', async () => {
    expect((await control('/_emulator/token-answers', { token_types: 'mac' })).status).toBe(400);
    expect((await control('/_emulator/token-answers', { scope: 'orders:write' })).status).toBe(400);
    await control('/_emulator/token-answers', { token_type: 'mac' });
    await control('/_emulator/reset', {});
    const token = await mintedRefreshToken();
    expect(JSON.parse((await refresh(token)).body)).toMatchObject({ token_type: 'Bearer' });
  });
});
