/**
 * The stand-in (dev/gas-runtime/libraries/oauth2-standin.ts) and the real apps-script-oauth2
 * v1.43.0 (../shared/vendor) behave the same under the add-on, on the same flows: where the token
 * is stored and in what shape, when it counts as expired, refresh and rotation, two executions
 * refreshing at once (the lock), reset (Disconnect), and what each failure becomes (denied consent,
 * token-endpoint outages, disabled client, revoked grant, with their error texts). Each flow runs
 * once per library on its own stack (same seed); every observation is first checked against the
 * emulator's ground truth (issued tokens, token-endpoint counters), then the two libraries'
 * observations must be equal.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OAUTH2_STANDIN, REAL_OAUTH2_LIBRARY, oauth2Source, startStack, type Stack } from '../../dev/harness/index';
import { issuedTokenValues, sidebarConnection, tokenRequestStats } from '../../dev/harness/inspect';

type Library = 'real' | 'stand-in';
const TOKEN_PATH = '/api/auth/oauth2/token';
const FILES: Record<Library, string> = { real: REAL_OAUTH2_LIBRARY, 'stand-in': OAUTH2_STANDIN };

interface StoredToken {
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
  expiresAt?: number;
}

/** Every library key in any property store, as "store:key" (the add-on decides the store). */
function oauthKeys(stack: Stack): string[] {
  const stores = stack.runtime.properties;
  return (['script', 'document', 'user'] as const).flatMap((name) =>
    stores[name]
      .keys()
      .filter((k) => k.startsWith('oauth2.'))
      .map((k) => `${name}:${k}`),
  );
}

function storedToken(stack: Stack): StoredToken | null {
  const keys = oauthKeys(stack);
  if (keys.length === 0) return null;
  const [store, key] = keys[0]!.split(/:(.*)/s) as ['script' | 'document' | 'user', string];
  return JSON.parse(stack.runtime.properties[store].get(key)!) as StoredToken;
}

async function refreshCount(stack: Stack): Promise<number> {
  return (await tokenRequestStats(stack.control)).byGrantType['refresh_token'] ?? 0;
}

/** The connection check as a trigger runs it: its answer, or the error it ended with (a refused refresh throws). */
async function checkAsTrigger(stack: Stack): Promise<{ ok: boolean; code: string | null; error?: string }> {
  const result = await stack.runtime.run('checkApiConnection', ['trigger'], { authMode: 'FULL' });
  if (!result.ok) return { ok: false, code: null, error: result.error?.message ?? '' };
  const value = result.value as { ok: boolean; code?: string };
  return { ok: value.ok, code: value.code ?? null };
}

/** Moves both clocks so the stored access token has `secondsLeft` to live. */
async function moveToSecondsLeft(stack: Stack, secondsLeft: number): Promise<void> {
  const token = storedToken(stack)!;
  const nowSeconds = Math.floor(stack.runtime.clock.now() / 1000);
  await stack.advanceClocks((token.expiresAt! - secondsLeft - nowSeconds) * 1000);
}

const stacks: Stack[] = [];
async function stackWith(library: Library): Promise<Stack> {
  const stack = await startStack({
    orders: 4,
    seed: 23,
    modelledTimeOnly: true,
    libraries: { OAuth2: FILES[library] },
  });
  stacks.push(stack);
  return stack;
}
afterEach(async () => {
  while (stacks.length > 0) await stacks.pop()!.close();
});

beforeAll(() => {
  // Each stack names its library explicitly; an environment override would make both the same.
  delete process.env['GAS_LIBRARY_OAuth2'];
});

