/**
 * The Columns card: which Orders and Line items columns are synced, and how many orders fit.
 * Part of the sidebar contract: JSON-safe, as everything crossing google.script.run.
 */

export type ColumnPresetName = 'essentials' | 'all' | 'custom';

/** One table's columns: every column of the API's record, and what the sync does with it. */
export interface ColumnTableView {
  table: 'Orders' | 'Line items';
  preset: ColumnPresetName;
  columns: Array<{
    header: string;
    chosen: boolean;
    /** Always synced (a key, a derived column, or one the add-on reads back): cannot be unchosen. */
    kept: boolean;
    /** Part of the "Essentials" preset. */
    essential: boolean;
    /** In the sheet but no longer synced (its values cleared by the sync that retired it). */
    retired: boolean;
  }>;
}

/** How many orders (with their line items) fit in Google's 10 million cells at each width. */
export interface ColumnFitView {
  essentials: number;
  all: number;
  chosen: number;
  /** Line items per order, from the rows synced so far (what the figures assume). */
  lineItemsPerOrder: number;
  /** Cells one order takes with the current choice (its row plus its line items' rows). */
  cellsPerOrder: number;
  /**
   * What the sheets hold now, when it is more than the choice: columns no longer synced keep their
   * cells until the user deletes them. The orders that fit at that width, the cells per order, and
   * how many such columns there are (0: the sheets hold just the choice).
   */
  held?: number;
  heldCellsPerOrder?: number;
  notSyncedColumns?: number;
}

export interface ColumnsView {
  tables: ColumnTableView[];
  /** Null until the first orders are synced (the line items per order are not known before). */
  fit: ColumnFitView | null;
  /** Columns added later being filled for rows already synced; null when none are. */
  filling: { orders: number; columns: string[] } | null;
}

/** What setColumns takes: a preset per table, or a custom list of headers. */
export type ColumnChoiceRequest = Partial<
  Record<'Orders' | 'Line items', { preset: ColumnPresetName; columns?: string[] }>
>;
