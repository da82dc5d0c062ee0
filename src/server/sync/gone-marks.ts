/**
 * End of a reconciliation pass: every order row not written since the pass started was not
 * returned by the full listing, so it is marked gone with the date (nothing is deleted). Orders
 * placed before meta.history_available_from merely left the plan window and are left as they are.
 */
import { dateToSerial, instantToSerial, serialToDate, serialToInstant, type CellValue } from '../sheets/cells';
import type { KeyIndex } from '../sheets/key-index';
import type { RowWrite } from '../sheets/row-writes';

export interface GoneContext {
  passStartedAt: number;
  historyAvailableFrom: string | null;
  now: number;
  spreadsheetTimeZone: string;
}

/** Index columns of Orders: id, status, placed_date, gone_at, synced_at. */
export function planGoneMarks(orders: KeyIndex, ctx: GoneContext): { writes: RowWrite[]; gone: number; minPlacedDate: string | null } {
  const windowStart = ctx.historyAvailableFrom ? dateToSerial(ctx.historyAvailableFrom) : null;
  const goneAt = instantToSerial(ctx.now, ctx.spreadsheetTimeZone);
  const writes: RowWrite[] = [];
  let minPlaced: number | null = null;
  for (const [, entry] of orders.entries()) {
    const [id, status, placed, , synced] = entry.cells;
    if (status === 'gone') continue;
    if (typeof synced === 'number' && serialToInstant(synced, ctx.spreadsheetTimeZone) >= ctx.passStartedAt - 1) continue;
    if (windowStart !== null && (typeof placed !== 'number' || placed < windowStart)) continue;
    const cells: CellValue[] = ['gone', placed ?? '', goneAt];
    entry.cells = [id, 'gone', placed ?? '', goneAt, synced ?? ''];
    writes.push({ row: entry.row, column: 2, cells });
    if (typeof placed === 'number' && (minPlaced === null || placed < minPlaced)) minPlaced = placed;
  }
  return { writes, gone: writes.length, minPlacedDate: minPlaced === null ? null : serialToDate(Math.floor(minPlaced)) };
}
