import type { EmulatorClock } from './clock';

/** Spec 8.1. All windows slide (a request counts for exactly 60 s / 1 h / 24 h after it was admitted). */
export interface RateLimits {
  burstPerMinute: number;
  hourly: number;
  daily: number;
  concurrent: number;
  clientGlobalPerMinute: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  burstPerMinute: 60,
  hourly: 1000,
  daily: 10_000,
  concurrent: 2,
  clientGlobalPerMinute: 200,
};

export type RateLimitReason = 'burst' | 'hour' | 'day' | 'concurrency' | 'client_global';

export type Admission =
  | { ok: true; headers: Record<string, string>; release(): void }
  | { ok: false; status: 429; reason: RateLimitReason; retryAfterSeconds: number };

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** A sliding-window log of admission instants. */
class SlidingWindow {
  private times: number[] = [];
  private head = 0;

  constructor(readonly windowMs: number) {}

  count(now: number): number {
    while (this.head < this.times.length && this.times[this.head]! <= now - this.windowMs) this.head++;
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
    return this.times.length - this.head;
  }

  record(now: number): void {
    this.times.push(now);
  }

  /** Milliseconds until the window holds fewer than limit entries (count(now) must be up to date). */
  msUntilBelow(limit: number, now: number): number {
    const count = this.times.length - this.head;
    if (count < limit) return 0;
    const freeing = this.times[this.head + (count - limit)]!;
    return freeing + this.windowMs - now;
  }
}

interface StoreBudget {
  burst: SlidingWindow;
  hour: SlidingWindow;
  day: SlidingWindow;
  inFlight: number;
}

/** Per (application, store) limits plus the per-application limit across stores, on the emulator clock. */
export class RateLimiter {
  readonly limits: RateLimits;
  private budgets = new Map<string, StoreBudget>();
  private clientWindows = new Map<string, SlidingWindow>();

  constructor(
    private readonly clock: EmulatorClock,
    limits: Partial<RateLimits> = {},
  ) {
    this.limits = { ...DEFAULT_RATE_LIMITS, ...limits };
  }

  admit(clientId: string, storeId: string): Admission {
    const now = this.clock.now();
    const budget = this.budget(clientId, storeId);
    const clientWindow = this.clientWindow(clientId);
    // Longest wait first, so one Retry-After is enough to get through.
    const checks: Array<[RateLimitReason, SlidingWindow, number]> = [
      ['day', budget.day, this.limits.daily],
      ['hour', budget.hour, this.limits.hourly],
      ['burst', budget.burst, this.limits.burstPerMinute],
      ['client_global', clientWindow, this.limits.clientGlobalPerMinute],
    ];
    for (const [reason, window, limit] of checks) {
      if (window.count(now) >= limit) {
        return {
          ok: false,
          status: 429,
          reason,
          retryAfterSeconds: Math.max(1, Math.ceil(window.msUntilBelow(limit, now) / 1000)),
        };
      }
    }
    if (budget.inFlight >= this.limits.concurrent)
      return { ok: false, status: 429, reason: 'concurrency', retryAfterSeconds: 1 };

    for (const [, window] of checks) window.record(now);
    budget.inFlight++;
    let released = false;
    const hourUsed = budget.hour.count(now);
    return {
      ok: true,
      headers: {
        'RateLimit-Limit': String(this.limits.hourly),
        'RateLimit-Remaining': String(Math.max(0, this.limits.hourly - hourUsed)),
        'RateLimit-Reset': String(Math.max(0, Math.ceil(budget.hour.msUntilBelow(1, now) / 1000))),
        'RateLimit-Policy': `${this.limits.hourly};w=3600`,
      },
      release: () => {
        if (released) return;
        released = true;
        budget.inFlight--;
      },
    };
  }

  reset(): void {
    this.budgets.clear();
    this.clientWindows.clear();
  }

  private budget(clientId: string, storeId: string): StoreBudget {
    const key = `${clientId}\u0000${storeId}`;
    let budget = this.budgets.get(key);
    if (!budget) {
      budget = {
        burst: new SlidingWindow(MINUTE_MS),
        hour: new SlidingWindow(HOUR_MS),
        day: new SlidingWindow(DAY_MS),
        inFlight: 0,
      };
      this.budgets.set(key, budget);
    }
    return budget;
  }

  private clientWindow(clientId: string): SlidingWindow {
    let window = this.clientWindows.get(clientId);
    if (!window) {
      window = new SlidingWindow(MINUTE_MS);
      this.clientWindows.set(clientId, window);
    }
    return window;
  }
}

/** Headers of a 429 answer (spec 8.1). */
export function rateLimitedHeaders(rejection: {
  reason: RateLimitReason;
  retryAfterSeconds: number;
}): Record<string, string> {
  return { 'Retry-After': String(rejection.retryAfterSeconds), 'X-RateLimit-Reason': rejection.reason };
}
