/** One page of daily P&L rows → row writes keyed by date. Pure. */
import type { DailyRow } from '../api/types';
import type { KeyIndex } from '../sheets/key-index';
import type { RowWrite } from '../sheets/row-writes';
import { indexCellsOf, isUnchanged } from '../sheets/change-check';
import { buildRow } from '../sheets/rows';
import { DAILY } from '../sheets/schema';
import type { PageContext, PageCounts } from './order-page';

export function planDailyPage(page: readonly DailyRow[], days: KeyIndex, ctx: PageContext): { rows: RowWrite[]; counts: PageCounts } {
  const rows: RowWrite[] = [];
  const counts: PageCounts = { inserted: 0, updated: 0, cancelled: 0, children: 0 };
  const syncedIso = new Date(ctx.syncedAt).toISOString();
  for (const day of page) {
    const cells = buildRow(DAILY, day, { synced_at: syncedIso }, ctx.spreadsheetTimeZone);
    // The trailing window is re-read every run: a day whose figures are the same is not written again.
    if (isUnchanged(DAILY, days.get(String(day.date)), cells)) continue;
    const { row, inserted } = days.put(String(day.date), indexCellsOf(DAILY, cells));
    rows.push({ row, column: 1, cells });
    if (inserted) counts.inserted++;
    else counts.updated++;
  }
  return { rows, counts };
}
