/**
 * One typed error per error.code of the API (spec 5.8 and 7), plus the client's own failures.
 * Each carries a message a finance person understands and the action to take. Messages are built
 * here from fixed text and never from response bodies that could hold secrets.
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

export class InvalidParameterError extends ApiError {
  constructor(d: ApiErrorDetails) {
    super(
      'invalid_parameter',
      'fix_request',
      'The service rejected a value in the request. Check the dates and filters you entered.',
      d,
    );
    this.name = 'InvalidParameterError';
  }
}

export class CursorFilterMismatchError extends ApiError {
  constructor(d: ApiErrorDetails) {
    super(
      'CURSOR_FILTER_MISMATCH',
      'retry_later',
      'Paging was interrupted because the filters changed; the sync restarts from its last saved point.',
      d,
    );
    this.name = 'CursorFilterMismatchError';
  }
}

export class InvalidCursorError extends ApiError {
  constructor(d: ApiErrorDetails) {
    super(
      'INVALID_CURSOR',
      'retry_later',
      'The service no longer accepts the paging position; the sync restarts from its last saved point.',
      d,
    );
    this.name = 'InvalidCursorError';
  }
}

export class MissingTokenError extends ApiError {
  constructor(d: ApiErrorDetails) {
    super(
      'missing_token',
      'reconnect',
      'This spreadsheet is not connected to Merchant Analytics. Open the sidebar and connect.',
      d,
    );
    this.name = 'MissingTokenError';
  }
}

export class InvalidTokenError extends ApiError {
  constructor(d: ApiErrorDetails, afterRefresh = false) {
    super(
      'invalid_token',
      afterRefresh ? 'reconnect' : 'refresh',
      afterRefresh
        ? 'The connection is no longer accepted. If this merchant user connected another store since, this connection now reads that other store — reconnect here, or connect the other store with a different merchant user.'
        : 'The access to Merchant Analytics has expired. Open the sidebar to renew it.',
      d,
    );
    this.name = 'InvalidTokenError';
  }
}

export class InvalidTokenClaimsError extends ApiError {
  constructor(d: ApiErrorDetails) {
    super(
      'invalid_token_claims',
      'reconnect',
      'The connection is not tied to a store. Open the sidebar and connect again.',
      d,
    );
    this.name = 'InvalidTokenClaimsError';
  }
}

export class GrantRevokedError extends ApiError {
  constructor(d: ApiErrorDetails) {
    super(
      'grant_revoked',
      'reconnect',
      'The merchant disconnected this add-on (or the workspace has no plan). Open the sidebar and connect again.',
      d,
    );
    this.name = 'GrantRevokedError';
  }
}

export class InsufficientScopeError extends ApiError {
  constructor(d: ApiErrorDetails) {
    super(
      'insufficient_scope',
      'reconnect',
      'The connection lacks a permission this report needs. Connect again and approve every requested permission.',
      d,
    );
    this.name = 'InsufficientScopeError';
  }
}

export class ClientNotAuthorizedError extends ApiError {
  constructor(d: ApiErrorDetails) {
    super(
      'client_not_authorized',
      'contact_operator',
      'This add-on is not enabled at Merchant Analytics. Contact whoever installed it for your organisation.',
      d,
    );
    this.name = 'ClientNotAuthorizedError';
  }
}

export class NotFoundError extends ApiError {
  constructor(d: ApiErrorDetails) {
    super(
      'not_found',
      'fix_request',
      'No such record in this store (or it is older than your plan’s history window).',
      d,
    );
    this.name = 'NotFoundError';
  }
}

export class MethodNotAllowedError extends ApiError {
  constructor(d: ApiErrorDetails) {
    super(
      'method_not_allowed',
      'contact_operator',
      'The add-on sent a request the read-only service does not allow. Please report this.',
      d,
    );
    this.name = 'MethodNotAllowedError';
  }
}

export type RateLimitReason = 'burst' | 'hour' | 'day' | 'concurrency' | 'client_global';

export class RateLimitedError extends ApiError {
  readonly reason: RateLimitReason | null;
  constructor(d: ApiErrorDetails, reason: RateLimitReason | null) {
    super(
      'rate_limited',
      'wait',
      `Merchant Analytics asked us to slow down${reason ? ` (${reason} limit)` : ''}. It resumes ${resumeText(d.retryAt)}.`,
      d,
      true,
    );
    this.name = 'RateLimitedError';
    this.reason = reason;
  }
}

export class InternalServerError extends ApiError {
  constructor(d: ApiErrorDetails) {
    super(
      'internal_error',
      'retry_later',
      'Merchant Analytics had a temporary problem. Try again in a few minutes.',
      d,
      true,
    );
    this.name = 'InternalServerError';
  }
}

export class NetworkError extends ApiError {
  constructor(d: ApiErrorDetails) {
    super('network', 'retry_later', 'Merchant Analytics could not be reached. Try again in a few minutes.', d, true);
    this.name = 'NetworkError';
  }
}

export class MalformedResponseError extends ApiError {
  constructor(d: ApiErrorDetails) {
    super(
      'malformed_response',
      'retry_later',
      'Merchant Analytics sent an incomplete answer. Try again in a few minutes.',
      d,
      true,
    );
    this.name = 'MalformedResponseError';
  }
}

/**
 * The API answered with a redirect: the configured address is not the API's own (http for https,
 * another host or path). Never followed — the bearer token would go along — and not a temporary
 * fault: whoever set up the add-on must change MA_API_BASE_URL to the address it points at.
 */
export class ApiRedirectedError extends ApiError {
  readonly location: string | null;

  constructor(d: ApiErrorDetails & { location: string | null }) {
    super(
      'api_redirected',
      'contact_operator',
      d.location
        ? `The Merchant Analytics address set up for this add-on redirects to ${d.location}. Please ask whoever set up the add-on to change the script property MA_API_BASE_URL to that address; nothing in the spreadsheet needs to change.`
        : 'The Merchant Analytics address set up for this add-on redirects elsewhere. Please ask whoever set up the add-on to check the script property MA_API_BASE_URL; nothing in the spreadsheet needs to change.',
      d,
    );
    this.name = 'ApiRedirectedError';
    this.location = d.location;
  }
}

/** Where a redirect points, without its query or fragment (they could carry anything): origin and path. */
export function redirectTarget(location: string | null): string | null {
  if (location === null) return null;
  const match = /^(https?:\/\/[^/?#\s]+)(\/[^?#\s]*)?/i.exec(location.trim());
  return match ? (match[1] + (match[2] ?? '')).replace(/\/api\/v1(\/.*)?$/i, '').slice(0, 200) : null;
}

/** The hourly request budget is nearly used up: stop before it is gone and resume at retryAt. */
export class RateLimitBudgetError extends ApiError {
  constructor(d: ApiErrorDetails) {
    super(
      'rate_limit_budget',
      'wait',
      `The hourly request allowance is nearly used up. It resumes ${resumeText(d.retryAt)}.`,
      d,
    );
    this.name = 'RateLimitBudgetError';
  }
}

/** "after 14:05 (Europe/Berlin time)": the spreadsheet's zone, named; never a UTC string. */
function resumeText(retryAt: number | null | undefined): string {
  return retryAt == null ? 'shortly' : `after ${resumeTimeText(retryAt, messageTimeZone(), Date.now())}`;
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}
