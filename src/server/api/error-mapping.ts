/**
 * From an HTTP answer that is not a success to the typed error (spec 5.8 and 7).
 * The error.code decides; when it is missing or unknown, the status decides.
 */
import {
  ApiError,
  ApiErrorDetails,
  ClientNotAuthorizedError,
  CursorFilterMismatchError,
  GrantRevokedError,
  InsufficientScopeError,
  InternalServerError,
  InvalidCursorError,
  InvalidParameterError,
  InvalidTokenClaimsError,
  InvalidTokenError,
  MalformedResponseError,
  MethodNotAllowedError,
  MissingTokenError,
  NotFoundError,
  RateLimitedError,
  RateLimitReason,
  SPEC_ERROR_CODES,
  SpecErrorCode,
} from './errors';

export interface RateLimitHeaders {
  /** Seconds from Retry-After, or null when absent or unreadable. */
  retryAfterSeconds: number | null;
  reason: RateLimitReason | null;
}

const REASONS: readonly RateLimitReason[] = ['burst', 'hour', 'day', 'concurrency', 'client_global'];

/** Parses Retry-After (delta seconds or an HTTP date) and X-RateLimit-Reason. */
export function readRateLimitHeaders(header: (name: string) => string | null, now: number): RateLimitHeaders {
  const rawReason = header('X-RateLimit-Reason');
  const reason =
    rawReason && (REASONS as readonly string[]).includes(rawReason.trim())
      ? (rawReason.trim() as RateLimitReason)
      : null;
  const rawRetry = header('Retry-After');
  let retryAfterSeconds: number | null = null;
  if (rawRetry !== null) {
    const trimmed = rawRetry.trim();
    if (/^\d+(\.\d+)?$/.test(trimmed)) retryAfterSeconds = Number(trimmed);
    else {
      const at = Date.parse(trimmed);
      if (!Number.isNaN(at)) retryAfterSeconds = Math.max(0, Math.ceil((at - now) / 1000));
    }
  }
  return { retryAfterSeconds, reason };
}

/** When Retry-After is absent: a guess per reason, long for the hour and day budgets. */
export function defaultRetryAfterSeconds(reason: RateLimitReason | null): number {
  switch (reason) {
    case 'concurrency':
      return 1;
    case 'hour':
      return 3600;
    case 'day':
      return 86_400;
    default:
      return 60;
  }
}

export interface FailedAnswer {
  status: number;
  /** error.code from the envelope, when the body was a readable error envelope. */
  code: string | null;
  header: (name: string) => string | null;
  now: number;
  /** Short excerpt for the technical message; never pass one for auth failures. */
  detail?: string;
}

export function errorForAnswer(answer: FailedAnswer): ApiError {
  const d: ApiErrorDetails = { status: answer.status, detail: answer.detail };
  const code = knownCode(answer.code) ?? codeForStatus(answer.status);
  if (code === null) return new MalformedResponseError(d);
  return errorForCode(code, answer, d);
}

function errorForCode(code: SpecErrorCode, answer: FailedAnswer, d: ApiErrorDetails): ApiError {
  switch (code) {
    case 'invalid_parameter':
      return new InvalidParameterError(d);
    case 'CURSOR_FILTER_MISMATCH':
      return new CursorFilterMismatchError(d);
    case 'INVALID_CURSOR':
      return new InvalidCursorError(d);
    case 'missing_token':
      return new MissingTokenError(d);
    case 'invalid_token':
      return new InvalidTokenError(d);
    case 'invalid_token_claims':
      return new InvalidTokenClaimsError(d);
    case 'grant_revoked':
      return new GrantRevokedError(d);
    case 'insufficient_scope':
      return new InsufficientScopeError(d);
    case 'client_not_authorized':
      return new ClientNotAuthorizedError(d);
    case 'not_found':
      return new NotFoundError(d);
    case 'method_not_allowed':
      return new MethodNotAllowedError(d);
    case 'rate_limited': {
      const { retryAfterSeconds, reason } = readRateLimitHeaders(answer.header, answer.now);
      const seconds = retryAfterSeconds ?? defaultRetryAfterSeconds(reason);
      return new RateLimitedError({ ...d, retryAt: answer.now + seconds * 1000 }, reason);
    }
    case 'internal_error':
      return new InternalServerError(d);
  }
}

function knownCode(code: string | null): SpecErrorCode | null {
  if (code === null) return null;
  return SPEC_CODE_SET.has(code) ? (code as SpecErrorCode) : null;
}

const SPEC_CODE_SET: ReadonlySet<string> = new Set<string>(SPEC_ERROR_CODES);

/** A body without a known error.code (an HTML page from a proxy, an unknown code): judge by status. */
function codeForStatus(status: number): SpecErrorCode | null {
  if (status === 400) return 'invalid_parameter';
  if (status === 401) return 'invalid_token';
  if (status === 403) return 'insufficient_scope';
  if (status === 404) return 'not_found';
  if (status === 405) return 'method_not_allowed';
  if (status === 429) return 'rate_limited';
  if (status >= 500 && status <= 599) return 'internal_error';
  return null;
}
