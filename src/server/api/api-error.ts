/**
 * The error every API call fails with: its code (an error.code of the API, spec 5.8 and 7, or the
 * client's own), the action to take and a message a finance person understands. Messages are built
 * from fixed text and never from response bodies that could hold secrets.
 */
import { messageTimeZone, resumeTimeText } from '../platform/local-time';

/** Every error.code of spec section 7 (5.8 codes included). */
export const SPEC_ERROR_CODES = [
  'invalid_parameter',
  'CURSOR_FILTER_MISMATCH',
  'INVALID_CURSOR',
  'missing_token',
  'invalid_token',
  'invalid_token_claims',
  'grant_revoked',
  'insufficient_scope',
  'client_not_authorized',
  'not_found',
  'method_not_allowed',
  'rate_limited',
  'internal_error',
] as const;

export type SpecErrorCode = (typeof SPEC_ERROR_CODES)[number];
/** The client's own failures: no answer, an unreadable answer, the hourly reserve reached. */
export type ClientErrorCode = 'network' | 'malformed_response' | 'rate_limit_budget' | 'api_redirected';
export type ApiErrorCode = SpecErrorCode | ClientErrorCode;

export type ApiErrorAction = 'retry_later' | 'refresh' | 'reconnect' | 'wait' | 'contact_operator' | 'fix_request';

export interface ApiErrorDetails {
  status: number;
  /** Epoch ms when the request may be tried again (rate limits), else null. */
  retryAt?: number | null;
  /** Technical detail for logs: never a token, at most a short excerpt of a non-auth body. */
  detail?: string;
}

export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly status: number;
  readonly userMessage: string;
  readonly action: ApiErrorAction;
  readonly retryAt: number | null;
  /** True when the same request may succeed if simply sent again (after backoff). */
  readonly retryable: boolean;

  constructor(
    code: ApiErrorCode,
    action: ApiErrorAction,
    userMessage: string,
    details: ApiErrorDetails,
    retryable = false,
  ) {
    super(
      details.detail
        ? `${userMessage} (${code}, HTTP ${details.status}: ${details.detail})`
        : `${userMessage} (${code}, HTTP ${details.status})`,
    );
    this.name = 'ApiError';
    this.code = code;
    this.status = details.status;
    this.userMessage = userMessage;
    this.action = action;
    this.retryAt = details.retryAt ?? null;
    this.retryable = retryable;
  }
}

/** "after 14:05 (Europe/Berlin time)": the spreadsheet's zone, named; never a UTC string. */
export function resumeText(retryAt: number | null | undefined): string {
  return retryAt == null ? 'shortly' : `after ${resumeTimeText(retryAt, messageTimeZone(), Date.now())}`;
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}
