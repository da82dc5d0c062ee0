/** A managed table's sheet as this run opened it: its layout, grid, key cells and handle. */
import type { KeyIndex } from './key-index';
import { columnMap, layoutSchema, type TableLayout } from './sheet-layout';
import type { SheetName, TableSchema } from './schema';

export interface OpenSheet {
  /** The sheet's own schema: for Orders and Line items, the catalog at the layout's columns. */
  schema: TableSchema;
  /** Catalog position → sheet column (columnMap); null when they are the same. */
  map: number[] | null;
  /** Per sheet column (0-based), true when the sync never writes it. */
  skipped: boolean[];
  /** Fetched only when a call needs the sheet itself (set-up, growth, last row, tagging). */
  sheet: GoogleAppsScript.Spreadsheet.Sheet | null;
  maxRows: number;
  /** From the snapshot; for a sheet set up in this run, read at its first grid growth. */
  maxColumns: number | null;
  index: KeyIndex | null;
  /** Last row with content when the sheet was opened (1 = header only); null until a call needs it. */
  lastRow: number | null;
  /** The index columns as read at opening (rows 2 down to the last with a key-column value). */
  keys: unknown[][];
  /** The key columns were not read: rows are found by the row index (row-index.ts). */
  sparse: boolean;
  /** Whole data rows (row 2 first) of a WHOLE_ROW_TABLES table, kept current with this run's writes. */
  rows: unknown[][] | null;
  /** Created (or set up from empty) in this run: whatever was synced into it before is gone. */
  created: boolean;
  /** The sheet's name now (the user may have renamed it: writes address it by this name). */
  name: string;
}

/** Tables whose data rows the set-up read takes whole (the finance sheets sum them after the sync): no extra read. */
// The Monthly P&L too (a row a month): the tie-out proves it without a read of its own.
export const WHOLE_ROW_TABLES: ReadonlySet<SheetName> = new Set<SheetName>(['Daily P&L', 'Monthly P&L']);

/** The sheet's schema, catalog map and skipped columns from its layout (null: the catalog's own). */
export function placeLayout(opened: OpenSheet, table: TableSchema, layout: TableLayout | null): void {
  opened.schema = layout ? layoutSchema(table, layout) : table;
  opened.map = layout ? columnMap(table, layout) : null;
  opened.skipped = opened.schema.columns.map((c) => c.skip !== undefined);
  opened.index = null;
}
