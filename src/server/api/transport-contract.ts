/** What the transport is given (its options and where its token comes from) and what it answers. */
import type { ExecutionBudget } from '../platform/budget';
import type { BackoffPolicy } from './backoff';
import type { MetaInfo, PageInfo } from './envelope';
import type { HttpFetcher } from './http';
import type { CacheLike } from './response-cache';

/** Where the transport gets its bearer token; implemented by src/server/auth. */
export interface TokenSource {
  accessToken(): string;
  /** Called at most once per client after a 401 invalid_token; null when no new token can be had. */
  refreshAfterInvalidToken(): string | null;
}

export interface TransportOptions {
  /** The API origin, e.g. https://api.example.com (a trailing /api/v1 is accepted too). */
  baseUrl: string;
  tokens: TokenSource;
  budget: ExecutionBudget;
  /** The document cache for Cache-Control; null/undefined disables response caching. */
  cache?: CacheLike | null;
  /** Separates cached answers of different connections (e.g. the store id); never a token. */
  cacheScope?: string;
  /** Part of response-cache keys only: answers cached under another generation are not read (formulas after a sync). */
  cacheGeneration?: string;
  sleep?: (ms: number) => void;
  fetcher?: HttpFetcher;
  now?: () => number;
  random?: () => number;
  digest?: (text: string) => string;
  backoff?: BackoffPolicy;
  /** Pages are not started while RateLimit-Remaining is below this. */
  pageReserve?: number;
  /** Longest wait for a burst/concurrency/client_global 429 (the budget must allow it too). */
  maxRateLimitWaitMs?: number;
  /** Longest wait for an hour/day 429: these limits never wait long. */
  maxLongLimitWaitMs?: number;
}

export interface TransportStats {
  requests: number;
  retries: number;
  rateLimitWaits: number;
  cacheHits: number;
}

export interface ApiAnswer {
  data: unknown;
  page: PageInfo | null;
  meta: MetaInfo | null;
  rateLimitRemaining: number | null;
  /** Seconds the answer may be reused per Cache-Control, null when not cacheable. */
  maxAgeSeconds: number | null;
}

export interface GetOptions {
  /** A list endpoint: the answer must carry `page`, and the hourly reserve is enforced. */
  list?: boolean;
  /** Look up and store the answer in the document cache when Cache-Control allows. */
  cacheable?: boolean;
}
