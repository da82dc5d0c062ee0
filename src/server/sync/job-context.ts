/** What every sync job works with during one execution, and the tally it reports. */
import { clipText } from '../platform/property-size';
import { isApiError, type Page } from '../api';
import type { Order } from '../api/types';
import { instantToLocalDate } from '../platform/calendar';
import { DAILY, ORDERS } from '../sheets/schema';
import { dailyHeaderNote, historyWindowNote } from '../finance/daily-header-note';
import { OTHER_CURRENCY_DAYS_KEY, readOtherCurrencyDays } from '../finance/other-currency-days';
import type { PageContext } from './order-page';
import type { SyncCounts } from '../../contract/sidebar';
import { emptyCounts } from '../../contract/counts-text';
import type { FinanceContext } from '../finance/finance-context';
import type { SkippedState } from '../state/run-records';

export type JobName = 'orders' | 'products' | 'daily' | 'reconcile';

/** Ids skipped in this run, per kind (the skipped records). */
export type RunSkipped = Record<keyof SkippedState, string[]>;

export interface RunTally {
  pages: number;
  /** Rows written, per sheet: what the Sync log row and the sidebar both show. */
  counts: SyncCounts;
  /** Row writes sent (all sheets; a seen-mark of the monthly check included). */
  rows: number;
  /** Records this run could not write, by id (the skipped records). */
  skipped: RunSkipped;
}

export function emptyTally(): RunTally {
  return { pages: 0, counts: emptyCounts(), rows: 0, skipped: { orders: [], products: [], days: [] } };
}

export interface JobContext extends FinanceContext {
  tally: RunTally;
}

/** How far a job's feed is done, when that is known (days of the daily window; never guessed). */
export interface JobPosition {
  done: number;
  total: number;
  unit: 'days';
}

export interface JobResult {
  job: JobName;
  /** True when the job reached the end of its feed in this execution. */
  caughtUp: boolean;
  message: string;
  position?: JobPosition;
}

export const PAGE_LIMIT = 250;
/** The spec's suggested overlap against non-monotonic change markers (4.4 rule 6). */
export const OVERLAP_MS = 5 * 60 * 1000;
export const FIRST_RUN_UPDATED_AFTER = '1970-01-01T00:00:00Z';

export function pageContext(ctx: JobContext): PageContext {
  return { spreadsheetTimeZone: ctx.workbook.timeZone, storeTimeZone: ctx.storeTimeZone, syncedAt: ctx.now() };
}

/** updated_after for a run resuming from `watermark`. */
export function updatedAfterFor(watermark: string | null): string {
  if (!watermark) return FIRST_RUN_UPDATED_AFTER;
  const ms = Date.parse(watermark);
  if (Number.isNaN(ms)) return FIRST_RUN_UPDATED_AFTER;
  return new Date(Math.max(0, ms - OVERLAP_MS)).toISOString();
}

/**
 * The instant through which the feed has listed and written every order: the watermark less the
 * overlap (an order changed later may still be missing). Null before the first page.
 */
export function syncedThroughOf(watermark: string | null): number | null {
  if (!watermark) return null;
  const ms = Date.parse(watermark);
  return Number.isNaN(ms) ? null : ms - OVERLAP_MS;
}

/** The later of two RFC 3339 instants (null-safe). */
export function laterOf(a: string | null, b: string | null): string | null {
  if (!a) return b;
  if (!b) return a;
  return Date.parse(b) > Date.parse(a) ? b : a;
}

/** The earlier of two RFC 3339 instants; null is unknown, so the other one is taken. */
export function earlierOf(a: string | null, b: string | null): string | null {
  if (!a) return b;
  if (!b) return a;
  return Date.parse(b) < Date.parse(a) ? b : a;
}

/** One page of every order (status=all) changed after `updatedAfter`, within the orders window from `createdAfter`. */
export function listChangedOrders(
  ctx: JobContext,
  updatedAfter: string,
  createdAfter: string | null,
  cursor: string | null,
): Page<Order> {
  return ctx.api.listOrders({
    status: 'all',
    limit: PAGE_LIMIT,
    updatedAfter,
    createdAfter: createdAfter ?? undefined,
    cursor,
  });
}

export function isCursorRejected(e: unknown): boolean {
  return isApiError(e) && (e.code === 'CURSOR_FILTER_MISMATCH' || e.code === 'INVALID_CURSOR');
}

export function recordMeta(
  ctx: JobContext,
  meta: { historyAvailableFrom: string | null; truncated: boolean } | null,
): void {
  if (!meta) return;
  const current = ctx.state.get('meta');
  if (current.historyAvailableFrom === meta.historyAvailableFrom && current.truncated === meta.truncated) return;
  const from =
    meta.historyAvailableFrom === null || meta.historyAvailableFrom === undefined
      ? null
      : clipText(String(meta.historyAvailableFrom), 40);
  ctx.state.update('meta', { historyAvailableFrom: from, truncated: meta.truncated });
  // The sheets say what the plan left out (spec 8.3), where a reader of their figures looks first.
  const today = instantToLocalDate(ctx.now(), ctx.storeTimeZone);
  ctx.workbook.setHeaderNote(ORDERS, meta.truncated && from ? historyWindowNote(from, today, 'orders placed') : null);
  const mixed = readOtherCurrencyDays(ctx.state.readAtStart[OTHER_CURRENCY_DAYS_KEY] ?? null);
  ctx.workbook.setHeaderNote(
    DAILY,
    dailyHeaderNote({ ...meta, historyAvailableFrom: from, storeCurrency: current.storeCurrency }, today, mixed),
  );
}

export { historyWindowNote };
