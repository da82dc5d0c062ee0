/**
 * Connecting a store (spec 5.1–5.7) end to end: the built add-on in the local runtime, the
 * emulator's authorization server, real HTTP in between. Needs dist/ (npm run build).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveAuthorization } from '../../dev/emulator/oauth/scripted-merchant';
import { readAuthorizationUrl, startStack, type Stack } from '../../dev/harness/index';
import { httpExchange } from '../../dev/harness/http';
import { connectionToken } from '../../dev/harness/tokens';
import { issuedTokenValues, leakedTokens, sidebarConnection, tokenRequestStats } from '../../dev/harness/inspect';

const HOUR_MS = 3_600_000;

interface StoredToken {
  access_token: string;
  refresh_token: string;
  expiresAt: number;
  scope: string;
}

function storedToken(stack: Stack): StoredToken {
  // The connecting user's own store (docs/architecture.md, "Where the connection lives").
  const token = connectionToken<StoredToken>(stack.runtime);
  if (!token) throw new Error('no stored token');
  return token;
}

async function stores(stack: Stack): Promise<Array<{ id: string; name: string }>> {
  return ((await stack.control('truth/stores')) as { data: Array<{ id: string; name: string }> }).data;
}

describe('authorize → consent with a store picked → callback → tokens', () => {
  let stack: Stack;
  const outputs: string[] = [];

  beforeAll(async () => {
    stack = await startStack({ orders: 5, seed: 7 });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('asks for code + S256 with the five scopes, the registered redirect URI and no resource parameter', async () => {
    const url = new URL(await readAuthorizationUrl(stack.runtime));
    outputs.push(url.toString());
    expect(url.origin + url.pathname).toBe(`${stack.apiUrl}/api/auth/oauth2/authorize`);
    const q = url.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe(stack.emulator!.clientId);
    expect(q.get('redirect_uri')).toBe(stack.redirectUri);
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((q.get('scope') ?? '').split(' ').sort()).toEqual(
      ['offline_access', 'orders:read', 'products:read', 'profitability:read', 'store:read'].sort(),
    );
    expect(q.has('resource')).toBe(false);
    expect(q.get('state')).toBeTruthy();
    // Each flow gets a fresh verifier, so two URLs never share a challenge.
    const second = new URL(await readAuthorizationUrl(stack.runtime));
    expect(second.searchParams.get('code_challenge')).not.toBe(q.get('code_challenge'));
  });

  it('connects the store the merchant picked, with Basic as the only client authentication', async () => {
    const picked = (await stores(stack))[1] ?? (await stores(stack))[0]!;
    const before = await tokenRequestStats(stack.control);
    const result = await stack.connect({ storeId: picked.id });
    outputs.push(result.html, result.callbackUrl);
    expect(result.status).toBe(200);
    expect(result.outcome).toBe('connected');
    expect(result.html).toContain(`Connected to ${picked.name}`);

    const after = await tokenRequestStats(stack.control);
    expect(after.byGrantType['authorization_code']).toBe((before.byGrantType['authorization_code'] ?? 0) + 1);
    // The emulator refuses a wrong verifier and secrets sent twice; it counted one Basic per request.
    expect(after.byClientAuthMethod).toEqual({ client_secret_basic: after.total });
    expect(after.failures).toEqual({});

    const token = storedToken(stack);
    expect(token.scope.split(' ')).toContain('offline_access');
    expect(typeof token.refresh_token).toBe('string');
    const seen = await sidebarConnection(stack.runtime);
    expect(seen).toMatchObject({ state: 'connected', storeId: picked.id });
  });

  it('the sidebar with a fresh token takes no lock, so it never waits behind a scheduled sync holding it', async () => {
    const opened = await stack.runtime.run('getSidebarState', [], { authMode: 'FULL' });
    expect(opened.ok, opened.error?.message).toBe(true);
    expect((opened.value as { connection: { state: string } }).connection.state).toBe('connected');
    const lockCalls = Object.keys(opened.counts.byMethod).filter((method) => method.startsWith('Lock.'));
    expect(lockCalls).toEqual([]);
  });

  it('an access token past its hour is refreshed once, by Basic, and the rotated refresh token is stored', async () => {
    const old = storedToken(stack);
    await stack.advanceClocks(HOUR_MS + 60_000);
    const before = await tokenRequestStats(stack.control);
    const check = await stack.runtime.run('checkApiConnection', ['trigger'], { authMode: 'FULL' });
    outputs.push(JSON.stringify(check), ...check.logs, ...check.counts.requests.map((r) => r.url));
    expect(check.ok).toBe(true);
    expect(check.value).toMatchObject({ ok: true });
    const after = await tokenRequestStats(stack.control);
    expect((after.byGrantType['refresh_token'] ?? 0) - (before.byGrantType['refresh_token'] ?? 0)).toBe(1);
    expect(after.byClientAuthMethod).toEqual({ client_secret_basic: after.total });

    const renewed = storedToken(stack);
    expect(renewed.refresh_token).not.toBe(old.refresh_token);
    expect(renewed.access_token).not.toBe(old.access_token);
    // Spec 5.7: the previous refresh token is revoked by the exchange.
    const basic = Buffer.from(`${stack.emulator!.clientId}:${stack.emulator!.clientSecret}`).toString('base64');
    const replay = await httpExchange(`${stack.apiUrl}/api/auth/oauth2/token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `grant_type=refresh_token&refresh_token=${encodeURIComponent(old.refresh_token)}`,
    });
    expect(replay.status).toBe(400);
    expect(JSON.parse(replay.body).error).toBe('invalid_grant');
  });

  it('401 invalid_token on a token the add-on still thought valid → one refresh and one retry', async () => {
    // Only the service's clock moves: the add-on believes its token is fresh, the service does not.
    await stack.control('clock', { advance_seconds: 3_700 });
    const before = await tokenRequestStats(stack.control);
    const check = await stack.runtime.run('checkApiConnection', ['trigger'], { authMode: 'FULL' });
    outputs.push(JSON.stringify(check), ...check.logs);
    expect(check.value).toMatchObject({ ok: true });
    const accountCalls = check.counts.requests.filter((r) => r.url.endsWith('/api/v1/account'));
    expect(accountCalls.map((r) => r.status)).toEqual([401, 200]);
    const after = await tokenRequestStats(stack.control);
    expect((after.byGrantType['refresh_token'] ?? 0) - (before.byGrantType['refresh_token'] ?? 0)).toBe(1);
    stack.runtime.clock.advance(3_700_000);
  });

  it('two executions refreshing at the same moment end with one working refresh token', async () => {
    await stack.advanceClocks(HOUR_MS + 60_000);
    const before = await tokenRequestStats(stack.control);
    const [a, b] = await Promise.all([
      stack.runtime.run('checkApiConnection', ['trigger'], { authMode: 'FULL' }),
      stack.runtime.run('checkApiConnection', ['trigger'], { authMode: 'FULL' }),
    ]);
    outputs.push(JSON.stringify(a), JSON.stringify(b), ...a.logs, ...b.logs);
    expect(a.value).toMatchObject({ ok: true });
    expect(b.value).toMatchObject({ ok: true });
    const after = await tokenRequestStats(stack.control);
    // The second execution re-read the token under the document lock and found it fresh.
    expect((after.byGrantType['refresh_token'] ?? 0) - (before.byGrantType['refresh_token'] ?? 0)).toBe(1);
    expect(after.failures).toEqual(before.failures);

    const issued = (await stack.control('issued-tokens')) as { refresh_tokens: string[] };
    expect(storedToken(stack).refresh_token).toBe(issued.refresh_tokens[issued.refresh_tokens.length - 1]);
    // And the connection still works an hour later.
    await stack.advanceClocks(HOUR_MS + 60_000);
    const later = await stack.runtime.run('checkApiConnection', ['trigger'], { authMode: 'FULL' });
    expect(later.value).toMatchObject({ ok: true });
  });

  it('a custom function with an expired access token makes no token request and says how to fix it', async () => {
    await stack.advanceClocks(HOUR_MS + 60_000);
    const tokenBefore = storedToken(stack);
    const before = await tokenRequestStats(stack.control);
    const run = await stack.runtime.run('checkApiConnection', ['custom_function'], { authMode: 'CUSTOM_FUNCTION' });
    outputs.push(JSON.stringify(run), ...run.logs);
    expect(run.ok).toBe(false);
    expect(run.error?.message).toMatch(/Open Extensions → Merchant Analytics → Open sidebar/);
    expect(run.error?.message).toMatch(/recalculate/);
    expect(run.counts.requests).toEqual([]);
    expect(await tokenRequestStats(stack.control)).toEqual(before);
    expect(storedToken(stack)).toEqual(tokenBefore);

    // The real custom function behaves the same way.
    const formula = await stack.runtime.run(
      'PROFIT_SUMMARY',
      [new Date('2024-01-01T12:00:00Z'), new Date('2024-01-31T12:00:00Z')],
      {
        authMode: 'CUSTOM_FUNCTION',
      },
    );
    outputs.push(JSON.stringify(formula));
    expect(formula.counts.requests.filter((r) => r.url.includes('/oauth2/token'))).toEqual([]);
    expect(await tokenRequestStats(stack.control)).toEqual(before);

    // After the sidebar renews proactively, the custom function works without refreshing.
    await sidebarConnection(stack.runtime);
    const again = await stack.runtime.run('checkApiConnection', ['custom_function'], { authMode: 'CUSTOM_FUNCTION' });
    expect(again.value).toMatchObject({ ok: true });
    expect(again.counts.requests.filter((r) => r.url.includes('/oauth2/token'))).toEqual([]);
  });

  it('no token value appears in pages, logs, URLs, messages or the sheets', async () => {
    const tokens = await issuedTokenValues(stack.control);
    expect(tokens.length).toBeGreaterThan(3);
    const everything = [
      ...outputs,
      JSON.stringify(stack.runtime.exportJson()),
      ...stack.runtime.totals.requests.map((r) => r.url),
    ].join('\n');
    expect(leakedTokens(everything, tokens)).toEqual([]);
  });
});

describe('the callback pages a finance person reads', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ orders: 5, seed: 3 });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('denied consent: nothing connected, no token request, a plain explanation', async () => {
    const result = await stack.connect({ deny: true });
    expect(result.outcome).toBe('denied');
    expect(result.html).toContain('You chose not to allow access');
    expect((await tokenRequestStats(stack.control)).total).toBe(0);
    expect(connectionToken(stack.runtime)).toBeNull();
    expect((await sidebarConnection(stack.runtime)).state).toBe('not_connected');
  });

  it('an approval that expired before the spreadsheet redeemed it: "The sign-in took too long"', async () => {
    const url = await readAuthorizationUrl(stack.runtime);
    const callbackUrl = await approveAuthorization(url, {});
    await stack.control('clock', { advance_seconds: 120 }); // codes live 60 s on the service
    const page = await httpExchange(callbackUrl);
    expect(page.body).toContain('data-outcome="expired"');
    expect(page.body).toContain('The sign-in took too long');
    expect(page.body).toContain('click Connect');
    expect(connectionToken(stack.runtime)).toBeNull();
  });

  it('a state token older than its hour is refused before authCallback runs; nothing is saved', async () => {
    const url = await readAuthorizationUrl(stack.runtime);
    const callbackUrl = await approveAuthorization(url, {});
    stack.runtime.clock.advance(HOUR_MS + 60_000);
    const page = await httpExchange(callbackUrl);
    expect(page.status).toBe(400);
    expect(page.body).toContain('expired');
    expect(connectionToken(stack.runtime)).toBeNull();
    expect((await tokenRequestStats(stack.control)).byGrantType['authorization_code'] ?? 0).toBe(1); // only the expired-code attempt
  });

  it('the authorization server reports an error: says it went wrong on the service side, nothing changed', async () => {
    const url = await readAuthorizationUrl(stack.runtime);
    const approved = new URL(await approveAuthorization(url, {}));
    const state = approved.searchParams.get('state') ?? '';
    const page = await httpExchange(`${stack.redirectUri}?error=server_error&state=${encodeURIComponent(state)}`);
    expect(page.body).toContain('data-outcome="server_error"');
    expect(page.body).toContain('Something went wrong on the Merchant Analytics side');
    expect(page.body).toContain('Nothing was changed');
    expect(connectionToken(stack.runtime)).toBeNull();
    // The next attempt goes through.
    const retry = await stack.connect();
    expect(retry.outcome).toBe('connected');
  });
});
