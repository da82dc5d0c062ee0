/**
 * Named catalog columns read by the sheet's layout: the sheet columns they stand in, grouped into
 * runs of adjacent ones (one range each), and the rows read put back at catalog positions.
 */
import { adjacentRuns } from './adjacent-runs';
import { columnIndex } from './column-positions';
import type { OpenSheet } from './open-sheet';
import type { TableSchema } from './schema';

/** The sheet columns of the named catalog columns, grouped into runs of adjacent ones. */
export function columnRuns(
  opened: OpenSheet,
  table: TableSchema,
  headers: readonly string[],
): { runs: number[][]; catalogAt: Map<number, number> } {
  const catalogAt = new Map<number, number>();
  for (const header of headers) {
    const position = columnIndex(table, header);
    const column = opened.map ? opened.map[position] : position + 1;
    if (column > 0) catalogAt.set(column, position);
  }
  return { runs: adjacentRuns([...catalogAt.keys()]), catalogAt };
}

/** One row at catalog positions (other cells empty) from the values read for each run. */
export function catalogRow(
  table: TableSchema,
  runs: readonly number[][],
  catalogAt: ReadonlyMap<number, number>,
  valuesOf: (run: number) => readonly unknown[],
): unknown[] {
  const row: unknown[] = new Array<unknown>(table.columns.length).fill('');
  runs.forEach((run, i) => {
    const values = valuesOf(i);
    run.forEach((column, k) => {
      row[catalogAt.get(column)!] = values[k] ?? '';
    });
  });
  return row;
}
