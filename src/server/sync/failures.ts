/**
 * What a failed run means: connection errors mark the connection and pause the schedule; sheet
 * ownership, layout and the cell limit stop the run with their message; the hourly request reserve
 * pauses the run until a known time (a partial run, not a failure); anything else is logged and
 * the next run resumes from the checkpoint.
 */
import { isApiError, RateLimitedError } from '../api';
import { isConnectionError, recordAuthFailure } from '../auth';
import { NotConfiguredError } from '../platform/config';
import { CellLimitError, SheetLayoutError, SheetOwnershipError } from '../sheets/managed-workbook';
import type { SheetPlace } from '../sheets/sheet-tags';
import { SheetsQuotaPause } from '../sheets/sheets-requests';
import { BackfillTooLargeError } from './backfill-check';
import { MissingPermissionError } from './missing-permission';
import { DestinationPause } from './destination-pause';
import { DocumentStoreFullError } from '../platform/document-store-full';
import { isPropertyStoreFull, OwnerCopyFullError } from '../platform/owner-copy-full';
import { resumeTimeText } from '../platform/local-time';
import { pauseCauseText, type PauseCause } from '../../contract/pause-text';

export interface RunFailure {
  code: string;
  userMessage: string;
  /** True when the connection cannot be used until the user reconnects (schedule is paused). */
  connectionLost: boolean;
  /**
   * Set when the run did not fail but paused to keep the API's hourly reserve: epoch ms after
   * which it continues (null when the service gave no time). The run is `partial`, not `error`.
   */
  pausedUntil?: number | null;
  /** What the pause waits for: the add-on's own hourly reserve, or the limit a 429 named (spec 8.1). */
  pauseFor?: PauseCause;
  /** A sheet's problem: which table and column, in the add-on's own words (the sheet tags). */
  place?: SheetPlace;
}

export type { PauseCause };

const CONNECTION_CODES = ['grant_revoked', 'invalid_token_claims', 'client_not_authorized', 'insufficient_scope'];
const BROKEN_STATES = [
  'revoked',
  'store_changed',
  'invalid_claims',
  'missing_scope',
  'lapsed',
  'operator_problem',
  'not_connected',
  'not_configured',
];

/** A failure code that means the connection cannot be used until someone reconnects. */
export function isConnectionLoss(code: string): boolean {
  return CONNECTION_CODES.indexOf(code) >= 0 || BROKEN_STATES.indexOf(code) >= 0;
}

export function classifyFailure(e: unknown): RunFailure {
  if (isApiError(e)) {
    if (e.code === 'rate_limit_budget')
      return {
        code: e.code,
        userMessage: e.userMessage,
        connectionLost: false,
        pausedUntil: e.retryAt,
        pauseFor: 'reserve',
      };
    // A 429 whose wait did not fit the run (an hour or day limit): the sync pauses until Retry-After, it has not failed.
    if (e instanceof RateLimitedError)
      return {
        code: e.code,
        userMessage: e.userMessage,
        connectionLost: false,
        pausedUntil: e.retryAt,
        pauseFor: e.reason ?? 'unnamed',
      };
    if (CONNECTION_CODES.indexOf(e.code) >= 0) {
      const status = recordAuthFailure(e.code);
      return { code: e.code, userMessage: status ? status.message : e.userMessage, connectionLost: true };
    }
    return { code: e.code, userMessage: e.userMessage, connectionLost: false };
  }
  if (e instanceof DestinationPause)
    return {
      code: 'destination_paused',
      userMessage: e.message,
      connectionLost: false,
      pausedUntil: e.pausedUntil,
      pauseFor: e.pauseFor,
    };
  // Google's per-minute Sheets quota is a pause, never a failure: the next run continues.
  if (e instanceof SheetsQuotaPause)
    return { code: 'sheets_quota', userMessage: e.message, connectionLost: false, pausedUntil: null };
  if (isConnectionError(e))
    return { code: e.code, userMessage: e.userMessage, connectionLost: BROKEN_STATES.indexOf(e.code) >= 0 };
  if (e instanceof NotConfiguredError)
    return { code: 'not_configured', userMessage: e.userMessage, connectionLost: true };
  if (e instanceof SheetOwnershipError)
    return { code: 'sheet_owner', userMessage: e.userMessage, connectionLost: false, place: e.place };
  if (e instanceof SheetLayoutError)
    return { code: 'sheet_layout', userMessage: e.userMessage, connectionLost: false, place: e.place };
  if (e instanceof CellLimitError) return { code: 'cell_limit', userMessage: e.message, connectionLost: false };
  if (e instanceof BackfillTooLargeError)
    return { code: 'backfill_too_large', userMessage: e.userMessage, connectionLost: false };
  if (e instanceof MissingPermissionError) return { code: e.code, userMessage: e.userMessage, connectionLost: false };
  if (e instanceof DocumentStoreFullError) return { code: e.code, userMessage: e.userMessage, connectionLost: false };
  // The user's property store full, wherever a run met it: the owner copy's words, never Google's.
  if (e instanceof OwnerCopyFullError || isPropertyStoreFull(e)) {
    const full = e instanceof OwnerCopyFullError ? e : new OwnerCopyFullError();
    return { code: full.code, userMessage: full.userMessage, connectionLost: false };
  }
  const message = e instanceof Error ? e.message : String(e);
  return {
    code: 'internal',
    userMessage: `The sync stopped on an unexpected problem: ${message}. Nothing written so far was lost; the next run continues.`,
    connectionLost: false,
  };
}

/** "14:05 (Europe/Berlin time)": an instant in the spreadsheet's zone, with the day when it is not today there. */
export { resumeTimeText };

/** The Sync log's words for a paused run: why, and when it resumes in the spreadsheet's zone. */
export function pauseMessage(
  pausedUntil: number | null,
  timeZone: string,
  now: number,
  cause: PauseCause = 'reserve',
): string {
  const base = `${pauseCauseText(cause)}. Rows written so far are kept;`;
  if (pausedUntil === null) return `${base} the sync continues at the next run.`;
  return `${base} the sync resumes after ${resumeTimeText(pausedUntil, timeZone, now)}.`;
}
