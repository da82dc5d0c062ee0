import type { UserAction } from '../../contract/sidebar';
import { messageFor } from './messages';
import type { ConnectionStatus } from './types';

export type ConnectionErrorCode =
  | ConnectionStatus['state']
  | 'token_refresh_failed'
  | 'renewal_deferred'
  | 'renewal_kept'
  | 'custom_function_token_expired'
  | 'another_users_connection'
  | 'google_account_unknown';

/** The connection cannot give a token right now; userMessage says what to do. Never holds a token. */
export class ConnectionError extends Error {
  readonly code: ConnectionErrorCode;
  readonly userMessage: string;
  readonly action: UserAction;

  constructor(code: ConnectionErrorCode, userMessage: string, action: UserAction) {
    super(userMessage);
    this.name = 'ConnectionError';
    this.code = code;
    this.userMessage = userMessage;
    this.action = action;
  }

  static fromStatus(status: ConnectionStatus): ConnectionError {
    return new ConnectionError(status.state, status.message, status.action ?? 'reconnect');
  }
}

export function isConnectionError(e: unknown): e is ConnectionError {
  return e instanceof ConnectionError || (e instanceof Error && e.name === 'ConnectionError' && 'userMessage' in e);
}

/**
 * A custom function found no usable stored token; it must not refresh, so it says when it works
 * again: after the scheduled run that renews it (`nextRun`, as the sidebar says it), or at once
 * with the sidebar.
 */
export function customFunctionTokenExpired(nextRun: string | null = null): ConnectionError {
  const when = nextRun
    ? `It works again after the next scheduled sync renews the access (${nextRun.replace(/\.$/, '')}; Google starts the run at a minute of its choosing): recalculate this cell then, or open Extensions → Merchant Analytics → Open sidebar to renew it now.`
    : 'Open Extensions → Merchant Analytics → Open sidebar (or run Sync now), then recalculate this cell.';
  return new ConnectionError(
    'custom_function_token_expired',
    `Merchant Analytics needs to renew its access before formulas can read data. ${when} Formulas never renew access themselves, so that the connection cannot be lost.`,
    'refresh',
  );
}

/** A transient failure while renewing access (server error, network): nothing was lost. */
export function refreshFailedTemporarily(): ConnectionError {
  return new ConnectionError(
    'token_refresh_failed',
    'Merchant Analytics could not renew its access just now (the service did not answer properly). Nothing was lost; the next sync will try again.',
    'retry_later',
  );
}

export function notConnectedError(): ConnectionError {
  const m = messageFor('not_connected', null, null);
  return new ConnectionError('not_connected', m.message, m.action ?? 'connect');
}

/** The OAuth error code inside the library's "Error retrieving token: <code>, <description>" message. */
export function oauthErrorCode(e: unknown): string | null {
  // The library runs in its own context: its errors are not instances of this context's Error.
  const message =
    typeof e === 'string'
      ? e
      : e !== null && typeof e === 'object' && typeof (e as { message?: unknown }).message === 'string'
        ? (e as { message: string }).message
        : '';
  const match = /^Error retrieving token: ([A-Za-z0-9_]+)/.exec(message);
  return match ? match[1] : null;
}

/**
 * Another editor's connection: this user cannot renew it (the refresh token is theirs) and the
 * access token the document holds has run out.
 */
export function anotherUsersConnection(connectedBy: string | null): ConnectionError {
  const who = connectedBy ? connectedBy : 'another editor';
  return new ConnectionError(
    'another_users_connection',
    `This spreadsheet's connection belongs to ${who}: only their sidebar or scheduled sync renews its access, and it has run out. Ask them to open the Merchant Analytics sidebar, or Reconnect to connect with your own account.`,
    'reconnect',
  );
}

/**
 * Disconnect is the connector's (as the schedule is its setter's): another editor
 * ending it would stop the connector's sync and pause their schedule. Reconnecting is how another
 * editor takes over (the connection and the schedule then become theirs).
 */
export function anotherUsersDisconnect(connectedBy: string): ConnectionError {
  return new ConnectionError(
    'another_users_connection',
    `The connection was made by ${connectedBy}: only they can disconnect it. Ask them to, or Reconnect to connect the store with your own account (the connection and the automatic sync then become yours).`,
    'reconnect',
  );
}
