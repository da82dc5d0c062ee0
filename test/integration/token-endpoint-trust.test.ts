/**
 * What the add-on sends to the token endpoint and what it accepts back.
 * Redirects: a token endpoint that answers with a redirect (307 keeps the POST, 302 may turn it into
 * a GET) is never followed, at Connect's code exchange nor at a refresh: the redirect target
 * receives nothing (no Basic credentials, code, PKCE verifier or refresh token), and the
 * connection shows a set-up problem naming what to fix. Checked answers: one whose token_type is not
 * Bearer (RFC 6749 5.1/7.1, compared case-insensitively) is refused, at the exchange and at a
 * refresh, and its token is never sent to the API; a grant narrower than the scopes asked for
 * (RFC 6749 3.3) shows missing_scope at connect, not Connected.
 * Built add-on in the local runtime against the emulator over HTTP; needs dist/ (npm run build).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connectionToken } from '../../dev/harness/tokens';
import { leakedTokens, sidebarConnection, tokenRequestStats } from '../../dev/harness/inspect';
import { startReliabilityStack, type ReliabilityStack } from '../reliability/support/reliability-stack';
import { tokensIn } from '../reliability/support/verdict';
import { startTokenEndpointFront, type TokenEndpointFront } from './token-endpoint-front';
import { connectionButtons } from '../../src/sidebar/format';
import type { ConnectionView } from '../../src/contract/sidebar';

const HOUR_MS = 3_600_000;

let stack: ReliabilityStack | undefined;
let front: TokenEndpointFront | undefined;

afterEach(async () => {
  await stack?.close();
  await front?.close();
  stack = undefined;
  front = undefined;
});

/** A connected stack whose API address can be moved to a front that redirects token requests. */
async function stackBehindFront(redirectStatus: 302 | 307): Promise<{ s: ReliabilityStack; f: TokenEndpointFront }> {
  const f = (front = await startTokenEndpointFront(redirectStatus));
  // UrlFetchApp may reach both, so a client that follows the redirect really delivers to the recorder.
  const s = (stack = await startReliabilityStack({
    orders: 6,
    seed: 31,
    urlFetchAllow: [`${f.url}/`, `${f.recorderUrl}/`],
  }));
  f.upstream = s.apiUrl;
  return { s, f };
}

async function plainStack(): Promise<ReliabilityStack> {
  return (stack = await startReliabilityStack({ orders: 6, seed: 31 }));
}

/** Document and user properties (the script properties are where the client secret belongs). */
function spreadsheetAndUserProperties(s: ReliabilityStack): string {
  const p = s.runtime.properties;
  return JSON.stringify([p.document.all(), p.user.all()]);
}

/** Requests the emulator's API (/api/v1) served: a token it never accepted must not add to them. */
async function apiRequests(s: ReliabilityStack): Promise<number> {
  const stats = (await s.control('stats')) as { by_endpoint: Record<string, { total: number }> };
  return Object.entries(stats.by_endpoint)
    .filter(([name]) => name.includes('/api/v1/'))
    .reduce((n, [, e]) => n + e.total, 0);
}

async function checkAsTrigger(s: ReliabilityStack) {
  return s.runtime.run('checkApiConnection', ['trigger'], { authMode: 'FULL' });
}

async function disconnect(s: ReliabilityStack): Promise<void> {
  const result = await s.runtime.run('disconnectStore', [], { authMode: 'FULL' });
  expect(result.ok).toBe(true);
}

describe('a token endpoint that redirects is not followed', () => {
  for (const status of [307, 302] as const) {
    it(`${status} at Connect's code exchange: the target receives nothing; a set-up problem naming MA_API_BASE_URL`, async () => {
      const { s, f } = await stackBehindFront(status);
      await disconnect(s);
      const before = await tokenRequestStats(s.control);
      s.runtime.properties.script.set('MA_API_BASE_URL', f.url);

      const page = await s.connect({ storeId: s.storeId });
      expect(f.received).toEqual([]);
      expect(f.redirected).toBe(1);
      expect(page.outcome).toBe('operator');
      expect(page.html).toContain('MA_API_BASE_URL');
      // The code was never redeemed anywhere: the emulator saw no token request either.
      expect((await tokenRequestStats(s.control)).total).toBe(before.total);
      expect(connectionToken(s.runtime)).toBeNull();
      const seen = await sidebarConnection(s.runtime);
      expect(seen).toMatchObject({ state: 'operator_problem', action: 'contact_operator' });
      expect(seen.message).toContain('redirect');
      expect(seen.message).toContain('MA_API_BASE_URL');

      const code = new URL(page.callbackUrl).searchParams.get('code')!;
      const secret = s.runtime.properties.script.get('MA_CLIENT_SECRET')!;
      const recorded = [
        ...s.outputs.filter((o) => o !== page.callbackUrl),
        spreadsheetAndUserProperties(s),
        JSON.stringify(s.runtime.exportJson()),
      ].join('\n');
      expect(leakedTokens(recorded, [code, secret])).toEqual([]);
      expect(await tokensIn(s)).toEqual([]);

      // No store was ever reached: the sidebar offers Connect, and once the operator has fixed
      // the address a Connect goes through.
      expect(seen.storeId).toBeNull();
      expect(connectionButtons({ state: seen.state, store: null, problem: null } as ConnectionView).connect).toBe(true);
      s.runtime.properties.script.set('MA_API_BASE_URL', s.apiUrl);
      expect((await s.connect({ storeId: s.storeId })).outcome).toBe('connected');
      expect((await sidebarConnection(s.runtime)).state).toBe('connected');
    }, 120_000);

    it(`${status} at a refresh: the target receives nothing; the state says what to fix, and the stored refresh token still works once fixed`, async () => {
      const { s, f } = await stackBehindFront(status);
      const stored = connectionToken<{ refresh_token: string }>(s.runtime)!;
      s.runtime.properties.script.set('MA_API_BASE_URL', f.url);
      await s.advanceClocks(HOUR_MS + 60_000);

      const check = await checkAsTrigger(s);
      expect(f.redirected).toBeGreaterThan(0);
      expect(f.received).toEqual([]);
      expect(check.ok && (check.value as { ok: boolean }).ok).toBe(false);
      const seen = await sidebarConnection(s.runtime);
      expect(seen).toMatchObject({ state: 'operator_problem', action: 'contact_operator' });
      expect(seen.message).toContain('MA_API_BASE_URL');
      expect(connectionToken<{ refresh_token: string }>(s.runtime)!.refresh_token).toBe(stored.refresh_token);
      expect(await tokensIn(s)).toEqual([]);

      // The operator fixes the address: the sidebar's check renews with the refresh token it kept.
      s.runtime.properties.script.set('MA_API_BASE_URL', s.apiUrl);
      expect(await sidebarConnection(s.runtime)).toMatchObject({ state: 'connected', storeId: s.storeId });
      expect(f.received).toEqual([]);
    }, 120_000);
  }
});

