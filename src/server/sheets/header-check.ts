/**
 * The header row of a managed sheet is the add-on's map from column to API field: the writer puts
 * field N in column N. A user who inserts, moves, deletes or renames a managed column breaks that
 * map, and writing anyway would put figures under the wrong heading. This check (pure) finds the
 * first problem and says exactly how to fix it; columns to the right of the managed ones are free.
 */
import { columnLetter } from './a1';
import type { TableSchema } from './schema';

export interface HeaderProblem {
  /** 1-based column where the row first differs from the managed headers. */
  column: number;
  message: string;
}

function headerText(value: unknown): string {
  return value === null || value === undefined ? '' : String(value).trim();
}

/** Null when the first columns hold exactly the schema's headers, in order. */
export function findHeaderProblem(
  schema: TableSchema,
  row: readonly unknown[],
  sheetName: string = schema.sheetName,
): HeaderProblem | null {
  const expected = schema.columns.map((c) => c.header);
  const held = row.map(headerText);
  // A retired chosen column, or a user's column between the add-on's (the sheet layout), is not checked.
  const at = expected.findIndex((header, i) => !schema.columns[i].skip && held[i] !== header);
  if (at < 0) return null;
  const column = at + 1;
  const sheet = `"${sheetName}"`;
  const want = expected[at];
  const found = held[at] ?? '';
  const last = columnLetter(expected.length);
  const end = `Nothing was written to ${sheet}; the next sync continues once the header row is fixed (or delete the sheet and the sync builds it again).`;
  const elsewhere = held.indexOf(want);
  if (found !== '' && expected.indexOf(found) > at) {
    // A managed heading sits further left than it belongs: a column was deleted or moved.
    return {
      column,
      message: `The sheet ${sheet} is missing its column "${want}" in column ${columnLetter(column)} (it now holds "${found}"): a managed column was deleted or moved. Undo that change (Edit → Undo), or move the columns back so that A to ${last} read ${expected.slice(0, 3).join(', ')} … ${expected[expected.length - 1]}. ${end}`,
    };
  }
  if (elsewhere > at) {
    return {
      column,
      message: `The sheet ${sheet} has a column "${found || '(empty)'}" in column ${columnLetter(column)}, where "${want}" belongs ("${want}" is now in column ${columnLetter(elsewhere + 1)}): a column was inserted or moved inside the managed columns A to ${last}. Move that column to the right of column ${last} (your own columns belong there and are kept). ${end}`,
    };
  }
  return {
    column,
    message: `The header of column ${columnLetter(column)} in ${sheet} reads "${found}" but must be "${want}" (the sync writes each API field under its own name). Rename it back to "${want}". ${end}`,
  };
}

/**
 * How many of the schema's added columns (TableSchema.addedColumns, the last ones) a header row
 * lacks while every column before them is in place and their header cells are empty: a sheet set
 * up by an earlier version, completed in place. 0 when none is missing or the row has another problem.
 */
export function missingAddedColumns(schema: TableSchema, row: readonly unknown[]): number {
  const added = schema.addedColumns ?? 0;
  if (added === 0) return 0;
  const expected = schema.columns.map((c) => c.header);
  const held = row.map(headerText);
  const kept = expected.length - added;
  for (let i = 0; i < kept; i++) if (held[i] !== expected[i]) return 0;
  let present = kept;
  while (present < expected.length && held[present] === expected[present]) present++;
  if (present === expected.length) return 0;
  // Only a run of empty header cells may follow: anything else is the user's column, not ours to take.
  for (let i = present; i < expected.length; i++) if ((held[i] ?? '') !== '') return 0;
  return expected.length - present;
}
