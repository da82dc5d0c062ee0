/**
 * Records the sync could not turn into cells (the record check), kept in the sync state until one
 * is written, so that one poisoned record never stops a feed. Why this shape:
 * - the feed's watermark moves past a skipped record, so no run reads whole pages again for it
 *   and every later order arrives;
 * - it is not marked done either: each orders run asks for the oldest few again by id
 *   (GET /orders/{id}, at most RETRIES_PER_RUN requests), and the feed or the reconciliation pass
 *   returning it changed clears it once it can be written; a record the service no longer has (404) is dropped;
 * - the list names them in the Sync log, the sidebar and the tie-out (their days show ✗).
 */
import { isApiError } from '../api';
import { utf8Bytes } from '../platform/property-size';
import type { DailyRow, Order } from '../api/types';
import type { JobContext, RunSkipped } from './job-context';
import { dayOfRecord, type SkippedRecord } from '../api/record-check';
import type { SkippedState } from '../state/run-records';

export type SkippedKind = keyof SkippedState;

/** Kept per kind (the Sync log row of the run that skipped more names them all). */
export const SKIPPED_KEPT = 20;
/** The list stays well under Google's 9 KB per property (ids are the API's text): the oldest go first. */
const SKIPPED_MAX_BYTES = 6 * 1024;
/** Skipped orders asked for again per run: a few requests, never a page. */
export const RETRIES_PER_RUN = 3;

/** After a page: its skipped records go to the end of the list (retried last), those it wrote leave it. */
export function noteSkipped(
  ctx: JobContext,
  kind: SkippedKind,
  skipped: readonly SkippedRecord[],
  written: readonly string[],
): void {
  for (const record of skipped)
    if (ctx.tally.skipped[kind].indexOf(record.id) < 0) ctx.tally.skipped[kind].push(record.id);
  const kept = ctx.state.get('skipped')[kind];
  const settled = new Set([...written, ...skipped.map((r) => r.id)]);
  if (skipped.length === 0 && !kept.some((r) => settled.has(r.id))) return;
  const next = [
    ...kept.filter((r) => !settled.has(r.id)),
    ...skipped.map((r) => ({ id: r.id, day: r.day, reason: r.reason })),
  ].slice(-SKIPPED_KEPT);
  const all = ctx.state.get('skipped');
  const others = (Object.keys(all) as SkippedKind[]).filter((k) => k !== kind).map((k) => all[k]);
  while (next.length > 0 && utf8Bytes(JSON.stringify([next, ...others])) > SKIPPED_MAX_BYTES) next.shift();
  ctx.state.update('skipped', { [kind]: next });
}

/** The oldest skipped orders, asked for again by id and written through `write` (which notes the outcome). */
export function retrySkippedOrders(ctx: JobContext, write: (orders: readonly Order[]) => unknown): void {
  const ids = ctx.state
    .get('skipped')
    .orders.slice(0, RETRIES_PER_RUN)
    .map((r) => r.id);
  for (const id of ids) {
    if (!ctx.budget.canStartStep()) return;
    let order: Order;
    try {
      order = ctx.api.getOrder(id);
    } catch (e) {
      if (isApiError(e) && e.status === 404) noteSkipped(ctx, 'orders', [], [id]);
      else throw e;
      continue;
    }
    write([order]);
  }
}

/**
 * The oldest skipped days before `from` (the ones the run's own range does not read again), each
 * asked for again on its own (one request per day, at most RETRIES_PER_RUN) and planned through
 * `write` (which notes the outcome). A day the service no longer returns leaves the list.
 */
export function retrySkippedDays(ctx: JobContext, from: string, write: (rows: readonly DailyRow[]) => void): void {
  const days = ctx.state
    .get('skipped')
    .days.filter((r) => r.day !== null && r.day < from)
    .slice(0, RETRIES_PER_RUN)
    .map((r) => r.day!);
  for (const day of days) {
    if (!ctx.budget.canStartStep()) return;
    const page = ctx.api.listDaily({ startDate: day, endDate: day, limit: 1, cursor: null });
    if (!page.data.some((row) => dayOfRecord(row) === day)) noteSkipped(ctx, 'days', [], [day]);
    write(page.data);
  }
}

/** The run's words: "Skipped 1 order that cannot be written to the sheet (ord_1); it is tried again on every run." */
export function skippedText(skipped: RunSkipped): string | null {
  const parts: string[] = [];
  if (skipped.orders.length > 0)
    parts.push(
      `${skipped.orders.length} ${skipped.orders.length === 1 ? 'order' : 'orders'} (${skipped.orders.join(', ')})`,
    );
  if (skipped.products.length > 0)
    parts.push(
      `${skipped.products.length} ${skipped.products.length === 1 ? 'product' : 'products'} (${skipped.products.join(', ')})`,
    );
  if (skipped.days.length > 0)
    parts.push(
      `${skipped.days.length} ${skipped.days.length === 1 ? 'day' : 'days'} of Daily P&L (${skipped.days.join(', ')})`,
    );
  if (parts.length === 0) return null;
  return `Skipped ${parts.join(' and ')}: the service sent values that cannot be written to the sheet; every other record was written, and these are tried again on every run.`;
}