describe('the token answer is checked before it is used', () => {
  it('token_type "mac" at Connect: refused with a set-up message; nothing stored, nothing sent to the API', async () => {
    const s = await plainStack();
    await disconnect(s);
    const apiBefore = await apiRequests(s);
    await s.control('token-answers', { token_type: 'mac' });

    const page = await s.connect({ storeId: s.storeId });
    expect(page.outcome).toBe('operator');
    expect(page.html).toContain('Bearer');
    expect(await apiRequests(s)).toBe(apiBefore);
    expect(connectionToken(s.runtime)).toBeNull();
    const seen = await sidebarConnection(s.runtime);
    expect(seen).toMatchObject({ state: 'operator_problem', action: 'contact_operator' });
    expect(seen.message).toContain('Bearer');
    expect(await apiRequests(s)).toBe(apiBefore);
  }, 120_000);

  it('at a refresh: "bearer" in any case is accepted, "mac" is refused and its token never reaches the API', async () => {
    const s = await plainStack();
    await s.control('token-answers', { token_type: 'bearer' });
    await s.advanceClocks(HOUR_MS + 60_000);
    expect((await checkAsTrigger(s)).value).toMatchObject({ ok: true, storeId: s.storeId });

    const stored = connectionToken<{ access_token: string }>(s.runtime)!;
    // Until told otherwise: the sidebar's own check below is refused too.
    await s.control('token-answers', { token_type: 'mac', count: 100 });
    await s.advanceClocks(HOUR_MS + 60_000);
    const apiBefore = await apiRequests(s);
    const refreshesBefore = (await tokenRequestStats(s.control)).byGrantType['refresh_token'] ?? 0;
    const check = await checkAsTrigger(s);
    expect((await tokenRequestStats(s.control)).byGrantType['refresh_token']).toBe(refreshesBefore + 1);
    expect(check.ok && (check.value as { ok: boolean }).ok).toBe(false);
    // The refused token was neither stored nor shown to the API.
    expect(connectionToken<{ access_token: string }>(s.runtime)!.access_token).toBe(stored.access_token);
    expect(await apiRequests(s)).toBe(apiBefore);
    const seen = await sidebarConnection(s.runtime);
    expect(seen).toMatchObject({ state: 'operator_problem', action: 'contact_operator' });
    expect(seen.message).toContain('Bearer');
    expect(await apiRequests(s)).toBe(apiBefore);
    expect(await tokensIn(s)).toEqual([]);

    // The server answers Bearer again: the sidebar's check renews with the rotated refresh token the refused answer carried.
    await s.control('token-answers', { token_type: 'Bearer' });
    expect(await sidebarConnection(s.runtime)).toMatchObject({ state: 'connected', storeId: s.storeId });
  }, 120_000);

  it('a grant narrower than asked for at Connect shows missing_scope, not Connected', async () => {
    const s = await plainStack();
    await s.control('token-answers', { scope: 'store:read offline_access' });
    const page = await s.connect({ storeId: s.storeId });
    expect(page.outcome).toBe('missing_scope');
    const seen = await sidebarConnection(s.runtime);
    expect(seen).toMatchObject({ state: 'missing_scope', action: 'reconnect' });
    expect(seen.message).toContain('Click Reconnect and approve all of them');

    // A reconnect that grants every scope clears it.
    expect((await s.connect({ storeId: s.storeId })).outcome).toBe('connected');
    expect(await sidebarConnection(s.runtime)).toMatchObject({ state: 'connected', storeId: s.storeId });
  }, 120_000);
});