/** Connect, then the token's life: kept while it has more than 60 s, renewed inside the last minute. */
async function connectAndExpire(library: Library) {
  const stack = await stackWith(library);
  const connectedAt = Math.floor(stack.runtime.clock.now() / 1000);
  const connect = await stack.connect();
  const first = storedToken(stack)!;
  const issued = await issuedTokenValues(stack.control);
  const stats = await tokenRequestStats(stack.control);
  const afterConnect = {
    outcome: connect.outcome,
    keys: oauthKeys(stack),
    fields: Object.keys(first).sort(),
    expiresIn: first.expires_in,
    // The library dates the token from the time it was received: now + expires_in (the flow's own seconds aside).
    datedFromReceipt: Math.abs(first.expiresAt! - connectedAt - first.expires_in!) <= 2,
    issuedByEmulator: issued.includes(first.access_token!) && issued.includes(first.refresh_token!),
    clientAuth: stats.byClientAuthMethod,
  };

  await moveToSecondsLeft(stack, 90);
  const refreshesBefore = await refreshCount(stack);
  const with90s = {
    check: await checkAsTrigger(stack),
    refreshed: (await refreshCount(stack)) - refreshesBefore,
    sameToken: storedToken(stack)!.access_token === first.access_token,
  };

  await moveToSecondsLeft(stack, 30);
  const with30s = { check: await checkAsTrigger(stack), refreshed: (await refreshCount(stack)) - refreshesBefore };
  const renewed = storedToken(stack)!;
  const issuedAfter = await issuedTokenValues(stack.control);
  const afterRefresh = {
    ...with30s,
    newAccessToken: renewed.access_token !== first.access_token && issuedAfter.includes(renewed.access_token!),
    rotatedRefreshToken: renewed.refresh_token !== first.refresh_token && issuedAfter.includes(renewed.refresh_token!),
    keys: oauthKeys(stack),
    fields: Object.keys(renewed).sort(),
  };

  // The refresh token the library replaced must never be used again: the emulator refuses a rotated one.
  await moveToSecondsLeft(stack, 30);
  const again = { check: await checkAsTrigger(stack), failures: (await tokenRequestStats(stack.control)).failures };

  // Two executions find the token inside its last minute at once: the lock lets one refresh, the other reads its token.
  await moveToSecondsLeft(stack, 30);
  const beforeRace = await refreshCount(stack);
  const race = await Promise.all([checkAsTrigger(stack), checkAsTrigger(stack)]);
  const concurrent = {
    checks: race,
    refreshed: (await refreshCount(stack)) - beforeRace,
    failures: (await tokenRequestStats(stack.control)).failures,
  };

  const disconnected = await stack.runtime.run('disconnectStore', [], { authMode: 'FULL' });
  const afterReset = {
    ok: disconnected.ok,
    keys: oauthKeys(stack),
    state: (await sidebarConnection(stack.runtime)).state,
    requestsAfter: (await stack.runtime.run('checkApiConnection', ['trigger'], { authMode: 'FULL' })).counts.requests
      .length,
  };
  return { afterConnect, with90s, afterRefresh, again, concurrent, afterReset };
}

/** What each failure becomes: a denied consent, a revoked grant found at refresh, a disabled client at refresh. */
async function failures(library: Library) {
  const stack = await stackWith(library);
  const denied = await stack.connect({ deny: true });
  const deniedView = { outcome: denied.outcome, keys: oauthKeys(stack) };

  expect((await stack.connect()).outcome).toBe('connected');
  // The token endpoint answers an HTML 502 (unreadable: tried again at once, here meeting a JSON 500),
  // then JSON 500s alone: temporary, nothing recorded, the connection stays.
  await stack.control('faults', { path_prefix: TOKEN_PATH, status: 502, body: 'html', count: 1 });
  await stack.control('faults', { path_prefix: TOKEN_PATH, status: 500, count: 1 });
  await moveToSecondsLeft(stack, 30);
  const html = await checkAsTrigger(stack);
  await stack.control('faults/clear', {});
  await stack.control('faults', { path_prefix: TOKEN_PATH, status: 500, count: 3 });
  const json = await checkAsTrigger(stack);
  await stack.control('faults/clear', {});
  const transient = {
    html,
    json,
    afterwards: await checkAsTrigger(stack),
    seen: await sidebarConnection(stack.runtime),
  };

  await stack.control('client/disable', { disabled: true });
  await moveToSecondsLeft(stack, 30);
  const disabledCheck = await checkAsTrigger(stack);
  const disabledFailures = (await tokenRequestStats(stack.control)).failures;
  const disabled = { check: disabledCheck, failures: disabledFailures, seen: await sidebarConnection(stack.runtime) };
  await stack.control('client/disable', { disabled: false });

  expect((await stack.connect()).outcome).toBe('connected');
  await stack.control('grants/revoke', {});
  await moveToSecondsLeft(stack, 30);
  const revokedCheck = await checkAsTrigger(stack);
  const revokedFailures = (await tokenRequestStats(stack.control)).failures;
  const revoked = { check: revokedCheck, failures: revokedFailures, seen: await sidebarConnection(stack.runtime) };
  return { deniedView, transient, disabled, revoked };
}

