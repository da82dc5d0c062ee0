/** The chosen Orders and Line items columns, each sheet's layout and the fill pass, in the sync state. */
import type { ChoosableTable, ColumnChoice } from '../sheets/column-choice';
import type { TableLayout } from '../sheets/sheet-layout';

/** The Orders and Line items columns the user chose, each sheet's layout, and the fill pass (the column fill). */
export interface ColumnsState {
  /** Absent for a table: "All", what every earlier version synced. */
  choice: ColumnChoice;
  /** Absent for a table: its sheet holds every catalog column (set up by an earlier version, or not yet). */
  layouts: Partial<Record<ChoosableTable, TableLayout>>;
  /** Columns rows already in the sheets lack (added or synced again), and how far the pass has read; null when none. */
  fill: ColumnFill | null;
}

export interface ColumnFill {
  columns: Partial<Record<ChoosableTable, string[]>>;
  /** Epoch ms the pass (re)started: a column added while it runs restarts it. */
  startedAt: number;
  /** The last updated_at the pass has written (it reads every order, oldest change first). */
  watermark: string | null;
  /** Orders the pass has read so far (for the sidebar's progress). */
  orders: number;
}
