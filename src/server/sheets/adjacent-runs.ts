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
