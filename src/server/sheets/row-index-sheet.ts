/**
 * The row index's hidden sheet as the run sees it: what the index needs of the run's sheets, and
 * the title a new index sheet takes (found later by its developer-metadata tag, whatever its name).
 */
import type { KeyIndex } from './key-index';
import type { WorkbookSnapshot } from './workbook-snapshot';
import type { Grid, SheetInfo } from './sheet-snapshot';
import { BUCKETS } from './row-index-buckets';
import { NUMBER_COLUMN } from './order-number-buckets';

export const ROW_INDEX_TITLE = 'Row index (Merchant Analytics)';

/** What the row index needs of the run's sheets. */
export interface RowIndexSheets {
  /** The Orders and Line items key indexes, when this run built them. */
  indexes(): { orders: KeyIndex; lines: KeyIndex } | null;
  /** Grid rows of Orders and Line items now (after this run's growth). */
  gridRows(): { orders: number; lines: number };
  /** Values of A1 ranges, in ONE Values.batchGetByDataFilter. */
  read(ranges: readonly string[]): unknown[][][];
  /** Reads both tables' key columns whole and fills their indexes. */
  readWhole(): void;
  /** Queues the hidden sheet's creation with the run's next Sheets API request. */
  create(title: string, rows: number): void;
  /** Queues the growth of the hidden sheet's grid (`from`) to `to`, once a run, with the run's next Sheets API request. */
  grow(sheetId: number, from: Grid, to: Grid): void;
}

/**
 * An index sheet a user cut short (a row or column deleted), or an earlier version made one column
 * wide, grown back before the run's first write there: a write past its grid fails every run.
 */
export function fitIndexSheet(found: SheetInfo | null, sheets: RowIndexSheets): void {
  if (found) sheets.grow(found.sheetId, found, { rows: BUCKETS + 1, columns: NUMBER_COLUMN });
}

/** A title no sheet of the workbook has: the index sheet's own, numbered when a user took it. */
export function freeTitle(snapshot: WorkbookSnapshot): string {
  const taken = new Set(snapshot.sheetInfos().map((s) => s.title));
  let title = ROW_INDEX_TITLE;
  for (let i = 2; taken.has(title); i++) title = `${ROW_INDEX_TITLE} ${i}`;
  return title;
}

/** The Sync log's note when the index was found wrong and written again. */
export function rebuildNote(why: 'moved' | 'mismatch' | 'unreadable'): string {
  return why === 'unreadable'
    ? 'The hidden row index sheet could not be read (a cell changed, cleared or moved by hand); the Orders and Line items key columns were read whole and the index written again.'
    : 'Rows of Orders or Line items were sorted, moved or deleted since the last sync; the key columns were read whole to find each order’s own row, and the row index was written again.';
}
