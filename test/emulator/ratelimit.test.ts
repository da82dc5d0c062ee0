import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../dev/emulator/index';
import { EmulatorClock } from '../../dev/emulator/clock';
import { apiGet, controlPost } from '../../dev/emulator/oauth/oauth-client';
import { DEFAULT_RATE_LIMITS, RateLimiter, type Admission } from '../../dev/emulator/ratelimit';

/** The emulator clock, frozen between advances so windows are exact. */
class FrozenClock extends EmulatorClock {
  private instant = Date.UTC(2026, 0, 1);
  override now(): number {
    return this.instant;
  }
  override advance(seconds: number): void {
    this.instant += seconds * 1000;
  }
}

/** Admits n requests, releasing each at once (sequential client); returns the last answer. */
function admitSequentially(limiter: RateLimiter, n: number, client = 'c', store = 's'): Admission {
  let last: Admission | undefined;
  for (let i = 0; i < n; i++) {
    last = limiter.admit(client, store);
    if (last.ok) last.release();
  }
  return last!;
}

function rejected(admission: Admission): { reason: string; retryAfterSeconds: number } {
  if (admission.ok) throw new Error('expected a rejection');
  return { reason: admission.reason, retryAfterSeconds: admission.retryAfterSeconds };
}

describe('8.1 defaults are the spec values', () => {
  it('60/min burst, 1,000/hour, 10,000/day, 2 in flight, 200/min per application', () => {
    expect(DEFAULT_RATE_LIMITS).toEqual({
      burstPerMinute: 60,
      hourly: 1000,
      daily: 10_000,
      concurrent: 2,
      clientGlobalPerMinute: 200,
    });
  });
});

describe('8.1 burst: 60 requests per minute per store and application (sliding window)', () => {
  it('admits 60, refuses the 61st with reason burst and the seconds until the oldest frees', () => {
    const clock = new FrozenClock();
    const limiter = new RateLimiter(clock);
    expect(admitSequentially(limiter, 30).ok).toBe(true);
    clock.advance(20);
    expect(admitSequentially(limiter, 30).ok).toBe(true);
    expect(rejected(limiter.admit('c', 's'))).toEqual({ reason: 'burst', retryAfterSeconds: 40 });
    clock.advance(40);
    expect(admitSequentially(limiter, 30).ok).toBe(true);
    expect(rejected(limiter.admit('c', 's')).reason).toBe('burst');
  });

  it('another store of the same application has its own burst budget', () => {
    const limiter = new RateLimiter(new FrozenClock());
    admitSequentially(limiter, 60, 'c', 'a');
    expect(limiter.admit('c', 'a').ok).toBe(false);
    expect(limiter.admit('c', 'b').ok).toBe(true);
  });
});

describe('8.1 hourly: 1,000 requests', () => {
  it('refuses the 1,001st within the hour with reason hour; Retry-After until the oldest frees', () => {
    const clock = new FrozenClock();
    const limiter = new RateLimiter(clock);
    for (let minute = 0; minute < 20; minute++) {
      expect(admitSequentially(limiter, 50).ok).toBe(true);
      clock.advance(60);
    }
    // Now at 20 min: 1,000 used, the first 50 were at 0 min → free at 60 min.
    expect(rejected(limiter.admit('c', 's'))).toEqual({ reason: 'hour', retryAfterSeconds: 40 * 60 });
    clock.advance(40 * 60);
    expect(limiter.admit('c', 's').ok).toBe(true);
  });
});

describe('8.1 daily: 10,000 requests', () => {
  it('refuses with reason day once 10,000 were admitted in 24 h', () => {
    const clock = new FrozenClock();
    const limiter = new RateLimiter(clock, { burstPerMinute: 10_000, hourly: 10_000, clientGlobalPerMinute: 10_000 });
    expect(admitSequentially(limiter, 10_000).ok).toBe(true);
    clock.advance(3600);
    expect(rejected(limiter.admit('c', 's'))).toEqual({ reason: 'day', retryAfterSeconds: 23 * 3600 });
    clock.advance(23 * 3600);
    expect(limiter.admit('c', 's').ok).toBe(true);
  });
});

