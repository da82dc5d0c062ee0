/**
 * How a managed sheet looks when it is created: exactly the managed columns, each wide enough for
 * its values (a date-time "yyyy-mm-dd hh:mm:ss" or an amount with its currency would otherwise
 * show ##### in a narrow column, in Sheets and in a downloaded .xlsx) and for its bold header.
 * Pure: returns the Sheets API requests the set-up sends in its one batchUpdate.
 */
import type { ColumnKind, ColumnSpec, TableSchema } from './schema';

/** Google Sheets' default column width, in pixels. */
export const DEFAULT_COLUMN_PX = 100;
/** Widest column the set-up makes for a long header (the header text is clipped beyond). */
const MAX_HEADER_PX = 180;
/** Approximate width of one character of the (bold) default font, and the cell padding, in pixels. */
const CHAR_PX = 7;
const PADDING_PX = 16;

/** Characters of the widest usual value of each kind, as the column's number format shows it. */
const VALUE_CHARS: Readonly<Partial<Record<ColumnKind, number>>> = {
  timestamp: 'yyyy-mm-dd hh:mm:ss'.length,
  date: 'yyyy-mm-dd'.length,
  amount: '-1,234,567.89 USD'.length,
};

/**
 * Text columns whose values are long and read whole: ids (`var_01k1s2hp5wnzpm8g`), platform gids
 * (`gid://shopify/Order/5200000024`), names and titles, and URLs — wide enough for the value (a
 * URL for its domain and the start of its path; longer text is clipped, as in Sheets).
 */
const TEXT_CHARS: ReadonlyArray<readonly [RegExp, number]> = [
  [/_gid$/, 'gid://shopify/Order/5200000024'.length],
  [/^(id|.+_id|customer_ref)$/, 'var_01k1s2hp5wnzpm8g'.length],
  [/^(name|title|store_name)$/, 'Organic Cotton Backpack 52 – L'.length],
  [/(url|landing_page|referrer)$/, 'https://northwind-outfitters.myshopify.com/products/'.length],
];

function valueChars(column: ColumnSpec): number {
  if (column.valueChars !== undefined) return column.valueChars;
  if (column.kind === 'text') return TEXT_CHARS.find(([pattern]) => pattern.test(column.header))?.[1] ?? 0;
  return VALUE_CHARS[column.kind] ?? 0;
}

export function columnWidthPx(column: ColumnSpec): number {
  const value = valueChars(column) * CHAR_PX + PADDING_PX;
  const header = Math.min(MAX_HEADER_PX, column.header.length * CHAR_PX + PADDING_PX);
  return Math.max(DEFAULT_COLUMN_PX, value, header);
}

type SheetsRequest = GoogleAppsScript.Sheets.Schema.Request;

/**
 * The set-up requests of a sheet: its column count set to the schema's (when it differs), then
 * one width request per run of adjacent columns of equal width.
 */
export function setUpRequests(sheetId: number, schema: TableSchema, columnCount: number): SheetsRequest[] {
  const width = schema.columns.length;
  const requests: SheetsRequest[] = [];
  if (columnCount !== width) {
    // Exactly the managed columns: empty ones count toward the 10 M cell limit on every row
    // (a user inserts their own columns to the right when needed).
    requests.push({
      updateSheetProperties: {
        properties: { sheetId, gridProperties: { columnCount: width } },
        fields: 'gridProperties.columnCount',
      },
    });
  }
  const widths = schema.columns.map(columnWidthPx);
  for (let start = 0; start < width;) {
    let end = start + 1;
    while (end < width && widths[end] === widths[start]) end++;
    requests.push({
      updateDimensionProperties: {
        range: { sheetId, dimension: 'COLUMNS', startIndex: start, endIndex: end },
        properties: { pixelSize: widths[start] },
        fields: 'pixelSize',
      },
    });
    start = end;
  }
  return requests;
}
