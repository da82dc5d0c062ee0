/** 1-based columns (or rows) grouped into runs of adjacent ones (sorted). */
export function adjacentRuns(columns: readonly number[]): number[][] {
  const sorted = [...columns].sort((a, b) => a - b);
  const runs: number[][] = [];
  for (const column of sorted) {
    const run = runs[runs.length - 1];
    if (run && run[run.length - 1] + 1 === column) run.push(column);
    else runs.push([column]);
  }
  return runs;
}

/**
 * Cells a Values.batchGet range costs as much as: ~0.45 ms a range against ~10 µs a cell
 * (apps-script-cost-model.md, Tanaike 2023 and 2018).
 */
const CELLS_PER_RANGE = 45;

/**
 * The spans (first and last, 1-based) one batchGet reads to cover these columns (or rows): runs of
 * adjacent ones, joined across a gap whose cells (`cellsPerValue` a gap column or row) cost less
 * than the range it saves. The gap's values are read and not used.
 */
export function readSpans(values: readonly number[], cellsPerValue: number): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const run of adjacentRuns(values)) {
    const last = spans[spans.length - 1];
    const gap = last ? run[0] - last[1] - 1 : Infinity;
    if (last && gap * cellsPerValue < CELLS_PER_RANGE) last[1] = run[run.length - 1];
    else spans.push([run[0], run[run.length - 1]]);
  }
  return spans;
}