describe('connect, expiry, refresh, reset: the real library and the stand-in', () => {
  let seen: Record<Library, Awaited<ReturnType<typeof connectAndExpire>>>;
  beforeAll(async () => {
    seen = { real: await connectAndExpire('real'), 'stand-in': await connectAndExpire('stand-in') };
    for (const stack of stacks.splice(0)) await stack.close();
  });

  it.each(['real', 'stand-in'] as const)(
    "%s: the stored token is the emulator's, dated from receipt, authenticated with HTTP Basic only",
    (library) => {
      const c = seen[library].afterConnect;
      expect(c.outcome).toBe('connected');
      expect(c.keys).toHaveLength(1);
      // The connecting user's store, one service per spreadsheet (docs/architecture.md, "Where the connection lives").
      expect(c.keys[0]).toMatch(/^user:oauth2\.merchant-analytics\.[A-Za-z0-9_-]+$/);
      expect(c.fields).toEqual(expect.arrayContaining(['access_token', 'refresh_token', 'expires_in', 'expiresAt']));
      expect(c.issuedByEmulator).toBe(true);
      expect(c.datedFromReceipt).toBe(true);
      expect(c.clientAuth).toEqual({ client_secret_basic: 1 });
    },
  );

  it.each(['real', 'stand-in'] as const)(
    '%s: kept with 90 s left, renewed with 30 s left (60 s buffer); the rotated refresh token is saved',
    (library) => {
      const s = seen[library];
      expect(s.with90s).toEqual({ check: { ok: true, code: null }, refreshed: 0, sameToken: true });
      expect(s.afterRefresh).toMatchObject({
        check: { ok: true, code: null },
        refreshed: 1,
        newAccessToken: true,
        rotatedRefreshToken: true,
      });
      expect(s.afterRefresh.keys).toEqual(s.afterConnect.keys);
      expect(s.again.check).toEqual({ ok: true, code: null });
      expect(s.again.failures).toEqual({});
    },
  );

  it.each(['real', 'stand-in'] as const)(
    '%s: two executions at once in the last minute: one refresh, both served',
    (library) => {
      expect(seen[library].concurrent).toEqual({
        checks: [
          { ok: true, code: null },
          { ok: true, code: null },
        ],
        refreshed: 1,
        failures: {},
      });
    },
  );

  it.each(['real', 'stand-in'] as const)(
    '%s: Disconnect (reset) removes every stored key; nothing is requested afterwards',
    (library) => {
      expect(seen[library].afterReset).toEqual({ ok: true, keys: [], state: 'not_connected', requestsAfter: 0 });
    },
  );

  it('the stand-in observes exactly what the real library does', () => {
    expect(seen['stand-in']).toEqual(seen.real);
  });
});

describe('failures: the real library and the stand-in', () => {
  let seen: Record<Library, Awaited<ReturnType<typeof failures>>>;
  beforeAll(async () => {
    seen = { real: await failures('real'), 'stand-in': await failures('stand-in') };
    for (const stack of stacks.splice(0)) await stack.close();
  });

  it.each(['real', 'stand-in'] as const)(
    '%s: denied keeps nothing; token endpoint 502/500 is temporary; a disabled client is an operator problem; a revoked grant is revoked',
    (library) => {
      const s = seen[library];
      expect(s.deniedView).toEqual({ outcome: 'denied', keys: [] });
      expect(s.transient.html).toMatchObject({
        ok: false,
        error: expect.stringContaining('could not renew its access just now'),
      });
      expect(s.transient.json).toMatchObject({
        ok: false,
        error: expect.stringContaining('could not renew its access just now'),
      });
      expect(s.transient.afterwards).toEqual({ ok: true, code: null });
      expect(s.transient.seen.state).toBe('connected');
      expect(s.disabled.check.ok).toBe(false);
      expect(s.disabled.seen.state).toBe('operator_problem');
      expect(s.disabled.failures).toMatchObject({ invalid_client: 1 });
      expect(s.revoked.check.ok).toBe(false);
      expect(s.revoked.seen.state).toBe('revoked');
      expect(s.revoked.failures).toMatchObject({ invalid_grant: 1 });
    },
  );

  it('the stand-in observes exactly what the real library does', () => {
    expect(seen['stand-in']).toEqual(seen.real);
  });
});

describe('which library the suites run', () => {
  it('a stack started without options loads the real v1.43.0 from ../shared/vendor (the stand-in only when it is absent)', async () => {
    const stack = await startStack({ orders: 1 });
    stacks.push(stack);
    expect(oauth2Source(stack.runtime.libraryFiles)).toBe('real');
    expect(stack.runtime.libraryFiles['OAuth2']).toBe(REAL_OAUTH2_LIBRARY);
  });

  it('each stack of this file runs the library it names', async () => {
    for (const library of ['real', 'stand-in'] as const) {
      const stack = await stackWith(library);
      expect(oauth2Source(stack.runtime.libraryFiles)).toBe(library);
    }
  });
});
