/**
 * The transport: one GET at a time (never more than one request in flight per execution; the API
 * allows two), bearer token in the header only, the envelope read defensively, and the failure
 * policy of the spec — backoff for 5xx/network/malformed answers, Retry-After for 429, one
 * refresh for invalid_token, a reserve of the hourly budget, Cache-Control in the document cache.
 */
import { BackoffPolicy, DEFAULT_BACKOFF, backoffDelayMs } from './backoff';
import { excerpt, parseBody } from './envelope';
import { errorForAnswer } from './error-mapping';
import {
  ApiError,
  ApiRedirectedError,
  InvalidTokenError,
  MalformedResponseError,
  NetworkError,
  RateLimitBudgetError,
  RateLimitedError,
  redirectTarget,
} from './errors';
import { DEFAULT_PAGE_RESERVE, readHourlyBudget } from './hourly-budget';
import { HttpAnswer, HttpFetcher, urlFetchFetcher } from './http';
import {
  LOW_BUDGET_KEY,
  MAX_CACHED_BODY_CHARS,
  cacheableSeconds,
  responseCacheKey,
  utilitiesDigest,
} from './response-cache';
import type { ApiAnswer, GetOptions, TransportOptions, TransportStats } from './transport-contract';

const MAX_RATE_LIMIT_WAITS_PER_REQUEST = 3;
const MAX_CONCURRENCY_WAITS_PER_REQUEST = 10;

export class Transport {
  readonly stats: TransportStats = { requests: 0, retries: 0, rateLimitWaits: 0, cacheHits: 0 };
  private readonly apiRoot: string;
  private readonly fetcher: HttpFetcher;
  private readonly sleep: (ms: number) => void;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly backoff: BackoffPolicy;
  private readonly pageReserve: number;
  private token: string | null = null;
  private refreshed = false;
  private hourly: { remaining: number; resetAt: number } | null = null;
  private sharedBudgetRead = false;

  constructor(private readonly options: TransportOptions) {
    this.apiRoot = `${options.baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '')}/api/v1`;
    this.fetcher = options.fetcher ?? urlFetchFetcher();
    this.sleep = options.sleep ?? ((ms) => Utilities.sleep(ms));
    this.now = options.now ?? (() => Date.now());
    this.random = options.random ?? Math.random;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.pageReserve = options.pageReserve ?? DEFAULT_PAGE_RESERVE;
  }

  /** The last RateLimit-Remaining seen, or null before any answer carried one. */
  get rateLimitRemaining(): number | null {
    return this.hourly === null ? null : this.hourly.remaining;
  }

  get(path: string, query: string, opts: GetOptions = {}): ApiAnswer {
    const pathAndQuery = `${path}${query}`;
    const cacheable = opts.cacheable === true && !!this.options.cache;
    if (cacheable) {
      const hit = this.fromCache(this.cacheKey(pathAndQuery), opts);
      if (hit !== null) return hit;
    }
    if (opts.list) this.ensurePageReserve();

    let failures = 0;
    let rateLimitWaits = 0;
    for (;;) {
      const token = this.currentToken();
      let answer: HttpAnswer;
      try {
        this.stats.requests++;
        answer = this.fetcher.fetch({
          url: this.apiRoot + pathAndQuery,
          headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
        });
      } catch {
        // No HTTP answer at all (DNS, reset, timeout); the exception text is not kept: it may echo the request.
        failures = this.backoffOrThrow(new NetworkError({ status: 0 }), failures);
        continue;
      }
      this.noteHourlyBudget(answer);
      const result =
        answer.status >= 200 && answer.status < 300 ? this.readSuccess(answer, opts) : this.readFailure(answer);
      if (!(result instanceof ApiError)) {
        // Keyed with the token that got the answer (a refresh may have replaced it meanwhile).
        if (cacheable && result.maxAgeSeconds !== null)
          this.store(this.cacheKey(pathAndQuery), answer.body, result.maxAgeSeconds);
        return result;
      }
      if (result.code === 'invalid_token') {
        this.refreshOrThrow(result);
        continue;
      }
      if (result instanceof RateLimitedError) {
        rateLimitWaits = this.waitOrThrow(result, rateLimitWaits);
        continue;
      }
      if (!result.retryable) throw result;
      failures = this.backoffOrThrow(result, failures);
    }
  }

