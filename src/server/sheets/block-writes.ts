/**
 * Which blocks of a write go through SpreadsheetApp and which through the one Values.batchUpdate.
 * A block of many consecutive rows (a backfill page's new rows) is one `Range.setValues` call:
 * Google's quota of 60 Sheets API write requests a minute counts API requests only
 * (developers.google.com/workspace/sheets/api/limits), so blocks never wait for it, and a page
 * costs one call per sheet instead of one paced request. Scattered rows stay in the batchUpdate,
 * which takes any number of ranges for one request. Pure.
 */
import { CELL_TEXT_LIMIT, type CellValue } from './cells';
import type { RowRun } from './row-writes';

/** Rows from which a block is written with setValues (a page appends 250 orders; an hourly run scatters a few). */
export const BLOCK_MIN_ROWS = 50;

export function splitBlocks(runs: readonly RowRun[]): { blocks: RowRun[]; scattered: RowRun[] } {
  // Two runs over one row (a whole row and one of its cells) must keep the batchUpdate's order.
  const rows = new Set<number>();
  let overlapping = false;
  for (const run of runs) {
    for (let r = run.row; r < run.row + run.values.length && !overlapping; r++) {
      if (rows.has(r)) overlapping = true;
      rows.add(r);
    }
  }
  if (overlapping) return { blocks: [], scattered: runs.slice() };
  const blocks: RowRun[] = [];
  const scattered: RowRun[] = [];
  for (const run of runs) (run.values.length >= BLOCK_MIN_ROWS && !run.values.some(holdsLongText) ? blocks : scattered).push(run);
  return { blocks, scattered };
}

/**
 * The values as setValues must get them to store what Values.batchUpdate RAW stores: setValues
 * reads text as typed ("=…" a formula, "1e3" a number, "2024-01-02" a date), a leading apostrophe
 * keeps it text (developers.google.com/apps-script/reference/spreadsheet/range#setvaluesvalues).
 */
export function asTypedText(values: readonly CellValue[][]): CellValue[][] {
  return values.map((row) => row.map((v) => (typeof v === 'string' && v !== '' ? `'${v}` : v)));
}

/** Text the apostrophe would push past Google's 50,000 characters a cell: that run goes by the API. */
function holdsLongText(row: readonly CellValue[]): boolean {
  return row.some((v) => typeof v === 'string' && v.length >= CELL_TEXT_LIMIT);
}
