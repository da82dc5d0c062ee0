import { describe, expect, it } from 'vitest';
import { errorForAnswer, readRateLimitHeaders } from '../../src/server/api/error-mapping';
import * as errors from '../../src/server/api/errors';
import { SPEC_ERROR_CODES, isApiError } from '../../src/server/api/errors';

const noHeaders = (): string | null => null;
const headers = (h: Record<string, string>) => (name: string) =>
  h[Object.keys(h).find((k) => k.toLowerCase() === name.toLowerCase()) ?? ''] ?? null;
const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);

// Spec section 7 (and 5.8): status, error.code, and the action a finance user must take.
const SPEC_TABLE: Array<[number, string, new (...a: never[]) => errors.ApiError, errors.ApiErrorAction]> = [
  [400, 'invalid_parameter', errors.InvalidParameterError, 'fix_request'],
  [400, 'CURSOR_FILTER_MISMATCH', errors.CursorFilterMismatchError, 'retry_later'],
  [400, 'INVALID_CURSOR', errors.InvalidCursorError, 'retry_later'],
  [401, 'missing_token', errors.MissingTokenError, 'reconnect'],
  [401, 'invalid_token', errors.InvalidTokenError, 'refresh'],
  [401, 'invalid_token_claims', errors.InvalidTokenClaimsError, 'reconnect'],
  [401, 'grant_revoked', errors.GrantRevokedError, 'reconnect'],
  [403, 'insufficient_scope', errors.InsufficientScopeError, 'reconnect'],
  [403, 'client_not_authorized', errors.ClientNotAuthorizedError, 'contact_operator'],
  [404, 'not_found', errors.NotFoundError, 'fix_request'],
  [405, 'method_not_allowed', errors.MethodNotAllowedError, 'contact_operator'],
  [429, 'rate_limited', errors.RateLimitedError, 'wait'],
  [500, 'internal_error', errors.InternalServerError, 'retry_later'],
];

describe('spec 7: every error.code maps to its own typed error', () => {
  it('the table covers every code the client knows', () => {
    expect(SPEC_TABLE.map((r) => r[1]).sort()).toEqual([...SPEC_ERROR_CODES].sort());
  });

  it.each(SPEC_TABLE)('%i %s', (status, code, cls, action) => {
    const e = errorForAnswer({ status, code, header: noHeaders, now: NOW });
    expect(e).toBeInstanceOf(cls);
    expect(isApiError(e)).toBe(true);
    expect(e.code).toBe(code);
    expect(e.status).toBe(status);
    expect(e.action).toBe(action);
    expect(e.userMessage.length).toBeGreaterThan(20);
    expect(e.message).toContain(code);
  });

  it('each code has a distinct class', () => {
    expect(new Set(SPEC_TABLE.map((r) => r[2])).size).toBe(SPEC_TABLE.length);
  });

  it('only server-side and rate-limit failures are retryable', () => {
    const retryable = SPEC_TABLE.filter(
      ([s, c]) => errorForAnswer({ status: s, code: c, header: noHeaders, now: NOW }).retryable,
    ).map((r) => r[1]);
    expect(retryable.sort()).toEqual(['internal_error', 'rate_limited']);
  });
});

describe('answers without a known error.code are judged by status', () => {
  it.each([
    [502, 'internal_error'],
    [503, 'internal_error'],
    [500, 'internal_error'],
    [429, 'rate_limited'],
    [404, 'not_found'],
  ])('%i without code -> %s', (status, code) => {
    expect(errorForAnswer({ status, code: null, header: noHeaders, now: NOW }).code).toBe(code);
  });

  it('an unknown code on a 500 is still an internal error', () => {
    expect(errorForAnswer({ status: 500, code: 'weird', header: noHeaders, now: NOW }).code).toBe('internal_error');
  });

  it('a status the spec never names is a malformed answer (retryable)', () => {
    const e = errorForAnswer({ status: 302, code: null, header: noHeaders, now: NOW });
    expect(e).toBeInstanceOf(errors.MalformedResponseError);
    expect(e.retryable).toBe(true);
  });
});

describe('spec 8.1: 429 carries Retry-After and X-RateLimit-Reason', () => {
  it('retryAt = now + Retry-After seconds, with the reason', () => {
    const e = errorForAnswer({
      status: 429,
      code: 'rate_limited',
      header: headers({ 'retry-after': '7', 'X-RateLimit-Reason': 'burst' }),
      now: NOW,
    });
    expect(e).toBeInstanceOf(errors.RateLimitedError);
    expect(e.retryAt).toBe(NOW + 7000);
    expect((e as errors.RateLimitedError).reason).toBe('burst');
    // In the spreadsheet's zone (UTC here: no spreadsheet in a unit test), to the minute rounded up, never a Z string.
    expect(e.userMessage).toContain('resumes after 12:01 on 2025-01-15 (UTC time)');
    expect(e.userMessage).not.toMatch(/\d{2}:\d{2}:\d{2}Z/);
  });

  it('Retry-After as an HTTP date', () => {
    const at = new Date(NOW + 120_000).toUTCString();
    expect(readRateLimitHeaders(headers({ 'Retry-After': at }), NOW).retryAfterSeconds).toBe(120);
  });

  it('an unknown reason is dropped; a missing Retry-After for "hour" assumes the hour', () => {
    expect(readRateLimitHeaders(headers({ 'X-RateLimit-Reason': 'bogus' }), NOW).reason).toBeNull();
    const e = errorForAnswer({
      status: 429,
      code: 'rate_limited',
      header: headers({ 'X-RateLimit-Reason': 'hour' }),
      now: NOW,
    });
    expect(e.retryAt).toBe(NOW + 3600_000);
  });
});

describe('client failures', () => {
  it('invalid_token after a refresh asks to reconnect and names the store switch', () => {
    const e = new errors.InvalidTokenError({ status: 401 }, true);
    expect(e.action).toBe('reconnect');
    expect(e.userMessage).toMatch(/another store/);
  });

  it('the hourly reserve error carries when it resumes', () => {
    const e = new errors.RateLimitBudgetError({ status: 0, retryAt: NOW + 60_000 });
    expect(e.code).toBe('rate_limit_budget');
    expect(e.action).toBe('wait');
    expect(e.retryAt).toBe(NOW + 60_000);
    expect(e.userMessage).toContain('resumes after 12:01 on 2025-01-15 (UTC time)');
  });
});
