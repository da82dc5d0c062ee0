/**
 * Every error.code of spec 7 as the emulator really answers it over HTTP, fed through the client's
 * transport: the status, body and headers are recorded from a live request, then replayed to the
 * (synchronous) transport, which must produce the typed error with the right code and action.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../dev/emulator/index';
import { createApiClient, type ApiClient } from '../../src/server/api/client';
import { ApiError, SPEC_ERROR_CODES } from '../../src/server/api/errors';
import { headerLookup, type HttpAnswer, type HttpRequest } from '../../src/server/api/http';
import { ExecutionBudget } from '../../src/server/platform/budget';

let emulator: RunningEmulator;
let token: string;

async function control(path: string, body: unknown = {}): Promise<Record<string, unknown>> {
  const res = await fetch(`${emulator.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

async function mint(body: Record<string, unknown> = {}): Promise<string> {
  return (await control('/_emulator/tokens', body)).access_token as string;
}

/** A live answer from the emulator, recorded for replay. */
async function record(
  path: string,
  init: { token?: string | null; method?: string } = {},
): Promise<HttpAnswer & { headersSeen: Record<string, string> }> {
  const headers: Record<string, string> = {};
  const bearer = init.token === undefined ? token : init.token;
  if (bearer !== null) headers.Authorization = `Bearer ${bearer}`;
  const res = await fetch(`${emulator.url}/api/v1${path}`, { method: init.method ?? 'GET', headers });
  const headersSeen: Record<string, string> = {};
  res.headers.forEach((value, key) => (headersSeen[key] = value));
  return { status: res.status, body: await res.text(), header: headerLookup(headersSeen), headersSeen };
}

/** A client whose every request gets the recorded answer; returns the error it throws. */
function errorFromReplay(answer: HttpAnswer, call: (c: ApiClient) => unknown = (c) => c.account()): ApiError {
  const requests: HttpRequest[] = [];
  const client = createApiClient({
    baseUrl: emulator.url,
    tokens: { accessToken: () => 'tok', refreshAfterInvalidToken: () => null },
    budget: new ExecutionBudget(1_000, 900), // no room to wait or back off: the first typed error surfaces
    sleep: () => undefined,
    transport: { fetcher: { fetch: (r) => (requests.push(r), answer) } },
  });
  try {
    call(client);
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected the replayed answer to fail');
}

beforeAll(async () => {
  emulator = await startEmulator({ orders: 40, seed: 3, plan: 'plus' });
  token = await mint();
});

afterAll(async () => {
  await emulator?.close();
});

describe('spec 7 over HTTP: each error.code the emulator sends becomes its typed error', () => {
  const seen = new Set<string>();

  async function expectCode(answer: HttpAnswer, code: string, action: string): Promise<void> {
    const body = JSON.parse(answer.body) as { error: { code: string } };
    expect(body.error.code).toBe(code); // the emulator really sent this code
    const error = errorFromReplay(answer);
    expect(error.code).toBe(code);
    expect(error.action).toBe(action);
    expect(error.message).not.toContain(token);
    seen.add(code);
  }

  it('invalid_parameter (limit out of range)', async () =>
    expectCode(await record('/orders?limit=9999'), 'invalid_parameter', 'fix_request'));

  it('CURSOR_FILTER_MISMATCH and INVALID_CURSOR', async () => {
    const first = await record('/orders?status=all&limit=5');
    const cursor = (JSON.parse(first.body) as { page: { next_cursor: string } }).page.next_cursor;
    expect(typeof cursor).toBe('string');
    await expectCode(
      await record(`/orders?status=default&limit=5&cursor=${encodeURIComponent(cursor)}`),
      'CURSOR_FILTER_MISMATCH',
      'retry_later',
    );
    await expectCode(await record('/orders?status=all&limit=5&cursor=not-a-cursor'), 'INVALID_CURSOR', 'retry_later');
    // A cursor kept beyond its pagination run (the emulator's run lifetime is 30 minutes).
    await control('/_emulator/clock', { advance_seconds: 31 * 60 });
    token = await mint();
    await expectCode(
      await record(`/orders?status=all&limit=5&cursor=${encodeURIComponent(cursor)}`),
      'INVALID_CURSOR',
      'retry_later',
    );
  });

  it('missing_token, invalid_token, invalid_token_claims', async () => {
    await expectCode(await record('/account', { token: null }), 'missing_token', 'reconnect');
    // the replayed client's token source cannot refresh, so invalid_token ends in "reconnect"
    await expectCode(await record('/account', { token: 'not-a-real-token' }), 'invalid_token', 'reconnect');
    await expectCode(
      await record('/account', { token: await mint({ claims: 'none' }) }),
      'invalid_token_claims',
      'reconnect',
    );
    token = await mint();
  });

  it('insufficient_scope', async () =>
    expectCode(
      await record('/orders', { token: await mint({ scope: 'store:read' }) }),
      'insufficient_scope',
      'reconnect',
    ));

  it('not_found and method_not_allowed', async () => {
    token = await mint();
    await expectCode(await record('/orders/ord_does_not_exist'), 'not_found', 'fix_request');
    await expectCode(await record('/orders', { method: 'POST' }), 'method_not_allowed', 'contact_operator');
  });

  it('rate_limited with Retry-After and X-RateLimit-Reason', async () => {
    await control('/_emulator/faults', {
      status: 429,
      count: 1,
      path_prefix: '/api/v1/account',
      reason: 'hour',
      retry_after: 1800,
    });
    const answer = await record('/account');
    expect(answer.headersSeen['retry-after']).toBe('1800');
    const before = Date.now();
    await expectCode(answer, 'rate_limited', 'wait');
    const error = errorFromReplay(answer);
    expect(error.retryAt! - before).toBeGreaterThanOrEqual(1_799_000);
  });

  it('internal_error', async () => {
    await control('/_emulator/faults', { status: 500, count: 1, path_prefix: '/api/v1/account' });
    await expectCode(await record('/account'), 'internal_error', 'retry_later');
  });

  it('grant_revoked and client_not_authorized (terminal, so last)', async () => {
    await control('/_emulator/client/disable', { disabled: true });
    await expectCode(await record('/account'), 'client_not_authorized', 'contact_operator');
    await control('/_emulator/client/disable', { disabled: false });
    await control('/_emulator/grants/revoke', {});
    await expectCode(await record('/account'), 'grant_revoked', 'reconnect');
  });

  it('covered every code of spec 7', () => {
    expect([...seen].sort()).toEqual([...SPEC_ERROR_CODES].sort());
  });
});

describe('malformed answers the emulator can inject are recognised', () => {
  it('an HTML 502 page and a truncated 200 are malformed/internal, and retryable', async () => {
    token = await mint();
    await control('/_emulator/faults', { status: 502, count: 1, path_prefix: '/api/v1/account', body: 'html' });
    const html = await record('/account');
    expect(html.body).toMatch(/<html/i);
    const e502 = errorFromReplay(html);
    expect(e502.code).toBe('internal_error');
    expect(e502.retryable).toBe(true);
    await control('/_emulator/faults', { status: 200, count: 1, path_prefix: '/api/v1/orders', body: 'truncated' });
    const cut = await record('/orders?limit=3');
    expect(cut.status).toBe(200);
    const eCut = errorFromReplay(cut, (c) => c.listOrders({ limit: 3 }));
    expect(eCut.code).toBe('malformed_response');
    expect(eCut.retryable).toBe(true);
  });
});
