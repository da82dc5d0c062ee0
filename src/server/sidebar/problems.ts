import type { ProblemView } from '../../contract/sidebar';
import { isApiError, type ApiError } from '../api/errors';
import { NotConfiguredError } from '../platform/config';
import type { BrokenReason } from '../auth/types';
import type { ConnectionStatusView } from './ports';

export type { BrokenReason };

/** The state a connection is in after the API refused it, or null when the refusal is not about the connection. */
export function brokenReasonOf(error: ApiError): BrokenReason | null {
  switch (error.code) {
    case 'grant_revoked':
      return 'revoked';
    case 'invalid_token_claims':
      return 'invalid_claims';
    case 'insufficient_scope':
      return 'missing_scope';
    case 'invalid_token':
      // Still invalid after a refresh: the merchant user's connection now reads another store.
      return error.action === 'reconnect' ? 'store_changed' : null;
    default:
      return null;
  }
}

/**
 * The banner for a connection state: auth's message and action; none while connected or simply not
 * connected yet (a copy of a connected spreadsheet is told why it is not).
 */
export function connectionProblem(status: ConnectionStatusView): ProblemView | null {
  if (status.state === 'connected' || status.action === null) return null;
  if (status.state === 'not_connected' && !status.detail) return null;
  return { code: status.state, userMessage: status.message, action: status.action, retryAt: null };
}

/** Any failure as something the sidebar can show: typed errors keep their message and action. */
export function problemOf(error: unknown): ProblemView {
  if (isApiError(error)) {
    return {
      code: error.code,
      userMessage: error.userMessage,
      action: error.action,
      retryAt: error.retryAt === null ? null : new Date(error.retryAt).toISOString(),
    };
  }
  if (error instanceof NotConfiguredError) {
    return { code: error.code, userMessage: error.userMessage, action: 'configure', retryAt: null };
  }
  if (isUserFacing(error)) {
    return {
      code: typeof error.code === 'string' ? error.code : 'internal',
      userMessage: error.userMessage,
      action: error.action,
      retryAt: null,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    code: 'internal',
    userMessage: `Something went wrong in the add-on: ${message}`,
    action: 'retry_later',
    retryAt: null,
  };
}

const ACTIONS: readonly string[] = [
  'retry_later',
  'refresh',
  'reconnect',
  'wait',
  'contact_operator',
  'fix_request',
  'connect',
  'configure',
];

/** Errors of other modules (e.g. auth's ConnectionError) that already carry a user message and an action. */
function isUserFacing(
  error: unknown,
): error is Error & { code?: unknown; userMessage: string; action: ProblemView['action'] } {
  if (!(error instanceof Error)) return false;
  const candidate = error as Error & { userMessage?: unknown; action?: unknown };
  return (
    typeof candidate.userMessage === 'string' &&
    typeof candidate.action === 'string' &&
    ACTIONS.includes(candidate.action)
  );
}
