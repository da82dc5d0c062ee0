/**
 * Row writes of a derived sheet (the Monthly P&L) whose cells the sheet already holds are left out:
 * a run that changed no figure writes no cell, its time stamp cells aside. Pure.
 */
import type { CellValue } from './cells';
import { sameCell } from './change-check';
import type { RowWrite } from './row-writes';
import { columnIndex, type TableSchema } from './schema';

/** The writes (whole rows from column 1) whose cells differ from `held` (rows 2 down, catalog order), `stamps` not compared. */
export function changedRows(
  schema: TableSchema,
  held: readonly (readonly unknown[] | undefined)[],
  writes: readonly RowWrite[],
  stamps: readonly string[],
): RowWrite[] {
  const skip = new Set(stamps.map((name) => columnIndex(schema, name)));
  return writes.filter((w) => {
    const row = w.column === 1 ? held[w.row - 2] : undefined;
    if (!row) return true;
    return w.cells.some(
      (cell, i) => !skip.has(i) && !sameCell(row[i] as CellValue | undefined, cell, schema.columns[i].kind),
    );
  });
}
