import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/server/api/client';
import {
  ApiError,
  GrantRevokedError,
  InternalServerError,
  InvalidTokenError,
  MalformedResponseError,
  NetworkError,
  RateLimitBudgetError,
  RateLimitedError,
} from '../../src/server/api/errors';
import { headerLookup, HttpAnswer, HttpRequest } from '../../src/server/api/http';
import { ExecutionBudget } from '../../src/server/platform/budget';

type Reply = { status: number; body: string; headers?: Record<string, string> } | 'network-failure';

const ok = (data: unknown, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Reply => ({
  status: 200,
  body: JSON.stringify({ success: true, data, ...extra }),
  headers,
});
const fail = (status: number, code: string, headers: Record<string, string> = {}): Reply => ({
  status,
  body: JSON.stringify({ success: false, error: { code, message: `m-${code}` } }),
  headers,
});
const page = (hasMore = false) => ({ page: { has_more: hasMore, next_cursor: hasMore ? 'next1' : null, limit: 100 } });

/** A scripted server plus a virtual clock that only sleeping moves. */
function setup(
  replies: Reply[],
  opts: { limitMs?: number; cache?: Map<string, string>; token?: string; puts?: Array<[string, number]> } = {},
) {
  let clock = 1_700_000_000_000;
  const requests: HttpRequest[] = [];
  const sleeps: number[] = [];
  const refreshes: string[] = [];
  const queue = [...replies];
  const fetcher = {
    fetch(request: HttpRequest): HttpAnswer {
      requests.push(request);
      const reply = queue.shift();
      if (!reply) throw new Error('test server: no reply scripted');
      if (reply === 'network-failure') throw new Error('Address unavailable: http://127.0.0.1/api/v1');
      return { status: reply.status, body: reply.body, header: headerLookup(reply.headers ?? {}) };
    },
  };
  const cache = opts.cache;
  const now = () => clock;
  const client = createApiClient({
    baseUrl: 'http://127.0.0.1:9/',
    tokens: {
      accessToken: () => opts.token ?? 'tok-1',
      refreshAfterInvalidToken: () => {
        refreshes.push('refresh');
        return 'tok-2';
      },
    },
    budget: new ExecutionBudget(opts.limitMs ?? 360_000, undefined, now),
    cache: cache
      ? {
          get: (k) => cache.get(k) ?? null,
          put: (k, v, seconds) => {
            opts.puts?.push([k, seconds]);
            cache.set(k, v);
          },
        }
      : null,
    sleep: (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    transport: { fetcher, now, random: () => 0.5, digest: (t) => createHash('sha256').update(t).digest('base64url') },
  });
  return { client, requests, sleeps, refreshes, remainingReplies: () => queue.length };
}

function caught(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected an ApiError');
}

describe('spec 5.6: bearer header, never the URL', () => {
  it('sends Authorization: Bearer and builds the URL under /api/v1', () => {
    const t = setup([ok({ store: { id: 'st_1' } })]);
    t.client.account();
    expect(t.requests[0].url).toBe('http://127.0.0.1:9/api/v1/account');
    expect(t.requests[0].headers.Authorization).toBe('Bearer tok-1');
    expect(t.requests[0].url).not.toContain('tok-1');
  });
  it('list queries carry every filter', () => {
    const t = setup([ok([], page())]);
    t.client.listOrders({ updatedAfter: '2025-01-01T00:00:00Z', status: 'all', limit: 250, cursor: 'c/1' });
    expect(t.requests[0].url).toBe(
      'http://127.0.0.1:9/api/v1/orders?updated_after=2025-01-01T00%3A00%3A00Z&status=all&limit=250&cursor=c%2F1',
    );
  });
});

describe('spec 7: 500 / 502 / network / malformed answers are retried with backoff', () => {
  it.each<[string, Reply]>([
    ['500 internal_error', fail(500, 'internal_error')],
    ['502 html page', { status: 502, body: '<html><h1>Bad Gateway</h1></html>' }],
    ['network failure', 'network-failure'],
    ['truncated JSON on 200', { status: 200, body: '{"success":true,"data":{"period":' }],
    ['200 without success/data', { status: 200, body: '{"ok":1}' }],
  ])('%s then success', (_name, bad) => {
    const t = setup([bad, bad, ok({ currency: 'USD' })]);
    expect(t.client.summary('2025-01-01', '2025-01-31').currency).toBe('USD');
    expect(t.requests).toHaveLength(3);
    expect(t.sleeps).toEqual([375, 750]);
    expect(t.client.stats.retries).toBe(2);
  });

  it('gives up after maxAttempts with the typed error', () => {
    const t = setup(Array.from({ length: 5 }, () => fail(500, 'internal_error')));
    expect(caught(() => t.client.account())).toBeInstanceOf(InternalServerError);
    expect(t.requests).toHaveLength(5);
  });

  it('does not sleep past the execution budget: throws instead', () => {
    const t = setup([fail(500, 'internal_error'), ok({})], { limitMs: 8_000 });
    // 8 s budget keeps a 2 s reserve; a 375 ms backoff fits, so it retries
    t.client.account();
    const tight = setup([fail(500, 'internal_error'), ok({})], { limitMs: 400 }); // 100 ms reserve: a 375 ms wait does not fit
    expect(caught(() => tight.client.account())).toBeInstanceOf(InternalServerError);
    expect(tight.sleeps).toEqual([]);
  });

  it('a network failure surfaces as NetworkError without the exception text', () => {
    const t = setup(Array.from({ length: 5 }, () => 'network-failure' as const));
    const e = caught(() => t.client.account());
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.message).not.toContain('127.0.0.1');
  });

  it('a list page without `page` is malformed', () => {
    const t = setup(Array.from({ length: 5 }, () => ok([])));
    expect(caught(() => t.client.listOrders({}))).toBeInstanceOf(MalformedResponseError);
  });
});

describe('spec 7: client errors are not retried', () => {
  it('grant_revoked surfaces at once, with no body excerpt', () => {
    const t = setup([fail(401, 'grant_revoked')]);
    const e = caught(() => t.client.account());
    expect(e).toBeInstanceOf(GrantRevokedError);
    expect(e.message).not.toContain('m-grant_revoked');
    expect(t.requests).toHaveLength(1);
    expect(t.refreshes).toEqual([]);
  });
});

describe('spec 5.8: invalid_token -> exactly one refresh and one retry', () => {
  it('refreshes once and retries with the new token', () => {
    const t = setup([fail(401, 'invalid_token'), ok({ id: 'ord_1' })]);
    expect(t.client.getOrder('ord_1').id).toBe('ord_1');
    expect(t.refreshes).toHaveLength(1);
    expect(t.requests.map((r) => r.headers.Authorization)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
  });
  it('a second invalid_token asks to reconnect, without another refresh', () => {
    const t = setup([fail(401, 'invalid_token'), fail(401, 'invalid_token')]);
    const e = caught(() => t.client.account());
    expect(e).toBeInstanceOf(InvalidTokenError);
    expect(e.action).toBe('reconnect');
    expect(t.refreshes).toHaveLength(1);
    expect(t.requests).toHaveLength(2);
  });
});

describe('spec 8.1: 429 Retry-After and X-RateLimit-Reason', () => {
  it('waits Retry-After when it fits the budget, then succeeds', () => {
    const t = setup([fail(429, 'rate_limited', { 'Retry-After': '3', 'X-RateLimit-Reason': 'burst' }), ok({})]);
    t.client.account();
    expect(t.sleeps).toEqual([3000]);
    expect(t.client.stats.rateLimitWaits).toBe(1);
  });
  it('does not wait when Retry-After exceeds the budget: RateLimitedError with retryAt', () => {
    const t = setup([fail(429, 'rate_limited', { 'Retry-After': '40', 'X-RateLimit-Reason': 'burst' })], {
      limitMs: 30_000,
    });
    const e = caught(() => t.client.account());
    expect(e).toBeInstanceOf(RateLimitedError);
    expect(e.retryAt).toBe(1_700_000_000_000 + 40_000);
    expect(t.sleeps).toEqual([]);
  });
  it.each(['hour', 'day'])('reason %s never waits long', (reason) => {
    const t = setup([fail(429, 'rate_limited', { 'Retry-After': '120', 'X-RateLimit-Reason': reason })]);
    const e = caught(() => t.client.account()) as RateLimitedError;
    expect(e.reason).toBe(reason);
    expect(e.retryAt).toBe(1_700_000_000_000 + 120_000);
    expect(t.sleeps).toEqual([]);
  });
});

describe('spec 8.1: a reserve of the hourly budget is kept', () => {
  it('stops starting pages once RateLimit-Remaining < 20, with the reset time', () => {
    const t = setup([
      ok([], page(true), { 'RateLimit-Remaining': '19', 'RateLimit-Policy': '1000;w=3600', 'RateLimit-Reset': '600' }),
    ]);
    const first = t.client.listOrders({ status: 'all' });
    expect(first.rateLimitRemaining).toBe(19);
    const e = caught(() => t.client.listOrders({ status: 'all', cursor: first.nextCursor }));
    expect(e).toBeInstanceOf(RateLimitBudgetError);
    expect(e.retryAt).toBe(1_700_000_000_000 + 600_000);
    expect(t.requests).toHaveLength(1);
  });
  it('the low reading is shared through the cache with the next execution', () => {
    const cache = new Map<string, string>();
    const first = setup([ok([], page(), { 'RateLimit-Remaining': '3', 'RateLimit-Reset': '600' })], { cache });
    first.client.listDaily({ startDate: '2025-01-01', endDate: '2025-01-02' });
    const next = setup([], { cache });
    expect(caught(() => next.client.listOrders({}))).toBeInstanceOf(RateLimitBudgetError);
    expect(next.requests).toHaveLength(0);
  });
});

describe('spec 8.5: Cache-Control honoured in the document cache', () => {
  it('a second summary call is served from cache; errors are never cached', () => {
    const cache = new Map<string, string>();
    const t = setup(
      [fail(500, 'internal_error'), ok({ currency: 'EUR' }, {}, { 'Cache-Control': 'private, max-age=300' })],
      { cache },
    );
    t.client.summary('2025-01-01', '2025-01-31');
    expect([...cache.keys()]).toEqual([
      expect.stringMatching(/^ma:~[\w-]{12}:\/profitability\/summary\?start_date=2025-01-01&end_date=2025-01-31$/),
    ]);
    expect(t.client.summary('2025-01-01', '2025-01-31').currency).toBe('EUR');
    expect(t.requests).toHaveLength(2);
    expect(t.client.stats.cacheHits).toBe(1);
    expect(JSON.stringify([...cache.entries()])).not.toContain('tok-');
  });
  it.each([
    ['account', (c: ReturnType<typeof setup>['client']) => c.account().store.id],
    ['stores', (c: ReturnType<typeof setup>['client']) => c.stores()[0]!.id],
    ['summary', (c: ReturnType<typeof setup>['client']) => c.summary('2025-01-01', '2025-01-31').currency],
  ] as const)('%s: reused for max-age seconds, then asked again', (_name, call) => {
    const cache = new Map<string, string>();
    const puts: Array<[string, number]> = [];
    const data = { store: { id: 'st_1' }, id: 'st_1', currency: 'EUR' };
    const t = setup([ok(_name === 'stores' ? [data] : data, {}, { 'Cache-Control': 'private, max-age=300' })], {
      cache,
      puts,
    });
    const first = call(t.client);
    expect(call(t.client)).toBe(first);
    expect(t.requests).toHaveLength(1);
    expect(puts.map(([, seconds]) => seconds)).toEqual([300]);
  });
  it('a max-age beyond what CacheService keeps is capped at 6 hours', () => {
    const puts: Array<[string, number]> = [];
    const t = setup([ok({ store: { id: 'st_1' } }, {}, { 'Cache-Control': 'max-age=999999' })], {
      cache: new Map(),
      puts,
    });
    t.client.account();
    expect(puts.map(([, seconds]) => seconds)).toEqual([21_600]);
  });
  it("another connection (a reconnect, perhaps to another store) never gets the previous connection's answer", () => {
    const cache = new Map<string, string>();
    const cc = { 'Cache-Control': 'private, max-age=300' };
    const before = setup([ok({ store: { id: 'st_old' } }, {}, cc)], { cache, token: 'tok-old-connection' });
    expect(before.client.account().store.id).toBe('st_old');
    const after = setup([ok({ store: { id: 'st_new' } }, {}, cc)], { cache, token: 'tok-new-connection' });
    expect(after.client.account().store.id).toBe('st_new');
    expect(after.requests).toHaveLength(1);
    expect(JSON.stringify([...cache.entries()])).not.toContain('tok-');
    // The same connection in a later execution (a formula, the next trigger) is served from the cache.
    const again = setup([], { cache, token: 'tok-new-connection' });
    expect(again.client.account().store.id).toBe('st_new');
  });
  it('list pages are never cached, whatever their Cache-Control says', () => {
    const cache = new Map<string, string>();
    const cc = { 'Cache-Control': 'max-age=300' };
    const t = setup([ok([], page(), cc), ok([], page(), cc)], { cache });
    t.client.listOrders({ limit: 10 });
    t.client.listOrders({ limit: 10 });
    expect(t.requests).toHaveLength(2);
    expect(cache.size).toBe(0);
  });
  it('no-store and a missing header are not cached', () => {
    const cache = new Map<string, string>();
    const t = setup([ok({}, {}, { 'Cache-Control': 'no-store' }), ok({})], { cache });
    t.client.account();
    t.client.account();
    expect(cache.size).toBe(0);
    expect(t.requests).toHaveLength(2);
  });
});

describe('spec 8.1: concurrency 429s (other executions in flight) are waited out with jitter', () => {
  it('waits Retry-After plus jitter, more often than for other reasons', () => {
    const busy = fail(429, 'rate_limited', { 'Retry-After': '1', 'X-RateLimit-Reason': 'concurrency' });
    const t = setup([busy, busy, busy, busy, ok({})]);
    t.client.account();
    expect(t.sleeps).toEqual([1500, 1500, 1500, 1500]); // random() = 0.5 -> 500 ms jitter
    expect(t.client.stats.rateLimitWaits).toBe(4);
  });
  it('burst 429s give up after three waits', () => {
    const burst = fail(429, 'rate_limited', { 'Retry-After': '1', 'X-RateLimit-Reason': 'burst' });
    const t = setup([burst, burst, burst, burst, ok({})]);
    expect(caught(() => t.client.account())).toBeInstanceOf(RateLimitedError);
    expect(t.sleeps).toEqual([1000, 1000, 1000]);
  });
});
