/**
 * Completion of a key index: the ranges that read the index cells the run's start read left out
 * (KeyReads.completeIndex), and how the cells read go into the index. Rows the row index points to
 * are verified: their key cells are read with them, and a row holding another key fails the plan.
 */
import { a1Range } from './a1';
import { adjacentRuns, readSpans } from './adjacent-runs';
import type { CellValue } from './cells';
import { changeSpan, indexColumnPositions } from './column-positions';
import type { IndexedRow, KeyIndex } from './key-index';
import type { OpenSheet } from './open-sheet';
import type { ReadAlong } from './read-along';
import type { TableSchema } from './schema';

/** The ranges to read (in the run's ONE Values.batchGet), and what puts the values read into the index. */
export interface CompletionPlan {
  ranges: string[];
  /** False when a row the row index points to holds another key. */
  apply: (got: unknown[][][]) => boolean;
}

/** The sheet to complete: open, not created in this run, its index built, `keyRead` its schema's keyReadColumns. */
export interface CompletedSheet {
  opened: OpenSheet;
  schema: TableSchema;
  index: KeyIndex;
  keyRead: number;
}

export function planCompletion(
  { opened, schema, index, keyRead }: CompletedSheet,
  keys: Iterable<string> | undefined,
  parents: Iterable<string> | undefined,
  readAlong: ReadAlong,
): CompletionPlan | null {
  const lazy = opened.schema.parentKey !== undefined;
  // Rows the row index points to are read with their key cells (the parent's, for a lazy table):
  // a row sorted, moved or cleared since is found out before anything is written there.
  const verify = index.isSparse;
  // A lazy table's pending rows are read from the key on; the others' partial rows past the key-read columns.
  const first = lazy || verify ? 0 : keyRead;
  const width = indexWidth(opened.schema);
  const partial = new Map<IndexedRow, string>();
  let rows: number[];
  let pending: ReadonlyMap<number, string> = new Map();
  if (lazy) {
    pending = index.takePending(keys !== undefined || parents !== undefined ? (parents ?? []) : null, opened.maxRows);
    rows = [...pending.keys()];
  } else {
    if (keys) {
      for (const key of keys) {
        const entry = index.get(key);
        if (entry && entry.cells.length < width) partial.set(entry, key);
      }
    } else for (const [key, entry] of index.entries()) if (entry.cells.length < width) partial.set(entry, key);
    rows = [...partial.keys()].map((e) => e.row);
  }
  if (rows.length === 0) return null;
  const span = changeSpan(opened.schema);
  const columns: number[] = [];
  // The parent's key of a pending row was read at the start: not read again.
  const parentColumn = opened.schema.parentKey?.column;
  // Each index column where the sheet holds it (found by header: a layout may place it anywhere).
  const positions = indexColumnPositions(opened.schema);
  for (let c = first; c < opened.schema.indexColumns; c++)
    if (c !== parentColumn || verify) columns.push(positions[c] + 1);
  if (span) for (let c = span.start + 1; c <= span.end; c++) columns.push(c);
  // Columns a readRows of these rows will ask for before the next write (readAlong): read now, in this call.
  const named = keys !== undefined || parents !== undefined;
  const along = named && !lazy ? readAlong.alongColumns(opened, schema, columns) : [];
  // One range per run of adjacent rows and span of columns, across column gaps cheaper to read
  // than a range per row (what a page reads then depends on its rows alone, not the sheet's size).
  const columnSpans = readSpans(
    [...columns, ...along].sort((a, b) => a - b),
    named ? 1 : opened.maxRows,
  );
  const rowSpans: Array<[number, number]> = named
    ? adjacentRuns(rows).map((run) => [run[0], run[run.length - 1]])
    : [[2, Math.max(2, opened.maxRows)]];
  const ranges: string[] = [];
  for (const [top, bottom] of rowSpans)
    for (const [left, right] of columnSpans) ranges.push(a1Range(opened.name, top, left, bottom, right));
  // Where each index column is in what is read: its span, and its place in the span.
  const placeOf = (column: number): { c: number; k: number } => {
    const c = columnSpans.findIndex(([left, right]) => column >= left && column <= right);
    return { c, k: column - columnSpans[c][0] };
  };
  const at = columns.map(placeOf);
  const apply = (got: unknown[][][]): boolean => {
    const byRow = new Map<number, CellValue[]>();
    rowSpans.forEach(([top, bottom], r) => {
      const spans = columnSpans.map((_, c) => got[r * columnSpans.length + c]);
      for (let row = top; row <= bottom; row++)
        byRow.set(
          row,
          at.map(({ c, k }) => cellOf(spans[c][row - top]?.[k])),
        );
    });
    if (lazy) {
      if (verify) for (const [row, parent] of pending) if (byRow.get(row)?.[parentColumn!] !== parent) return false;
      for (const [row, parent] of pending) {
        const cells = byRow.get(row) ?? columns.map(() => '');
        if (!verify) cells.splice(parentColumn!, 0, parent);
        index.adopt(row, cells);
      }
      return true;
    }
    if (verify) for (const [entry, key] of partial) if (byRow.get(entry.row)?.[0] !== key) return false;
    if (along.length > 0)
      readAlong.keepAlong(
        schema,
        rowSpans,
        columnSpans,
        got,
        [...columns, ...along].map((c) => [c, placeOf(c)] as const),
      );
    for (const [entry] of partial) {
      const keyCells = entry.cells.slice(0, first);
      while (keyCells.length < first) keyCells.push('');
      entry.cells = keyCells.concat(byRow.get(entry.row) ?? columns.map(() => ''));
      index.verified(entry);
    }
    return true;
  };
  return { ranges, apply };
}

/** Cells the key index keeps of a row: its index columns, then its change columns (indexCellsOf). */
function indexWidth(schema: TableSchema): number {
  const span = changeSpan(schema);
  return schema.indexColumns + (span ? span.end - span.start : 0);
}

/** A value as read UNFORMATTED (the API leaves out trailing empty cells). */
function cellOf(value: unknown): CellValue {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return value === null || value === undefined ? '' : String(value);
}
