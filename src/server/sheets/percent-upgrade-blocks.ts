/**
 * A percent column's upgrade cut into blocks of adjacent rows, each small enough to go in a
 * Spreadsheets.batchUpdate of its own with the marker that says its rows hold fractions
 * (percent-upgrade.ts). A block converts its numbers, in runs of adjacent ones (a text or empty
 * cell is not written: an updateCells row leaving a value out would clear it), and gives its rows
 * the percent format. Pure.
 */
import { groupsWithin } from './groups-within';
import { pointsToFraction, PERCENT_FORMAT } from './percent';

type SheetsRequest = GoogleAppsScript.Sheets.Schema.Request;

/** Rows first..last (1-based sheet rows) of the sheet column `column` (0-based), whose catalog header is `header`. */
export interface UpgradeBlock {
  column: number;
  header: string;
  first: number;
  last: number;
  requests: SheetsRequest[];
}

/** Sheet rows first..last, both included. */
export type RowSpan = readonly [first: number, last: number];

/** An updateCells row of one number, as JSON with its comma, less the number's own text. */
const ROW_BYTES = JSON.stringify({ values: [{ userEnteredValue: { numberValue: 0 } }] }).length;
/** An updateCells request around a run, at most (ids and indexes of 10 digits). */
const RUN_BYTES = JSON.stringify({
  updateCells: { start: { sheetId: 1e9, rowIndex: 1e9, columnIndex: 1e9 }, rows: [], fields: 'userEnteredValue' },
}).length;
/** What a block carries besides its runs: a run cut at its start, its repeatCell and its marker. */
const BLOCK_ROOM = 2 * RUN_BYTES + 1_000;

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * The blocks of one column: `cells[i]` is sheet row i + 2 as read unformatted (a short read:
 * trailing empty rows left out); `spans` are the rows still in points. No block passes `budget`
 * bytes of requests, marker included.
 */
export function columnBlocks(
  sheetId: number,
  column: number,
  header: string,
  cells: readonly unknown[],
  spans: readonly RowSpan[],
  budget: number,
): UpgradeBlock[] {
  const fractions = cells.map((v) => (isNumber(v) ? pointsToFraction(v) : null));
  const fractionAt = (row: number): number | null => fractions[row - 2] ?? null;
  const blocks: UpgradeBlock[] = [];
  for (const [first, last] of spans) {
    const rows = Array.from({ length: last - first + 1 }, (_, i) => first + i);
    const sizeOf = (row: number): number => {
      const f = fractionAt(row);
      if (f === null) return 0;
      return ROW_BYTES + String(f).length + (row > first && fractionAt(row - 1) !== null ? 0 : RUN_BYTES);
    };
    for (const group of groupsWithin(rows, sizeOf, budget - BLOCK_ROOM)) {
      const span: RowSpan = [group[0], group[group.length - 1]];
      blocks.push({
        column,
        header,
        first: span[0],
        last: span[1],
        requests: blockRequests(sheetId, column, span, fractionAt),
      });
    }
  }
  return blocks;
}

function blockRequests(
  sheetId: number,
  column: number,
  [first, last]: RowSpan,
  fractionAt: (row: number) => number | null,
): SheetsRequest[] {
  const requests: SheetsRequest[] = [];
  for (let start = first; start <= last;) {
    if (fractionAt(start) === null) {
      start++;
      continue;
    }
    let end = start;
    while (end <= last && fractionAt(end) !== null) end++;
    const rows = [];
    for (let row = start; row < end; row++)
      rows.push({ values: [{ userEnteredValue: { numberValue: fractionAt(row)! } }] });
    requests.push({
      updateCells: { start: { sheetId, rowIndex: start - 1, columnIndex: column }, rows, fields: 'userEnteredValue' },
    });
    start = end;
  }
  requests.push({
    repeatCell: {
      range: {
        sheetId,
        startRowIndex: first - 1,
        endRowIndex: last,
        startColumnIndex: column,
        endColumnIndex: column + 1,
      },
      cell: { userEnteredFormat: { numberFormat: { type: 'NUMBER', pattern: PERCENT_FORMAT } } },
      fields: 'userEnteredFormat.numberFormat',
    },
  });
  return requests;
}
