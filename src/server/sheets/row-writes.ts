/**
 * Row writes of one page, merged into as few ranges as possible: consecutive rows with the same
 * column span become one range (appends are always consecutive). Pure.
 */
import { a1Range } from './a1';
import type { CellValue } from './cells';

export interface RowWrite {
  row: number;
  /** 1-based first column written. */
  column: number;
  cells: CellValue[];
  /**
   * The currency of the row's amounts when no column of the row names it (a line item's amounts
   * are in its order's currency, spec 2.3); see the currency formats.
   */
  currency?: string | null;
}

export interface RangeWrite {
  range: string;
  values: CellValue[][];
  /**
   * May go in a request of its own before the rest of its write when the write would pass the
   * request size (ahead-writes.ts): 'part', cells nothing trusts until a later range of the same
   * write says so (the row index's buckets, before its stamp); 'clear', sent only then and first
   * (that stamp cleared).
   */
  ahead?: 'part' | 'clear';
}

export function mergeRowWrites(sheetName: string, writes: readonly RowWrite[]): RangeWrite[] {
  // Last write of a row/column span wins (the feed is at-least-once: an id may repeat in a page).
  const latest = new Map<string, RowWrite>();
  for (const w of writes) latest.set(`${w.row}:${w.column}:${w.cells.length}`, w);
  const sorted = [...latest.values()].sort(
    (a, b) => a.column - b.column || a.cells.length - b.cells.length || a.row - b.row,
  );
  const ranges: RangeWrite[] = [];
  let run: RowWrite[] = [];
  const flush = (): void => {
    if (run.length === 0) return;
    const first = run[0];
    const last = run[run.length - 1];
    ranges.push({
      range: a1Range(sheetName, first.row, first.column, last.row, first.column + first.cells.length - 1),
      values: run.map((w) => w.cells),
    });
    run = [];
  };
  for (const w of sorted) {
    const prev = run[run.length - 1];
    if (prev && (prev.column !== w.column || prev.cells.length !== w.cells.length || prev.row + 1 !== w.row)) flush();
    run.push(w);
  }
  flush();
  return ranges;
}

/** Highest row a set of writes touches (0 when none). */
export function lastRowOf(writes: readonly RowWrite[]): number {
  return writes.reduce((max, w) => Math.max(max, w.row), 0);
}

/**
 * Row writes with the cells of `skip` columns (a retired chosen column, a user's column between the
 * add-on's: see the sheet layout) cut out, so their cells keep what the user or an earlier sync left.
 */
export function withoutSkipped(skipped: readonly boolean[], writes: readonly RowWrite[]): RowWrite[] {
  if (!skipped.some(Boolean)) return writes.slice();
  const out: RowWrite[] = [];
  for (const w of writes) {
    let start = -1;
    for (let i = 0; i <= w.cells.length; i++) {
      const keep = i < w.cells.length && !skipped[w.column - 1 + i];
      if (keep && start < 0) start = i;
      if (!keep && start >= 0) {
        out.push({ ...w, column: w.column + start, cells: w.cells.slice(start, i) });
        start = -1;
      }
    }
  }
  return out;
}

/** Writes of the given cells only (0-based positions in `cells`, a row written from column 1): one per run of adjacent positions. */
export function writesOfColumns(
  row: number,
  cells: readonly CellValue[],
  positions: readonly number[],
  currency?: string | null,
): RowWrite[] {
  const sorted = [...new Set(positions)].filter((p) => p >= 0 && p < cells.length).sort((a, b) => a - b);
  const out: RowWrite[] = [];
  let i = 0;
  while (i < sorted.length) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    const w: RowWrite = { row, column: sorted[i] + 1, cells: cells.slice(sorted[i], sorted[j] + 1) };
    if (currency !== undefined) w.currency = currency;
    out.push(w);
    i = j + 1;
  }
  return out;
}
