/**
 * End of a reconciliation pass: every order row not written since the pass started was not
 * returned by the full listing, so it is marked gone with the date (nothing is deleted). Orders
 * placed before meta.history_available_from merely left the plan window and are left as they are.
 */
import type { CellValue } from '../sheets/cells';
import { dateToSerial, instantToSerial, serialToDate } from '../platform/calendar';
import type { KeyIndex } from '../sheets/key-index';
import type { RowWrite } from '../sheets/row-writes';

export interface GoneContext {
  passStartedAt: number;
  historyAvailableFrom: string | null;
  now: number;
  spreadsheetTimeZone: string;
  /** Rows the pass saw listed without writing them (the seen rows); otherwise only synced_at proves it. */
  seen?: (row: number) => boolean;
}

const MS_PER_DAY = 86_400_000;

/**
 * The lowest wall-clock serial the spreadsheet's clock showed from the pass's start until now.
 * synced_at is a wall-clock serial, and when daylight saving ends the clock repeats an hour: a row
 * written during the pass can read EARLIER than the pass's start. Comparing against the lowest
 * reading never calls such a row unseen (at worst a gone order is found a pass later).
 */
function seenThreshold(passStartedAt: number, now: number, timeZone: string): number {
  const atStart = instantToSerial(passStartedAt, timeZone);
  const nowShifted = instantToSerial(now, timeZone) - (now - passStartedAt) / MS_PER_DAY;
  return Math.min(atStart, nowShifted) - 1 / MS_PER_DAY;
}

export interface GoneMarks {
  writes: RowWrite[];
  /** Line items of the gone orders carry their order's status (sync_status), as cancelled ones do. */
  lineItemWrites: RowWrite[];
  gone: number;
  minPlacedDate: string | null;
}

/** Index columns of Orders: id, status, placed_date, gone_at, synced_at; of Line items: id, order_id, sync_status. */
export function planGoneMarks(orders: KeyIndex, ctx: GoneContext, lineItems?: KeyIndex): GoneMarks {
  const windowStart = ctx.historyAvailableFrom ? dateToSerial(ctx.historyAvailableFrom) : null;
  const goneAt = instantToSerial(ctx.now, ctx.spreadsheetTimeZone);
  const seenFrom = seenThreshold(ctx.passStartedAt, ctx.now, ctx.spreadsheetTimeZone);
  const writes: RowWrite[] = [];
  let minPlaced: number | null = null;
  const goneIds = new Set<string>();
  for (const [, entry] of orders.entries()) {
    const [id, status, placed, , synced] = entry.cells;
    if (status === 'gone') continue;
    if (typeof synced === 'number' && synced >= seenFrom) continue;
    if (ctx.seen && ctx.seen(entry.row)) continue;
    if (windowStart !== null && (typeof placed !== 'number' || placed < windowStart)) continue;
    const cells: CellValue[] = ['gone', placed ?? '', goneAt];
    entry.cells = [id, 'gone', placed ?? '', goneAt, synced ?? ''];
    writes.push({ row: entry.row, column: 2, cells });
    goneIds.add(String(id));
    if (typeof placed === 'number' && (minPlaced === null || placed < minPlaced)) minPlaced = placed;
  }
  const lineItemWrites: RowWrite[] = [];
  if (lineItems && goneIds.size > 0) {
    for (const [, entry] of lineItems.entries()) {
      const [, orderId, itemStatus] = entry.cells;
      if (!goneIds.has(String(orderId)) || itemStatus === 'removed' || itemStatus === 'gone') continue;
      entry.cells = [entry.cells[0], orderId, 'gone'];
      lineItemWrites.push({ row: entry.row, column: 3, cells: ['gone'] });
    }
  }
  return {
    writes,
    lineItemWrites,
    gone: writes.length,
    minPlacedDate: minPlaced === null ? null : serialToDate(Math.floor(minPlaced)),
  };
}