  private currentToken(): string {
    if (this.token === null) this.token = this.options.tokens.accessToken();
    return this.token;
  }

  private readSuccess(answer: HttpAnswer, opts: GetOptions): ApiAnswer | ApiError {
    const parsed = parseBody(answer.body);
    const status = answer.status;
    if (parsed.kind !== 'success') {
      const why = parsed.kind === 'unreadable' ? parsed.reason : 'error envelope on a success status';
      return new MalformedResponseError({ status, detail: `${why}: ${excerpt(answer.body)}` });
    }
    if (opts.list && (parsed.page === null || !Array.isArray(parsed.data))) {
      return new MalformedResponseError({
        status,
        detail: parsed.pageInvalid
          ? 'list page with an unusable page object'
          : 'list answer without page or data array',
      });
    }
    if (!opts.list && (typeof parsed.data !== 'object' || parsed.data === null)) {
      return new MalformedResponseError({ status, detail: 'answer without a data object' });
    }
    return {
      data: parsed.data,
      page: parsed.page,
      meta: parsed.meta,
      rateLimitRemaining: this.rateLimitRemaining,
      maxAgeSeconds: cacheableSeconds(answer.header('Cache-Control')),
    };
  }

  private readFailure(answer: HttpAnswer): ApiError {
    if (answer.status >= 300 && answer.status < 400)
      return new ApiRedirectedError({ status: answer.status, location: redirectTarget(answer.header('Location')) });
    const parsed = parseBody(answer.body);
    const isAuth = answer.status === 401 || answer.status === 403;
    let detail: string | undefined;
    if (!isAuth)
      detail =
        parsed.kind === 'error'
          ? parsed.message === null
            ? undefined
            : excerpt(parsed.message)
          : parsed.kind === 'unreadable'
            ? excerpt(answer.body)
            : undefined;
    return errorForAnswer({
      status: answer.status,
      code: parsed.kind === 'error' ? parsed.code : null,
      header: answer.header,
      now: this.now(),
      detail,
    });
  }

  /** Exactly one refresh per client; a second invalid_token (or no new token) means reconnect. */
  private refreshOrThrow(error: ApiError): void {
    if (this.refreshed) throw new InvalidTokenError({ status: error.status }, true);
    this.refreshed = true;
    const fresh = this.options.tokens.refreshAfterInvalidToken();
    if (fresh === null) throw new InvalidTokenError({ status: error.status }, true);
    this.token = fresh;
    this.stats.retries++;
  }

  private backoffOrThrow(error: ApiError, failures: number): number {
    const failed = failures + 1;
    if (failed >= this.backoff.maxAttempts) throw error;
    const delay = backoffDelayMs(failed, this.backoff, this.random);
    if (!this.options.budget.canWait(delay)) throw error;
    this.sleep(delay);
    this.stats.retries++;
    return failed;
  }

  private waitOrThrow(error: RateLimitedError, waits: number): number {
    const concurrency = error.reason === 'concurrency';
    // Executions that collided on the 2-in-flight limit would collide again after the same wait.
    const jitter = concurrency ? Math.round(this.random() * 1000) : 0;
    const waitMs = Math.max(0, (error.retryAt ?? this.now()) - this.now()) + jitter;
    const longLimit = error.reason === 'hour' || error.reason === 'day';
    const cap = longLimit ? (this.options.maxLongLimitWaitMs ?? 5_000) : (this.options.maxRateLimitWaitMs ?? 60_000);
    const maxWaits = concurrency ? MAX_CONCURRENCY_WAITS_PER_REQUEST : MAX_RATE_LIMIT_WAITS_PER_REQUEST;
    if (waits >= maxWaits || waitMs > cap || !this.options.budget.canWait(waitMs)) throw error;
    this.sleep(waitMs);
    this.stats.rateLimitWaits++;
    return waits + 1;
  }

