/**
 * Honouring Cache-Control (spec 8.5) in the document cache: successful bodies only, keyed by path
 * and query (never by token), for at most the 6 h CacheService allows.
 */

export interface CacheLike {
  get(key: string): string | null;
  put(key: string, value: string, expirationInSeconds: number): void;
}

export const MAX_CACHE_SECONDS = 21_600;
/** The hourly budget's reading, shared with later executions once it runs low (not a response). */
export const LOW_BUDGET_KEY = 'ma:hourly-budget-low:';
const MAX_KEY_LENGTH = 250;
/** CacheService values are capped at 100 KB; keep a margin for multi-byte characters. */
export const MAX_CACHED_BODY_CHARS = 90_000;

/** Seconds a response may be reused, or null when it must not be cached. */
export function cacheableSeconds(cacheControl: string | null): number | null {
  if (cacheControl === null) return null;
  const directives = cacheControl
    .toLowerCase()
    .split(',')
    .map((d) => d.trim());
  if (directives.some((d) => d === 'no-store' || d === 'no-cache')) return null;
  let maxAge: number | null = null;
  for (const directive of directives) {
    const match = /^max-age\s*=\s*"?(\d+)"?$/.exec(directive);
    if (match) maxAge = Number(match[1]);
  }
  if (maxAge === null || maxAge <= 0) return null;
  return Math.min(maxAge, MAX_CACHE_SECONDS);
}

/**
 * `ma:<scope>:<path+query>`; a key over CacheService's 250 characters is replaced by a digest.
 * `scope` separates connections (e.g. the store id) and must never be a token.
 */
export function responseCacheKey(scope: string, pathAndQuery: string, digest: (text: string) => string): string {
  const key = `ma:${scope}:${pathAndQuery}`;
  return key.length <= MAX_KEY_LENGTH ? key : `ma:${scope}:#${digest(key)}`;
}

/** SHA-256 in web-safe base64 via Utilities (Apps Script only). */
export function utilitiesDigest(text: string): string {
  return Utilities.base64EncodeWebSafe(
    Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, text, Utilities.Charset.UTF_8),
  );
}
