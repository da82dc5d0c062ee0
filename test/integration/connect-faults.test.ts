/**
 * The token endpoint failing on the service side (POST /_emulator/faults on
 * /api/auth/oauth2/token): a failed code exchange shows the plain-words server-error page and
 * saves nothing; a failed scheduled refresh loses nothing, and the connection works again once
 * the service recovers. Built add-on in the local runtime; needs dist/ (npm run build).
 */
import { connectionToken } from '../../dev/harness/tokens';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { issuedTokenValues, leakedTokens, sidebarConnection } from '../../dev/harness/inspect';

const TOKEN_PATH = '/api/auth/oauth2/token';
const HOUR_MS = 3_600_000;

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ orders: 6, seed: 13 });
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(async () => {
  await stack.control('faults/clear', {});
});

function storedRefreshToken(): string | null {
  const token = connectionToken<{ refresh_token?: string }>(stack.runtime);
  return token ? String(token.refresh_token) : null;
}

/** Token-endpoint answers the emulator gave, by HTTP status. */
async function tokenAnswers(): Promise<Record<string, number>> {
  const stats = (await stack.control('stats')) as {
    by_endpoint: Record<string, { by_status: Record<string, number> }>;
  };
  return stats.by_endpoint[`POST ${TOKEN_PATH}`]?.by_status ?? {};
}

describe('the code exchange meets a server error', () => {
  it.each([
    ['500 with a JSON error', { status: 500 }],
    ['502 with an HTML page', { status: 502, body: 'html' }],
  ])('%s: the server-error page in plain words, nothing saved', async (_name, fault) => {
    await stack.runtime.run('disconnectStore', [], { authMode: 'FULL' });
    const documentBefore = stack.runtime.properties.document.all();
    const failedBefore = (await tokenAnswers())[String(fault.status)] ?? 0;
    await stack.control('faults', { ...fault, path_prefix: TOKEN_PATH });

    const result = await stack.connect();
    expect((await tokenAnswers())[String(fault.status)]).toBe(failedBefore + 1);
    expect(result.outcome).toBe('server_error');
    expect(result.html).toContain('Merchant Analytics could not finish connecting');
    expect(result.html).toContain(
      'Something went wrong on the Merchant Analytics side while connecting. Nothing was changed in the spreadsheet.',
    );
    expect(result.html).toContain('click Connect in the Merchant Analytics sidebar to try again');
    // No markup, status line or stack trace from the failed answer reaches the page.
    expect(result.html).not.toContain('<h1>502</h1>');
    expect(result.html).not.toMatch(/Error retrieving token|Token response not valid JSON|at [A-Za-z_.]+ \(/);
    expect(leakedTokens(result.html, await issuedTokenValues(stack.control))).toEqual([]);

    expect(connectionToken(stack.runtime)).toBeNull();
    expect(stack.runtime.properties.document.all()).toEqual(documentBefore);
    expect((await sidebarConnection(stack.runtime)).state).toBe('not_connected');
    // Trying again once the service answers connects.
    expect((await stack.connect()).outcome).toBe('connected');
  });
});

describe('a scheduled refresh meets a 502', () => {
  it('keeps the stored refresh token; once the service recovers the connection works without reconnecting', async () => {
    expect((await stack.connect()).outcome).toBe('connected');
    await stack.advanceClocks(HOUR_MS + 120_000);
    const refreshBefore = storedRefreshToken();
    expect(refreshBefore).not.toBeNull();
    const failedBefore = (await tokenAnswers())['502'] ?? 0;
    // Every token request of this run fails, however many times the add-on tries.
    await stack.control('faults', { status: 502, count: 50, path_prefix: TOKEN_PATH });

    const run = await stack.runtime.run('onScheduledSync', [], { authMode: 'FULL' });
    expect((await tokenAnswers())['502']).toBeGreaterThan(failedBefore);
    expect(storedRefreshToken()).toBe(refreshBefore);
    const value = run.value as { outcome?: string; message?: string } | undefined;
    expect(value?.outcome).toBe('error');
    expect(value?.message).toContain('Nothing was lost');

    await stack.control('faults/clear', {});
    const check = await stack.runtime.run('checkApiConnection', ['trigger'], { authMode: 'FULL' });
    expect(check.value).toMatchObject({ ok: true });
    expect(storedRefreshToken()).not.toBe(refreshBefore);
    expect((await sidebarConnection(stack.runtime)).state).toBe('connected');
  });
});
