/**
 * A sheet in points too large for one request (Google's recommended 2 MB, the strict runtime's
 * 2,000,000 bytes) is upgraded in several batchUpdates, each within the limit, the first marking
 * the upgrade in progress (one marker, no row numbers). A request gives the 0.00% format to exactly
 * the rows whose numbers it converts (Google applies it whole), so a run killed after any request
 * leaves cells that say what they hold: the next upgrade, given which cells are under 0.00%,
 * converts exactly the rest, even when the merchant sorted the rows or deleted some in between, and
 * leaves the sheet with its tag alone.
 */
import { describe, expect, it } from 'vitest';
import { SHEETS_PAYLOAD_LIMIT, sheetsPayloadBytes } from '../../dev/gas-runtime/spreadsheet/sheets-payload-limit';
import { PERCENT_FORMAT, POINTS_FORMAT } from '../../src/server/sheets/percent';
import {
  PERCENT_IN_PROGRESS_KEY,
  PERCENT_METADATA_KEY,
  percentColumns,
  percentUpgradeBatches,
} from '../../src/server/sheets/percent-upgrade';
import { ORDERS } from '../../src/server/sheets/schema';

type Request = GoogleAppsScript.Sheets.Schema.Request;
const SHEET = 42;
const ROWS = 40_001;
const columns = percentColumns(ORDERS);

/** One percent cell as the sheet holds it, with the original points it started from and how often it was divided. */
interface Cell {
  value: unknown;
  format: string;
  points: unknown;
  divided: number;
}

/** Points with 2 decimals under the points format, some cells empty or text (a run of numbers is cut there). */
function sheetInPoints(): Cell[][] {
  return columns.map((_, k) =>
    Array.from({ length: ROWS - 1 }, (_, i) => {
      const points = i % 97 === 5 ? '' : i % 131 === 7 ? 'n/a' : ((i * 37 + k) % 20_000) / 100 - 50;
      return { value: points, format: POINTS_FORMAT, points, divided: 0 };
    }),
  );
}

/** Applies one batchUpdate's requests to the cells (cells[k][row - 2]) as the API would, and to the sheet's metadata keys. */
function apply(cells: Cell[][], requests: Request[], keys: string[]): void {
  for (const r of requests) {
    if (r.updateCells) {
      const k = columns.indexOf(r.updateCells.start!.columnIndex!);
      expect(r.updateCells.fields).toBe('userEnteredValue');
      r.updateCells.rows!.forEach((row, i) => {
        const cell = cells[k][r.updateCells!.start!.rowIndex! + i - 1];
        cell.value = row.values![0].userEnteredValue!.numberValue;
        cell.divided++;
      });
    } else if (r.repeatCell) {
      const k = columns.indexOf(r.repeatCell.range!.startColumnIndex!);
      for (let at = r.repeatCell.range!.startRowIndex!; at < r.repeatCell.range!.endRowIndex!; at++)
        if (cells[k][at - 1]) cells[k][at - 1].format = r.repeatCell.cell!.userEnteredFormat!.numberFormat!.pattern!;
    } else if (r.createDeveloperMetadata) keys.push(r.createDeveloperMetadata.developerMetadata!.metadataKey!);
    else if (r.deleteDeveloperMetadata) {
      const key = r.deleteDeveloperMetadata.dataFilter!.developerMetadataLookup!.metadataKey;
      keys.splice(0, keys.length, ...keys.filter((t) => t !== key));
    }
  }
}

/** The next run's upgrade: the values as read and which cells are under 0.00%. */
function nextUpgrade(cells: Cell[][], rows: number): Request[][] {
  return percentUpgradeBatches(
    SHEET,
    ORDERS,
    cells.map((column) => column.map((c) => [c.value])),
    rows,
    cells.map((column) => column.map((c) => c.format === PERCENT_FORMAT)),
  );
}

/** Every cell that is not its original number divided once under 0.00% (text and empty cells kept, formatted). */
function wrongCells(cells: Cell[][]): string[] {
  const wrong: string[] = [];
  cells.forEach((column, k) =>
    column.forEach((c, at) => {
      const numeric = typeof c.points === 'number';
      const want = numeric ? Number(((c.points as number) / 100).toPrecision(15)) : c.points;
      if (c.value !== want || c.divided !== (numeric ? 1 : 0) || c.format !== PERCENT_FORMAT)
        wrong.push(`column ${k} row ${at + 2}: ${String(c.value)} divided ${c.divided} under ${c.format}`);
    }),
  );
  return wrong;
}

describe('a sheet in points past one request is upgraded in several, each within 2 MB', () => {
  const batches = percentUpgradeBatches(
    SHEET,
    ORDERS,
    sheetInPoints().map((column) => column.map((c) => [c.value])),
    ROWS,
  );
  const created = batches.map((b) => b.flatMap((r) => r.createDeveloperMetadata?.developerMetadata?.metadataKey ?? []));

  it('cuts the upgrade into requests within the limit; one in-progress marker in the first, the tag and its deletion in the last', () => {
    expect(batches.length).toBeGreaterThan(2);
    for (const requests of batches) expect(sheetsPayloadBytes({ requests })).toBeLessThanOrEqual(SHEETS_PAYLOAD_LIMIT);
    expect(created[0]).toEqual([PERCENT_IN_PROGRESS_KEY]);
    expect(created.slice(1, -1).every((keys) => keys.length === 0)).toBe(true);
    expect(created[created.length - 1]).toEqual([PERCENT_METADATA_KEY]);
    expect(batches[batches.length - 1].filter((r) => r.deleteDeveloperMetadata !== undefined)).toHaveLength(1);
  });

  /** The merchant's edits between the killed run and the next: whole rows move, values and formats together. */
  const edits: Record<string, (cells: Cell[][]) => Cell[][]> = {
    nothing: (cells) => cells,
    'a sort (rows reversed)': (cells) => cells.map((column) => [...column].reverse()),
    'rows 2..51 deleted': (cells) => cells.map((column) => column.slice(50)),
  };

  it.each(Object.keys(edits).flatMap((edit) => [1, 2, batches.length - 1].map((sent) => [sent, edit] as const)))(
    'killed after %i request(s), then %s: the next upgrade converts every other cell, each once',
    (sent, edit) => {
      const keys: string[] = [];
      let cells = sheetInPoints();
      for (const requests of batches.slice(0, sent)) apply(cells, requests, keys);
      expect(keys).toEqual([PERCENT_IN_PROGRESS_KEY]);
      cells = edits[edit](cells);
      const rows = cells[0].length + 1;
      for (const requests of nextUpgrade(cells, rows)) apply(cells, requests, keys);
      expect(wrongCells(cells).slice(0, 5)).toEqual([]);
      expect(keys).toEqual([PERCENT_METADATA_KEY]);
    },
  );

  it('a resumed upgrade that fits one request deletes the marker with the tag', () => {
    const cells = sheetInPoints().map((column) => column.slice(0, 99));
    const keys = [PERCENT_IN_PROGRESS_KEY];
    const next = nextUpgrade(cells, 100);
    expect(next).toHaveLength(1);
    apply(cells, next[0], keys);
    expect(wrongCells(cells)).toEqual([]);
    expect(keys).toEqual([PERCENT_METADATA_KEY]);
  });
});
