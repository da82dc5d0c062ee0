/**
 * Which percent cells an upgrade cut short already turned into fractions: those under 0.00%. The
 * upgrade gives that format in the very request that writes the fraction
 * (percent-upgrade-blocks.ts), and a cell's format moves with it when the merchant sorts, inserts or
 * deletes rows, so the format says what the cell holds where row numbers could not. Read only
 * after a run was cut short: one Spreadsheets.get of the percent columns' number formats (the
 * `fields` mask keeps the values out;
 * developers.google.com/workspace/sheets/api/reference/rest/v4/spreadsheets/get).
 */
import { PERCENT_FORMAT } from './percent';
import { sheetsRequest } from './sheets-requests';
import { sheetsService } from './sheet-snapshot';

const FORMAT_FIELDS = 'sheets.data.rowData.values.userEnteredFormat.numberFormat.pattern';

interface FormatsRead {
  sheets?: Array<{
    data?: Array<{
      rowData?: Array<{ values?: Array<{ userEnteredFormat?: { numberFormat?: { pattern?: string } } }> }>;
    }>;
  }>;
}

/** Per range (one percent column from row 2 down), whether each cell is under the fraction format. */
export function fractionCells(spreadsheetId: string, ranges: readonly string[]): boolean[][] {
  const read = sheetsRequest('read', () =>
    sheetsService().get(spreadsheetId, { ranges: [...ranges], fields: FORMAT_FIELDS }),
  ) as FormatsRead;
  const grids = read.sheets?.[0]?.data ?? [];
  return ranges.map((_, k) =>
    (grids[k]?.rowData ?? []).map(
      (row) => row.values?.[0]?.userEnteredFormat?.numberFormat?.pattern === PERCENT_FORMAT,
    ),
  );
}
