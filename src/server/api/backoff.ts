/**
 * Capped exponential backoff with jitter for answers worth retrying (500/502, network failures,
 * malformed or truncated bodies). Half the delay is fixed and half random ("equal jitter"), so
 * retries from several executions spread out but never collapse to zero.
 */

export interface BackoffPolicy {
  /** Delay before the first retry, before jitter. */
  baseMs: number;
  /** No single delay exceeds this. */
  capMs: number;
  /** Total attempts for one request, the first included. */
  maxAttempts: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 500, capMs: 8_000, maxAttempts: 5 };

/** Delay before retry number `retry` (1 = first retry); `random` returns [0, 1). */
export function backoffDelayMs(retry: number, policy: BackoffPolicy, random: () => number): number {
  const exponential = Math.min(policy.capMs, policy.baseMs * Math.pow(2, Math.max(0, retry - 1)));
  const half = exponential / 2;
  return Math.round(half + random() * half);
}
