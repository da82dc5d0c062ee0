import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../dev/emulator/index';
import { apiGet, authorizeUrl, controlPost, newPkcePair, postToken } from '../../dev/emulator/oauth/oauth-client';
import { httpRequest, parseConsentForm } from '../../dev/emulator/oauth/scripted-merchant';

/** The whole OAuth 2.1 + PKCE flow against the real emulator, the way a browser and the add-on drive it. */
const REDIRECT = 'http://127.0.0.1:9/usercallback';
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ orders: 40, products: 10, days: 30, redirectUris: [REDIRECT] });
});
afterAll(() => emulator.close());

async function runFlow(pickStore: (storeIds: string[]) => string) {
  const pkce = newPkcePair();
  const state = 'state-Ω-1';
  const url = authorizeUrl(emulator.url, {
    clientId: emulator.clientId,
    redirectUri: REDIRECT,
    scope: 'store:read orders:read offline_access',
    state,
    challenge: pkce.challenge,
  });
  const page = await httpRequest(url);
  expect(page.status).toBe(200);
  const form = parseConsentForm(page.body, url);
  const storeId = pickStore(form.storeIds);
  const submitted = await httpRequest(form.action, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...form.fields, store_id: storeId, decision: 'approve' }).toString(),
  });
  expect(submitted.status).toBe(302);
  const callback = new URL(String(submitted.headers.location));
  expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);
  expect(callback.searchParams.get('state')).toBe(state);
  const exchanged = await postToken(
    emulator.url,
    {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      redirect_uri: REDIRECT,
      code_verifier: pkce.verifier,
    },
    { clientId: emulator.clientId, clientSecret: emulator.clientSecret },
  );
  expect(exchanged.status).toBe(200);
  return { storeId, access: String(exchanged.json['access_token']), refresh: String(exchanged.json['refresh_token']) };
}

describe('5.3-5.6 full PKCE flow over HTTP against the emulator', () => {
  it('authorize → consent with a store → code → Basic-authenticated exchange → /api/v1/account reads that store', async () => {
    const stores = emulator.state.storeRecords();
    expect(stores.length).toBeGreaterThanOrEqual(2);
    const connected = await runFlow((ids) => ids[1]!);
    expect(connected.storeId).toBe(stores[1]!.id);
    const account = await apiGet(emulator.url, '/api/v1/account', connected.access);
    expect(account.status).toBe(200);
    expect(JSON.stringify(account.json.data)).toContain(stores[1]!.id);
    expect(account.headers['ratelimit-limit']).toBe('1000');
    expect(account.headers['ratelimit-policy']).toBe('1000;w=3600');

    const stats = JSON.parse((await httpRequest(`${emulator.url}/_emulator/stats`)).body) as {
      auth: { token_requests: { by_client_auth_method: Record<string, number> } };
    };
    expect(stats.auth.token_requests.by_client_auth_method).toEqual({ client_secret_basic: 1 });
  });

  it('running the flow again with the other store moves the connection (3.2)', async () => {
    const first = await runFlow((ids) => ids[0]!);
    const second = await runFlow((ids) => ids[1]!);
    const stale = await apiGet(emulator.url, '/api/v1/orders', first.access);
    expect(stale.status).toBe(401);
    expect(stale.json.error?.code).toBe('invalid_token');
    expect(String(stale.headers['www-authenticate'])).toContain('/.well-known/oauth-protected-resource/api/v1');
    expect((await apiGet(emulator.url, '/api/v1/orders', second.access)).status).toBe(200);
  });

  it('the discovery chain from a 401 leads to the token endpoint', async () => {
    const unauthorized = await apiGet(emulator.url, '/api/v1/account');
    expect(unauthorized.json.error?.code).toBe('missing_token');
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(String(unauthorized.headers['www-authenticate']))![1]!;
    const resource = JSON.parse((await httpRequest(metadataUrl)).body) as { authorization_servers: string[] };
    const asMetadata = JSON.parse(
      (await httpRequest(`${resource.authorization_servers[0]}/.well-known/oauth-authorization-server`)).body,
    ) as Record<string, string>;
    expect(asMetadata['token_endpoint']).toBe(`${emulator.url}/api/auth/oauth2/token`);
  });

  it('after a revoke the API answers grant_revoked and no output of the emulator carries a token', async () => {
    const connected = await runFlow((ids) => ids[0]!);
    await controlPost(emulator.url, '/_emulator/grants/revoke', {});
    const revoked = await apiGet(emulator.url, '/api/v1/account', connected.access);
    expect(revoked.json.error?.code).toBe('grant_revoked');
    const refused = await postToken(
      emulator.url,
      { grant_type: 'refresh_token', refresh_token: connected.refresh },
      { clientId: emulator.clientId, clientSecret: emulator.clientSecret },
    );
    expect(refused.json['error']).toBe('invalid_grant');

    const issued = JSON.parse((await httpRequest(`${emulator.url}/_emulator/issued-tokens`)).body) as Record<
      string,
      string[]
    >;
    const secrets = [...issued['access_tokens']!, ...issued['refresh_tokens']!, emulator.clientSecret];
    expect(issued['access_tokens']).toContain(connected.access);
    const outputs = [
      (await httpRequest(`${emulator.url}/_emulator/stats`)).body,
      (await httpRequest(`${emulator.url}/_emulator/grants`)).body,
      JSON.stringify(revoked.json),
      JSON.stringify(refused.json),
    ];
    for (const output of outputs) for (const secret of secrets) expect(output).not.toContain(secret);
  });
});