  private noteHourlyBudget(answer: HttpAnswer): void {
    const reading = readHourlyBudget(answer.header, this.now());
    if (reading === null) return;
    this.hourly = reading;
    // Shared with later executions (and custom functions) only once it runs low: one cache write.
    if (reading.remaining < this.pageReserve && this.options.cache) {
      const seconds = Math.ceil((reading.resetAt - this.now()) / 1000);
      if (seconds > 0)
        this.safePut(
          LOW_BUDGET_KEY + (this.options.cacheScope ?? ''),
          JSON.stringify(reading),
          Math.min(seconds, 21_600),
        );
    }
  }

  /**
   * True when a page request would not be sent: fewer than the reserve left of the hour (as this
   * execution saw it, or as an earlier one shared it). A paced feed asks before it waits for the
   * minute, so a run stopped by the reserve is paused for it, not for the burst limit.
   */
  pageReserveReached(): boolean {
    if (this.hourly === null && !this.sharedBudgetRead && this.options.cache) {
      this.sharedBudgetRead = true;
      const shared = safeParse(this.options.cache.get(LOW_BUDGET_KEY + (this.options.cacheScope ?? '')));
      if (
        shared &&
        typeof shared.remaining === 'number' &&
        typeof shared.resetAt === 'number' &&
        shared.resetAt > this.now()
      ) {
        this.hourly = { remaining: shared.remaining, resetAt: shared.resetAt };
      }
    }
    return this.hourly !== null && this.hourly.remaining < this.pageReserve && this.hourly.resetAt > this.now();
  }

  private ensurePageReserve(): void {
    if (this.pageReserveReached()) {
      throw new RateLimitBudgetError({
        status: 0,
        retryAt: this.hourly!.resetAt,
        detail: `RateLimit-Remaining ${this.hourly!.remaining}`,
      });
    }
  }

  /**
   * Cached answers belong to the connection that received them: the scope carries a short digest
   * of the access token (never the token), so after a reconnect — possibly to another store — no
   * answer of the previous connection is served (spec 4.2: account confirms which store a token reads).
   */
  private cacheKey(pathAndQuery: string): string {
    const digest = this.options.digest ?? utilitiesDigest;
    const connection = digest(`connection:${this.currentToken()}`).slice(0, 12);
    const generation = this.options.cacheGeneration === undefined ? '' : `~g${this.options.cacheGeneration}`;
    return responseCacheKey(`${this.options.cacheScope ?? ''}~${connection}${generation}`, pathAndQuery, digest);
  }

  private fromCache(key: string, opts: GetOptions): ApiAnswer | null {
    const cache = this.options.cache;
    if (!cache) return null;
    const body = cache.get(key);
    if (body === null) return null;
    const parsed = parseBody(body);
    if (parsed.kind !== 'success' || (opts.list && parsed.page === null)) return null;
    this.stats.cacheHits++;
    return {
      data: parsed.data,
      page: parsed.page,
      meta: parsed.meta,
      rateLimitRemaining: this.rateLimitRemaining,
      maxAgeSeconds: null,
    };
  }

  private store(key: string, body: string, seconds: number): void {
    if (body.length <= MAX_CACHED_BODY_CHARS) this.safePut(key, body, seconds);
  }

  /** A full or failing cache never fails the request it serves. */
  private safePut(key: string, value: string, seconds: number): void {
    try {
      this.options.cache?.put(key, value, seconds);
    } catch {
      // CacheService rejects oversize values and may be unavailable; the answer is still good.
    }
  }
}

function safeParse(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
