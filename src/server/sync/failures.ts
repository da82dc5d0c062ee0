/**
 * What a failed run means: connection errors mark the connection and stop the schedule; sheet
 * ownership and the cell limit stop the run with their message; anything else is logged and the
 * next run resumes from the checkpoint.
 */
import { isApiError } from '../api';
import { isConnectionError, recordAuthFailure } from '../auth';
import { NotConfiguredError } from '../config';
import { CellLimitError, SheetLayoutError, SheetOwnershipError } from '../sheets/managed-workbook';
import { BackfillTooLargeError } from './backfill-check';

export interface RunFailure {
  code: string;
  userMessage: string;
  /** True when the connection cannot be used until the user reconnects (schedule is stopped). */
  connectionLost: boolean;
}

const CONNECTION_CODES = ['grant_revoked', 'invalid_token_claims', 'client_not_authorized', 'insufficient_scope'];
const BROKEN_STATES = ['revoked', 'store_changed', 'invalid_claims', 'lapsed', 'operator_problem', 'not_connected', 'not_configured'];

export function classifyFailure(e: unknown): RunFailure {
  if (isApiError(e)) {
    if (CONNECTION_CODES.indexOf(e.code) >= 0) {
      const status = recordAuthFailure(e.code);
      return { code: e.code, userMessage: status ? status.message : e.userMessage, connectionLost: true };
    }
    return { code: e.code, userMessage: e.userMessage, connectionLost: false };
  }
  if (isConnectionError(e)) return { code: e.code, userMessage: e.userMessage, connectionLost: BROKEN_STATES.indexOf(e.code) >= 0 };
  if (e instanceof NotConfiguredError) return { code: 'not_configured', userMessage: e.userMessage, connectionLost: true };
  if (e instanceof SheetOwnershipError) return { code: 'sheet_owner', userMessage: e.userMessage, connectionLost: false };
  if (e instanceof SheetLayoutError) return { code: 'sheet_layout', userMessage: e.userMessage, connectionLost: false };
  if (e instanceof CellLimitError) return { code: 'cell_limit', userMessage: e.message, connectionLost: false };
  if (e instanceof BackfillTooLargeError) return { code: 'backfill_too_large', userMessage: e.userMessage, connectionLost: false };
  const message = e instanceof Error ? e.message : String(e);
  return { code: 'internal', userMessage: `The sync stopped on an unexpected problem: ${message}. Nothing written so far was lost; the next run continues.`, connectionLost: false };
}
