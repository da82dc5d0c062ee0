/**
 * Sheets set up before percent.ts hold the API's points in their percent columns (55.08 shown
 * "55.08%" by the pattern 0.00"%"). The first run that opens such a sheet turns every one of its
 * percent cells into Sheets' fraction and gives the column the 0.00% format, and tags the sheet
 * as holding fractions, all in ONE Sheets API batchUpdate: Google applies a batchUpdate's requests
 * together or not at all ("if any request is not valid, the entire update fails", spreadsheets
 * batchUpdate reference), so no column ever holds points and fractions together, and a run cut
 * short before it leaves the sheet as it was, upgraded by the next. The tag (developer metadata on
 * the sheet, read with the run's one snapshot) is what says a sheet holds fractions: a sheet set up
 * now carries it from its set-up, so it is never divided twice.
 */
import { a1Range } from './a1';
import { pointsToFraction, PERCENT_FORMAT } from './percent';
import type { SheetInfo } from './sheet-snapshot';
import type { TableSchema } from './schema';

type SheetsRequest = GoogleAppsScript.Sheets.Schema.Request;

export const PERCENT_METADATA_KEY = 'merchant_analytics_percent';
export const PERCENT_FRACTION = 'fraction';

/** 0-based sheet columns of the schema's percent columns (retired ones too: revived, they must read right). */
export function percentColumns(schema: TableSchema): number[] {
  const columns: number[] = [];
  schema.columns.forEach((c, i) => {
    if (c.kind === 'pct' && c.skip !== 'foreign') columns.push(i);
  });
  return columns;
}

/** The tag a sheet holding fractions carries (the set-up's, and the upgrade's). */
export function percentTagRequest(sheetId: number): SheetsRequest {
  return {
    createDeveloperMetadata: {
      developerMetadata: {
        metadataKey: PERCENT_METADATA_KEY,
        metadataValue: PERCENT_FRACTION,
        location: { sheetId },
        visibility: 'DOCUMENT',
      },
    },
  };
}

/** Whether an existing sheet of this schema still holds points (it has percent columns and no fraction tag). */
export function holdsPoints(schema: TableSchema, info: SheetInfo): boolean {
  if (percentColumns(schema).length === 0) return false;
  return !info.tags.some((t) => t.key === PERCENT_METADATA_KEY && t.value === PERCENT_FRACTION);
}

/** The A1 ranges of the percent columns' data rows (row 2 to the grid's last), one per column. */
export function percentRanges(sheetName: string, columns: readonly number[], rows: number): string[] {
  return columns.map((c) => a1Range(sheetName, 2, c + 1, Math.max(2, rows), c + 1));
}

/**
 * The upgrade of a sheet's percent columns (pure). `values[k]` is column `columns[k]` as read
 * unformatted from row 2 down (a short read: trailing empty rows left out). Every number becomes
 * its fraction, in runs of adjacent numbers (a text or empty cell is not written: an updateCells
 * row leaving a value out would clear it); rows 2..`rows` get the percent format; then the tag.
 */
export function percentUpgradeRequests(
  sheetId: number,
  columns: readonly number[],
  values: ReadonlyArray<ReadonlyArray<ReadonlyArray<unknown>>>,
  rows: number,
): SheetsRequest[] {
  const requests: SheetsRequest[] = [];
  columns.forEach((column, k) => {
    const cells = (values[k] ?? []).map((row) => row[0]);
    for (let start = 0; start < cells.length;) {
      if (!isNumber(cells[start])) {
        start++;
        continue;
      }
      let end = start;
      while (end < cells.length && isNumber(cells[end])) end++;
      requests.push({
        updateCells: {
          start: { sheetId, rowIndex: 1 + start, columnIndex: column },
          rows: cells
            .slice(start, end)
            .map((v) => ({ values: [{ userEnteredValue: { numberValue: pointsToFraction(v as number) } }] })),
          fields: 'userEnteredValue',
        },
      });
      start = end;
    }
    if (rows >= 2)
      requests.push({
        repeatCell: {
          range: { sheetId, startRowIndex: 1, endRowIndex: rows, startColumnIndex: column, endColumnIndex: column + 1 },
          cell: { userEnteredFormat: { numberFormat: { type: 'NUMBER', pattern: PERCENT_FORMAT } } },
          fields: 'userEnteredFormat.numberFormat',
        },
      });
  });
  requests.push(percentTagRequest(sheetId));
  return requests;
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
