import { describe, expect, it } from 'vitest';
import { DEFAULT_BACKOFF, backoffDelayMs } from '../../src/server/api/backoff';
import { excerpt, parseBody } from '../../src/server/api/envelope';
import { readHourlyBudget } from '../../src/server/api/hourly-budget';
import { buildQuery, pathSegment } from '../../src/server/api/query';
import { cacheableSeconds, responseCacheKey } from '../../src/server/api/response-cache';

describe('backoff: capped exponential with jitter', () => {
  const policy = { baseMs: 500, capMs: 8000, maxAttempts: 6 };
  it('doubles per retry and is capped', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelayMs(n, policy, () => 0.999999))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000,
    ]);
  });
  it('jitter keeps at least half the delay', () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffDelayMs(n, policy, () => 0))).toEqual([250, 500, 1000, 2000, 4000]);
  });
  it('the default schedule fits a custom function (30 s budget) several times over', () => {
    let worst = 0;
    for (let n = 1; n < DEFAULT_BACKOFF.maxAttempts; n++) worst += backoffDelayMs(n, DEFAULT_BACKOFF, () => 0.999999);
    expect(worst).toBeLessThanOrEqual(15_000);
  });
});

describe('query strings built by hand', () => {
  it('encodes keys and values, keeps order, skips null/undefined', () => {
    expect(
      buildQuery([
        ['updated_after', '2025-01-01T00:00:00+01:00'],
        ['status', undefined],
        ['cursor', 'a/b=c&d'],
        ['limit', 250],
      ]),
    ).toBe('?updated_after=2025-01-01T00%3A00%3A00%2B01%3A00&cursor=a%2Fb%3Dc%26d&limit=250');
    expect(buildQuery([['x', null]])).toBe('');
  });
  it("path segments keep the spec's external: form but encode everything else", () => {
    expect(pathSegment('external:12345')).toBe('external:12345');
    expect(pathSegment('ord_1/../x?y')).toBe('ord_1%2F..%2Fx%3Fy');
  });
});

describe('spec 8.5: Cache-Control', () => {
  it.each([
    ['private, max-age=300', 300],
    ['max-age=60', 60],
    ['public, max-age=99999', 21600],
    ['no-store', null],
    ['no-cache, max-age=60', null],
    ['max-age=0', null],
    [null, null],
  ])('%s -> %s', (header, seconds) => {
    expect(cacheableSeconds(header)).toBe(seconds);
  });

  it('keys are path+query within a scope; long keys become a digest under 250 chars', () => {
    expect(
      responseCacheKey('st_1', '/profitability/summary?start_date=2025-01-01&end_date=2025-01-31', () => 'D'),
    ).toBe('ma:st_1:/profitability/summary?start_date=2025-01-01&end_date=2025-01-31');
    const long = responseCacheKey('st_1', `/x?q=${'a'.repeat(400)}`, (t) => `digest-of-${t.length}`);
    expect(long).toBe('ma:st_1:#digest-of-413');
  });
});

describe('spec 2.1: the envelope is read defensively', () => {
  it('a success envelope with a page', () => {
    const parsed = parseBody(
      JSON.stringify({
        success: true,
        data: [],
        page: { has_more: true, next_cursor: 'c1', limit: 250 },
        meta: { history_available_from: '2024-01-01', truncated: true },
      }),
    );
    expect(parsed).toEqual({
      kind: 'success',
      data: [],
      page: { hasMore: true, nextCursor: 'c1', limit: 250 },
      pageInvalid: false,
      meta: { historyAvailableFrom: '2024-01-01', truncated: true },
    });
  });
  it.each([
    ['<html><body>502 Bad Gateway</body></html>'],
    ['{"success":true,"data":[{"id":"ord_1"'],
    [''],
    ['[1,2]'],
    ['{"data":[]}'],
    ['{"success":true}'],
    ['null'],
  ])('unreadable: %s', (body) => {
    expect(parseBody(body).kind).toBe('unreadable');
  });
  it('has_more without a cursor is an unusable page', () => {
    const parsed = parseBody(
      JSON.stringify({ success: true, data: [], page: { has_more: true, next_cursor: null, limit: 1 } }),
    );
    expect(parsed.kind === 'success' && parsed.page === null && parsed.pageInvalid).toBe(true);
  });
  it('an error envelope gives its code', () => {
    expect(parseBody('{"success":false,"error":{"code":"not_found","message":"no"}}')).toEqual({
      kind: 'error',
      code: 'not_found',
      message: 'no',
    });
  });
  it('excerpts drop markup and stop at 200 characters', () => {
    const e = excerpt(`<html><title>Oops</title>${'x'.repeat(500)}</html>`);
    expect(e.length).toBe(200);
    expect(e.startsWith('Oops x')).toBe(true);
  });
});

describe('spec 8.1: the hourly budget from RateLimit-* headers', () => {
  const h = (m: Record<string, string>) => (n: string) => m[n] ?? null;
  it('reads remaining and the policy window', () => {
    expect(readHourlyBudget(h({ 'RateLimit-Remaining': '19', 'RateLimit-Policy': '1000;w=3600' }), 1000)).toEqual({
      remaining: 19,
      resetAt: 1000 + 3600_000,
    });
  });
  it('prefers RateLimit-Reset when sent', () => {
    expect(readHourlyBudget(h({ 'RateLimit-Remaining': '5', 'RateLimit-Reset': '120' }), 0)).toEqual({
      remaining: 5,
      resetAt: 120_000,
    });
  });
  it('absent or garbage is no reading', () => {
    expect(readHourlyBudget(h({}), 0)).toBeNull();
    expect(readHourlyBudget(h({ 'RateLimit-Remaining': 'lots' }), 0)).toBeNull();
  });
});