describe('8.1 concurrency: 2 requests in flight', () => {
  it('refuses a third request while two are unreleased, and admits again after a release', () => {
    const limiter = new RateLimiter(new FrozenClock());
    const first = limiter.admit('c', 's');
    const second = limiter.admit('c', 's');
    expect(first.ok && second.ok).toBe(true);
    expect(rejected(limiter.admit('c', 's'))).toEqual({ reason: 'concurrency', retryAfterSeconds: 1 });
    if (first.ok) {
      first.release();
      first.release();
    }
    const third = limiter.admit('c', 's');
    expect(third.ok).toBe(true);
    expect(limiter.admit('c', 's').ok).toBe(false);
  });

  it('in-flight requests of another store do not count', () => {
    const limiter = new RateLimiter(new FrozenClock());
    limiter.admit('c', 'a');
    limiter.admit('c', 'a');
    expect(limiter.admit('c', 'b').ok).toBe(true);
  });
});

describe('8.1 per application across stores: 200 per minute (client_global)', () => {
  it('refuses with client_global once 200 were admitted across stores within a minute', () => {
    const clock = new FrozenClock();
    const limiter = new RateLimiter(clock);
    for (const store of ['a', 'b', 'c']) admitSequentially(limiter, 60, 'app', store);
    admitSequentially(limiter, 20, 'app', 'd');
    expect(rejected(limiter.admit('app', 'e'))).toEqual({ reason: 'client_global', retryAfterSeconds: 60 });
    expect(limiter.admit('other-app', 'e').ok).toBe(true);
  });
});

describe('8.1 headers of a successful response describe the hourly budget', () => {
  it('RateLimit-Limit, RateLimit-Remaining counting down, RateLimit-Policy', () => {
    const limiter = new RateLimiter(new FrozenClock());
    const first = limiter.admit('c', 's');
    const second = limiter.admit('c', 's');
    if (!first.ok || !second.ok) throw new Error('expected admissions');
    expect(first.headers).toMatchObject({
      'RateLimit-Limit': '1000',
      'RateLimit-Remaining': '999',
      'RateLimit-Policy': '1000;w=3600',
    });
    expect(second.headers['RateLimit-Remaining']).toBe('998');
  });

  it('reset() forgets every window', () => {
    const limiter = new RateLimiter(new FrozenClock());
    admitSequentially(limiter, 60);
    limiter.reset();
    expect(limiter.admit('c', 's').ok).toBe(true);
  });
});

describe('8.1 over HTTP against the emulator: 429 carries Retry-After and X-RateLimit-Reason', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ orders: 20, products: 5, days: 30 });
  });
  afterAll(() => emulator.close());

  it('60 answers with the hourly RateLimit headers counting down, then 429 rate_limited (burst) until the window frees', async () => {
    const minted = await controlPost(emulator.url, '/_emulator/tokens', { scope: 'store:read' });
    const token = String(minted.json['access_token']);
    for (let i = 1; i <= 60; i++) {
      const ok = await apiGet(emulator.url, '/api/v1/account', token);
      expect(ok.status).toBe(200);
      expect(ok.headers['ratelimit-limit']).toBe('1000');
      expect(ok.headers['ratelimit-remaining']).toBe(String(1000 - i));
      expect(ok.headers['ratelimit-policy']).toBe('1000;w=3600');
    }
    const limited = await apiGet(emulator.url, '/api/v1/account', token);
    expect(limited.status).toBe(429);
    expect(limited.json.error?.code).toBe('rate_limited');
    expect(limited.headers['x-ratelimit-reason']).toBe('burst');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    await controlPost(emulator.url, '/_emulator/clock', { advance_seconds: retryAfter });
    const after = await apiGet(emulator.url, '/api/v1/account', token);
    expect(after.status).toBe(200);
    expect(after.headers['ratelimit-remaining']).toBe('939');
  });
});
