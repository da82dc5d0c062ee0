/** The client's own failures: no answer, an unreadable answer, a redirect, the hourly reserve reached. */
import { ApiError, resumeText, type ApiErrorDetails } from './api-error';

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
