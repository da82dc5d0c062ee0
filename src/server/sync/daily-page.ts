/** One page of daily P&L rows → row writes keyed by date. Pure, like the order page. */
import type { DailyRow } from '../api/types';
import type { KeyIndex } from '../sheets/key-index';
import type { RowWrite } from '../sheets/row-writes';
import type { CellValue } from '../sheets/cells';
import { indexCellsOf, isUnchanged } from '../sheets/change-check';
import { buildRow } from '../sheets/rows';
import { DAILY } from '../sheets/schema';
import type { PageContext, PageCounts } from './order-page';
import { dayOfRecord, dayRecordProblem, skippedDay, type SkippedRecord } from '../api/record-check';

export interface DailyPageWrites {
  rows: RowWrite[];
  counts: PageCounts;
  /**
   * Days that could not be turned into cells: their row is neither written nor cleared (a day left
   * empty would sum as 0 in the Monthly P&L); named in the Sync log, retried (the skipped records).
   */
  skipped: SkippedRecord[];
  /** Dates the page wrote or found unchanged. */
  written: string[];
  /** The page's last readable date (the backfill resumes from it), null when none is. */
  lastDate: string | null;
}

export function planDailyPage(page: readonly DailyRow[], days: KeyIndex, ctx: PageContext): DailyPageWrites {
  const writes: DailyPageWrites = {
    rows: [],
    counts: { inserted: 0, updated: 0, cancelled: 0, children: 0 },
    skipped: [],
    written: [],
    lastDate: null,
  };
  const syncedIso = new Date(ctx.syncedAt).toISOString();
  for (const day of page) {
    const date = dayOfRecord(day);
    if (date !== null) writes.lastDate = date;
    const problem = dayRecordProblem(day);
    let cells: CellValue[];
    try {
      if (problem !== null) throw new Error(problem);
      cells = buildRow(DAILY, day, { synced_at: syncedIso }, ctx.spreadsheetTimeZone);
    } catch (e) {
      writes.skipped.push(skippedDay(day, e));
      continue;
    }
    writes.written.push(date!);
    // The trailing window is re-read every run: a day whose figures are the same is not written again.
    if (isUnchanged(DAILY, days.get(date!), cells)) continue;
    const { row, inserted } = days.put(date!, indexCellsOf(DAILY, cells));
    writes.rows.push({ row, column: 1, cells });
    if (inserted) writes.counts.inserted++;
    else writes.counts.updated++;
  }
  return writes;
}
