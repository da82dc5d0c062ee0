/** What a managed table is made of: its sheet's name, its columns and how its rows are keyed and compared. */
export type ColumnKind = 'text' | 'int' | 'number' | 'amount' | 'pct' | 'bool' | 'timestamp' | 'date';

export interface ColumnSpec {
  header: string;
  kind: ColumnKind;
  /** Where the value is in the API record; absent for derived columns (filled by the job). */
  path?: readonly string[];
  note?: string;
  /** Characters of the widest usual value, where the kind and header do not say (layout.ts sizes the column for it). */
  valueChars?: number;
  /** The header an earlier version wrote in this column: a sheet holding it is renamed in place (header-renames.ts). */
  formerHeader?: string;
  /**
   * Never written by the sync, header not checked: a column removed from the chosen columns
   * ('retired', kept with its values) or one between the add-on's that is the user's ('foreign').
   */
  skip?: 'retired' | 'foreign';
}

export interface TableSchema {
  sheetName: SheetName;
  columns: readonly ColumnSpec[];
  /** Leading columns read once per run into the key index (id first). */
  indexColumns: number;
  /**
   * Of those, the ones read for EVERY row at a run's start (id first); the other index columns and
   * the change columns are read only for the rows a run touches (ManagedWorkbook.completeIndex).
   * Absent: all of them, with the change columns. Keeps the hourly run's read O(changed) beyond the keys.
   */
  keyReadColumns?: number;
  /**
   * Read for every row at a run's start INSTEAD of the key columns: this column (0-based, one of the
   * key-read ones) holding the parent's key, which starts with `prefix` (Line items: order_id, `ord_`).
   * A row's own key and index cells are read only when the run touches its parent (KeyIndex.pending),
   * so the hourly run reads one column of the child table whole, not two.
   */
  parentKey?: { column: number; prefix: string };
  /**
   * Leading columns read for every row at a run's start though they key no index: where each row
   * stands (Checks: period and kind), for a table whose rows are written by place.
   */
  rowKeyColumns?: number;
  /** True for store data (tagged with the store id, refused for another store). */
  storeData: boolean;
  /**
   * The API's id prefix (spec 2.x): a key-column cell without it is a user's note, not a record.
   * Absent where the spec names none (Variants); Daily P&L keys are dates.
   */
  keyPrefix?: string;
  /** Keys of a derived table (Monthly P&L: YYYY-MM); other text in the key column is the user's. */
  keyPattern?: RegExp;
  /**
   * A run of adjacent columns (first and last header) whose stored values say whether a record
   * changed; read with the index. A record the API returns with the same values there is not
   * written again (for orders and products, updated_at: the spec's change marker, 3.x rule 4).
   */
  changeColumns?: { from: string; to: string };
  /**
   * The order a sheet set up now shows its columns in (headers; a column not listed goes after),
   * when it differs from the catalog's: Orders shows a finance reader's columns first and its keys
   * last. Rows are built in the catalog's order; the sheet layout places them (sheet-layout.ts).
   */
  sheetOrder?: readonly string[];
  /** Frozen leading columns of a sheet set up now (Orders: its order number stays in view). */
  frozenColumns?: number;
  /**
   * A layout's schema (columns in SHEET order): the catalog's index column headers, id first,
   * found in the sheet by header (indexColumnPositions). Absent on a catalog: its first indexColumns.
   */
  indexHeaders?: readonly string[];
  /**
   * The last N columns were added after sheets were first set up: a header row that lacks only
   * them is completed in place (header, note, format, highlight) instead of being refused.
   */
  addedColumns?: number;
}

export type SheetName =
  | 'Orders'
  | 'Line items'
  | 'Products'
  | 'Variants'
  | 'Daily P&L'
  | 'Monthly P&L'
  | 'Restatements'
  | 'Checks'
  | 'Sync log';
