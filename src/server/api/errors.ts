/**
 * One typed error per error.code of the API (spec 5.8 and 7), each with the action to take; the
 * error they share and the client's own failures are exported from here too.
 */
import { ApiError, resumeText, type ApiErrorDetails } from './api-error';

export * from './api-error';
export * from './client-errors';

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
