/** A sync run that ended on a problem, and what the sidebar asks the user to do about it. Pure. */
import type { UserAction } from '../../contract/sidebar';

/**
 * Sync failures the user fixes in the spreadsheet, not by retrying: room (the sidebar's window
 * offer is the way out) and a managed column moved or renamed (the message names the column and the fix).
 */
const FIX_CODES: readonly string[] = ['cell_limit', 'backfill_too_large', 'sheet_layout', 'sheet_owner'];

/** A sync run that ended on a problem, carried to the sidebar with what to do about it. */
export class SyncStoppedError extends Error {
  constructor(
    readonly code: string,
    readonly userMessage: string,
    readonly action: UserAction,
  ) {
    super(userMessage);
    this.name = 'SyncStoppedError';
  }
}

/** What the user does about a run that stopped on `failureCode`, given the connection state after it. */
export function stopActionOf(
  failureCode: string,
  connection: { state: string; action: UserAction | null },
): { code: string; action: UserAction } {
  if (connection.state !== 'connected') return { code: connection.state, action: connection.action ?? 'retry_later' };
  return { code: failureCode, action: FIX_CODES.indexOf(failureCode) >= 0 ? 'fix_request' : 'retry_later' };
}
