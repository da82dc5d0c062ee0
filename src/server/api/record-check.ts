/**
 * Whether one API record can be turned into cells. A record the sheets cannot
 * hold is skipped on its own, never the page: one poisoned order must not stop every later sync.
 * Iterative on purpose: a value nested 20,000 deep overflows any recursive walk (JSON.stringify of
 * a text cell included), so its depth is measured before a cell is built from it.
 */

import { MAX_VALUE_DEPTH, nestedDeeperThan } from './value-depth';

export const MAX_RECORD_DEPTH = MAX_VALUE_DEPTH;

/** A record a page could not turn into cells: left out of the sheets, named in the Sync log and retried (the skipped records). */
export interface SkippedRecord {
  id: string;
  /** An order's placement day (store zone) when created_at can be read: its tie-out shows ✗. */
  day: string | null;
  reason: string;
}

/** The record's id as the Sync log names it (clipped: it is the API's text). */
export function skippedRecord(record: unknown, day: string | null, error: unknown): SkippedRecord {
  const id = record !== null && typeof record === 'object' ? (record as { id?: unknown }).id : undefined;
  const text = typeof id === 'string' && id !== '' ? id : '(no id)';
  return { id: text.length > 80 ? `${text.slice(0, 79)}…` : text, day, reason: buildFailure(error) };
}

/** Why the record cannot be written, in words for the Sync log; null when it can. */
export function recordProblem(record: unknown): string | null {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return 'not an object';
  const id = (record as { id?: unknown }).id;
  if (typeof id !== 'string' || id === '') return 'no id';
  return depthProblem(record);
}

/** A Daily P&L row (spec 2.9) is keyed by its date: YYYY-MM-DD text, else it cannot be placed. */
export function dayRecordProblem(record: unknown): string | null {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return 'not an object';
  if (dayOfRecord(record) === null) return 'no date';
  return depthProblem(record);
}

/** The row's date when it is YYYY-MM-DD text (String() of an array would walk it, recursively). */
export function dayOfRecord(record: unknown): string | null {
  const date = record !== null && typeof record === 'object' ? (record as { date?: unknown }).date : undefined;
  return typeof date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : null;
}

/** A day the page could not turn into cells, named by its date (the Sync log, the sidebar, its ✗ in Checks). */
export function skippedDay(record: unknown, error: unknown): SkippedRecord {
  const day = dayOfRecord(record);
  return { id: day ?? '(no date)', day, reason: buildFailure(error) };
}

function depthProblem(record: object): string | null {
  return nestedDeeperThan(record, MAX_RECORD_DEPTH) ? `a value nested more than ${MAX_RECORD_DEPTH} levels deep` : null;
}

/** A failure while building a record's cells, as the Sync log says it (a message, never a stack). */
function buildFailure(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** updated_at in epoch ms, NaN when it is not RFC 3339 text (Date.parse of an array would stringify it, recursively). */
export function updatedAtMs(record: unknown): number {
  const value =
    record !== null && typeof record === 'object' ? (record as { updated_at?: unknown }).updated_at : undefined;
  return typeof value === 'string' ? Date.parse(value) : NaN;
}
