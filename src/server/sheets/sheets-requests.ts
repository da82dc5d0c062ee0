/**
 * Every Sheets API request of the add-on goes through `sheetsRequest`:
 * - SpreadsheetApp changes made before it are flushed first: Apps Script applies them lazily and
 *   the Advanced Sheets service does not see pending ones (a write past a grid whose growth is
 *   still pending fails).
 * - Requests are paced under Google's quota of 60 reads and 60 writes a minute per user
 *   (developers.google.com/workspace/sheets/api/limits): at most PACED_PER_MINUTE of each kind in
 *   any 60 s of this execution, leaving room for the user's other executions.
 * - A refusal (429 "Quota exceeded for quota metric …") is a pause, not an error: wait for the
 *   minute to roll over and send again. Only when the execution cannot afford the wait does it
 *   stop with SheetsQuotaPause, which the run reports as partial (the next run continues).
 * - Before a write, the run's held state writes are stored (checkpointRunState).
 * Apps Script starts every execution with fresh globals, so this state is per execution.
 */

import { checkpointRunState } from '../platform/properties';

export type SheetsRequestKind = 'read' | 'write';

const WINDOW_MS = 60_000;
/** Below Google's 60 a minute: other executions of the same user (sidebar polls, formulas) share it. */
export const PACED_PER_MINUTE = 50;
/** After a refusal that this execution's own requests do not explain (another execution sent them). */
const REFUSAL_WAIT_MS = 20_000;
const MAX_REFUSALS_PER_REQUEST = 6;

export class SheetsQuotaPause extends Error {
  constructor(readonly kind: SheetsRequestKind) {
    super(
      `Google's limit of 60 Sheets ${kind} requests a minute was reached near the end of this run. Rows written so far are kept; the next run continues.`,
    );
    this.name = 'SheetsQuotaPause';
  }
}

export interface SheetsPacingStats {
  requests: Record<SheetsRequestKind, number>;
  /** Waits before a request to stay under the pace, and their total. */
  pacedWaits: number;
  /** Refusals answered by Google (each followed by a wait and a retry). */
  refusals: number;
  waitedMs: number;
}

const sent: Record<SheetsRequestKind, number[]> = { read: [], write: [] };
let pendingSpreadsheetChanges = false;
let canWait: (ms: number) => boolean = () => true;
export const sheetsPacing: SheetsPacingStats = {
  requests: { read: 0, write: 0 },
  pacedWaits: 0,
  refusals: 0,
  waitedMs: 0,
};

/** Requests held back to ride together (sheet set-ups), sent before the next Sheets API request. */
let heldBack: Array<() => void> = [];

/**
 * `send` goes before the next Sheets API request (or an explicit sendHeldBack): the set-ups of
 * sheets created one after another then share one batchUpdate instead of one each.
 */
export function holdBack(send: () => void): void {
  heldBack.push(send);
}

/** Sends what was held back now (before SpreadsheetApp looks for a sheet a held-back set-up adds). */
export function sendHeldBack(): void {
  const sends = heldBack;
  heldBack = [];
  for (const send of sends) send();
}

/** A SpreadsheetApp change was made: the next Sheets API request flushes it first. */
export function noteSpreadsheetChange(): void {
  pendingSpreadsheetChanges = true;
}

/** How long this execution may still wait (the sync's budget); by default it may. */
export function setSheetsWaitBudget(check: (ms: number) => boolean): void {
  canWait = check;
}

export function isSheetsQuotaError(e: unknown): boolean {
  const message = e instanceof Error ? e.message : String(e);
  return (
    /Quota exceeded for quota metric '(Read|Write) requests'/.test(message) ||
    (/\b429\b/.test(message) && /sheets/i.test(message))
  );
}

function recent(kind: SheetsRequestKind, now: number): number[] {
  const times = sent[kind];
  while (times.length > 0 && times[0] <= now - WINDOW_MS) times.shift();
  return times;
}

function wait(ms: number, kind: SheetsRequestKind): void {
  if (!canWait(ms)) throw new SheetsQuotaPause(kind);
  Utilities.sleep(ms);
  sheetsPacing.waitedMs += ms;
}

/** Waits until one more request of the kind keeps this execution under the pace. */
function pace(kind: SheetsRequestKind): void {
  const now = Date.now();
  const times = recent(kind, now);
  if (times.length < PACED_PER_MINUTE) return;
  const ms = times[times.length - PACED_PER_MINUTE] + WINDOW_MS - now + 1;
  if (ms <= 0) return;
  sheetsPacing.pacedWaits += 1;
  wait(ms, kind);
}

export function sheetsRequest<T>(kind: SheetsRequestKind, send: () => T): T {
  // What the run wrote of its state before this write is stored before it (the held writes).
  if (kind === 'write') checkpointRunState();
  sendHeldBack();
  if (pendingSpreadsheetChanges) {
    SpreadsheetApp.flush();
    pendingSpreadsheetChanges = false;
  }
  for (let refusals = 0; ; refusals++) {
    pace(kind);
    try {
      const result = send();
      sent[kind].push(Date.now());
      sheetsPacing.requests[kind] += 1;
      return result;
    } catch (e) {
      if (!isSheetsQuotaError(e)) throw e;
      sheetsPacing.refusals += 1;
      if (refusals + 1 >= MAX_REFUSALS_PER_REQUEST) throw new SheetsQuotaPause(kind);
      const times = recent(kind, Date.now());
      const ownWindow = times.length > 0 ? times[0] + WINDOW_MS - Date.now() + 1 : 0;
      wait(Math.max(REFUSAL_WAIT_MS, ownWindow), kind);
    }
  }
}
