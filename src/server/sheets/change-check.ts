/**
 * Whether a record the API returned again changed since the sync last wrote it. The key index
 * holds, per row, the index columns and then the schema's change columns (the sheet snapshot reads
 * both in the run's one batchGet); a record whose change columns hold the same values is not
 * written again, so "updated" counts only rows whose managed values changed. Pure.
 */
import type { CellValue } from './cells';
import type { IndexedRow } from './key-index';
import { changeSpan, type ColumnKind, type TableSchema } from './schema';

/** What the key index keeps of a written row: its index columns, then its change columns. */
export function indexCellsOf(schema: TableSchema, cells: readonly CellValue[]): CellValue[] {
  const span = changeSpan(schema);
  const index = cells.slice(0, schema.indexColumns);
  return span ? index.concat(cells.slice(span.start, span.end)) : index;
}

const MS_PER_DAY = 86_400_000;

/**
 * A timestamp is compared to the millisecond: the service moves a late writer's change marker by as
 * little as 1 ms (spec 3.x rule 6), which a relative tolerance on a date serial (~46,000) would hide.
 * Other numbers as written RAW come back the same; the tolerance only absorbs a last-digit rounding.
 */
export function sameCell(stored: CellValue | undefined, next: CellValue | undefined, kind: ColumnKind): boolean {
  const a = stored ?? '';
  const b = next ?? '';
  if (typeof a === 'number' && typeof b === 'number') {
    if (kind === 'timestamp' || kind === 'date') return Math.round(a * MS_PER_DAY) === Math.round(b * MS_PER_DAY);
    return Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a), Math.abs(b));
  }
  return a === b;
}

/**
 * True when the row already holds `cells`' change values and the index columns named in
 * `sameIndexColumns` (e.g. the order's derived status: a gone order that reappears is rewritten).
 * A schema without change columns never counts as unchanged.
 */
export function isUnchanged(
  schema: TableSchema,
  stored: IndexedRow | undefined,
  cells: readonly CellValue[],
  sameIndexColumns: readonly number[] = [],
): boolean {
  const span = changeSpan(schema);
  if (!stored || !span) return false;
  if (stored.cells.length < schema.indexColumns + (span.end - span.start)) return false;
  for (const i of sameIndexColumns) if (!sameCell(stored.cells[i], cells[i], schema.columns[i].kind)) return false;
  // No change marker at all (an empty updated_at) tells nothing: written as before.
  if (cells.slice(span.start, span.end).every((c) => c === '' || c === null || c === undefined)) return false;
  for (let k = 0; k < span.end - span.start; k++) {
    if (!sameCell(stored.cells[schema.indexColumns + k], cells[span.start + k], schema.columns[span.start + k].kind))
      return false;
  }
  return true;
}
