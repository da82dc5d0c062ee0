/**
 * What a run needs to know of the spreadsheet before it writes, in two Sheets API calls instead of
 * several per sheet: every sheet's title, grid size and developer-metadata tags (one
 * Spreadsheets.get with a field mask), then the header row and key columns of every managed sheet
 * (one Values.batchGet). Values come UNFORMATTED, dates as serial numbers: what getValues gives
 * once its Date objects are turned back into serials (the key index does that for both).
 */
import { sheetsRequest } from './sheets-requests';
import { batchGetValues } from './values-batches';
import { COLUMN_METADATA_KEY, type ColumnTag } from './column-tags';
import { a1Range } from './a1';
import { indexColumnPositions } from './column-positions';
import { changeSpan, type TableSchema } from './schema';

export interface MetadataTag {
  id: number;
  key: string;
  value: string | null;
}

export interface SheetInfo {
  sheetId: number;
  title: string;
  rows: number;
  columns: number;
  /** Developer metadata on the sheet itself, in the order the API lists it. */
  tags: MetadataTag[];
  /** The column tags (column-tags.ts): where each managed column is now (none: an untagged sheet). */
  columnTags?: ColumnTag[];
}

/** A sheet's grid size. */
export type Grid = Pick<SheetInfo, 'rows' | 'columns'>;

/** The rows a managed sheet's first read holds. */
export interface SheetReads {
  /** Row 1, from column A through one column past the managed ones (or the sheet's last column). */
  header: unknown[];
  /**
   * The index columns from row 2 down to the last row with a value in them (trailing empty rows
   * left out), each row followed by the schema's change columns (the change check); whole rows for
   * a `wholeRows` read (the change columns are among them).
   */
  keys: unknown[][];
  /** The key columns were not read: the run finds rows by the row index (row-index.ts). */
  sparse?: boolean;
}

interface ApiSheet {
  properties?: { sheetId?: number; title?: string; gridProperties?: { rowCount?: number; columnCount?: number } };
  developerMetadata?: Array<{
    metadataId?: number;
    metadataKey?: string;
    metadataValue?: string;
    location?: { locationType?: string };
  }>;
  data?: Array<{ startColumn?: number; columnMetadata?: Array<{ developerMetadata?: ApiMetadata[] }> }>;
}

interface ApiMetadata {
  metadataId?: number;
  metadataKey?: string;
  metadataValue?: string;
}

export const SNAPSHOT_FIELDS =
  'sheets(properties(sheetId,title,gridProperties(rowCount,columnCount)),developerMetadata(metadataId,metadataKey,metadataValue,location(locationType)),data(startColumn,columnMetadata(developerMetadata(metadataId,metadataKey,metadataValue))))';
const GRID_FIELDS = 'sheets(properties(gridProperties(rowCount,columnCount)))';

/** Every sheet of the spreadsheet, in tab order (ONE call). */
export function readSheetInfos(spreadsheetId: string): SheetInfo[] {
  const got = sheetsRequest('read', () => sheetsService().get(spreadsheetId, { fields: SNAPSHOT_FIELDS })) as {
    sheets?: ApiSheet[];
  };
  return (got.sheets ?? []).map((s) => ({
    sheetId: s.properties?.sheetId ?? 0,
    title: s.properties?.title ?? '',
    rows: s.properties?.gridProperties?.rowCount ?? 0,
    columns: s.properties?.gridProperties?.columnCount ?? 0,
    tags: (s.developerMetadata ?? [])
      .filter((m) => m.location?.locationType === 'SHEET' && typeof m.metadataKey === 'string')
      .map((m) => ({ id: m.metadataId ?? 0, key: m.metadataKey as string, value: m.metadataValue ?? null })),
    columnTags: columnTagsOf(s),
  }));
}

/** The column tags of a sheet, from its grid data's column properties (one DimensionProperties per column). */
function columnTagsOf(sheet: ApiSheet): ColumnTag[] {
  const tags: ColumnTag[] = [];
  for (const grid of sheet.data ?? [])
    (grid.columnMetadata ?? []).forEach((properties, k) => {
      for (const m of properties.developerMetadata ?? [])
        if (m.metadataKey === COLUMN_METADATA_KEY && typeof m.metadataValue === 'string')
          tags.push({ id: m.metadataId ?? 0, header: m.metadataValue, column: (grid.startColumn ?? 0) + k });
    });
  return tags;
}

/** Grid cells of every sheet (what counts toward the 10 M limit), in ONE call. */
export function readGridCells(spreadsheetId: string): number {
  const got = sheetsRequest('read', () => sheetsService().get(spreadsheetId, { fields: GRID_FIELDS })) as {
    sheets?: ApiSheet[];
  };
  return (got.sheets ?? []).reduce(
    (n, s) => n + (s.properties?.gridProperties?.rowCount ?? 0) * (s.properties?.gridProperties?.columnCount ?? 0),
    0,
  );
}

export interface ReadRequest {
  schema: TableSchema;
  info: SheetInfo;
  /** Read every managed column of the data rows, not only the index columns (a table a run sums, e.g. Daily P&L). */
  wholeRows?: boolean;
  /** Read only this many leading columns (the schema's keyReadColumns), without the change columns. */
  keyColumns?: number;
  /** Of those, read only this one (0-based, the parent's key: schema.parentKey); the others read empty. */
  parentColumn?: number;
}

/** The header row and key columns of each sheet asked for (and `extra` ranges), in ONE Values.batchGet (more only when its URL would be too long). */
export function readManagedRows(
  spreadsheetId: string,
  requests: readonly ReadRequest[],
  extra?: { ranges: readonly string[]; values?: unknown[][][] },
): SheetReads[] {
  if (requests.length === 0 && !extra?.ranges.length) return [];
  const ranges: string[] = [];
  const keyRangeAt: Array<{ keys: number; placed: number[] | null; changes: number | null } | null> = [];
  for (const { schema, info, wholeRows, keyColumns: only, parentColumn } of requests) {
    // One column past the managed ones shows where a heading went when a column was inserted before it.
    ranges.push(a1Range(info.title, 1, 1, 1, Math.max(1, Math.min(schema.columns.length + 1, info.columns))));
    const keyColumns = Math.min(wholeRows ? schema.columns.length : (only ?? schema.indexColumns), info.columns);
    if (info.rows >= 2 && keyColumns > 0) {
      const keys = ranges.length;
      // The index columns where the sheet holds them (a layout may place them anywhere): one range
      // each when they are not the leading columns, in index order.
      const positions = wholeRows ? null : indexColumnPositions(schema);
      const wanted =
        positions === null
          ? null
          : parentColumn === undefined
            ? positions.slice(0, keyColumns)
            : [positions[parentColumn]];
      const leading = wanted === null || wanted.every((p, k) => p === (parentColumn ?? 0) + k);
      if (leading) {
        const from = parentColumn === undefined ? 1 : parentColumn + 1;
        ranges.push(a1Range(info.title, 2, from, info.rows, parentColumn === undefined ? keyColumns : from));
      } else for (const p of wanted) ranges.push(a1Range(info.title, 2, p + 1, info.rows, p + 1));
      const span = wholeRows || only !== undefined ? null : changeSpan(schema);
      let changes: number | null = null;
      if (span && span.end <= info.columns) {
        changes = ranges.length;
        ranges.push(a1Range(info.title, 2, span.start + 1, info.rows, span.end));
      }
      keyRangeAt.push({ keys, placed: leading ? null : wanted, changes });
    } else keyRangeAt.push(null);
  }
  const extraAt = ranges.length;
  if (extra) ranges.push(...extra.ranges);
  const valueRanges = batchGetValues(
    (id, options) => sheetsService().Values?.batchGet(id, options),
    spreadsheetId,
    ranges,
    { valueRenderOption: 'UNFORMATTED_VALUE', dateTimeRenderOption: 'SERIAL_NUMBER' },
  );
  if (extra) extra.values = extra.ranges.map((_, i) => (valueRanges[extraAt + i]?.values ?? []) as unknown[][]);
  let at = 0;
  return requests.map(({ schema, info, wholeRows, keyColumns: only, parentColumn }, i) => {
    const header = padded(valueRanges[at]?.values?.[0] ?? [], Math.min(schema.columns.length + 1, info.columns));
    const reads = keyRangeAt[i];
    let keys: unknown[][] = [];
    if (reads !== null) {
      const changes = reads.changes === null ? null : (valueRanges[reads.changes]?.values ?? []);
      const span = changeSpan(schema);
      const width = span ? span.end - span.start : 0;
      keys = keyRows(valueRanges, reads.keys, reads.placed).map((row, r) => {
        if (parentColumn !== undefined) return padded(new Array<unknown>(parentColumn).fill('').concat(row), only ?? 0);
        const index = padded(row, wholeRows ? schema.columns.length : (only ?? schema.indexColumns));
        return changes === null ? index : index.concat(padded(changes[r] ?? [], width));
      });
      at = (reads.changes ?? reads.keys + (reads.placed?.length ?? 1) - 1) + 1;
    } else at++;
    return { header, keys };
  });
}

/** The key rows read: one range's rows, or (`placed`: one range per index column) the columns side by side. */
function keyRows(
  valueRanges: ReadonlyArray<{ values?: unknown[][] }>,
  first: number,
  placed: readonly number[] | null,
): unknown[][] {
  if (placed === null) return valueRanges[first]?.values ?? [];
  const columns = placed.map((_, k) => valueRanges[first + k]?.values ?? []);
  const count = Math.max(0, ...columns.map((c) => c.length));
  const rows: unknown[][] = [];
  for (let r = 0; r < count; r++) rows.push(columns.map((c) => c[r]?.[0] ?? ''));
  // Trailing rows without a key are left out, as a single range's read leaves them out.
  while (rows.length > 0 && rows[rows.length - 1].every((v) => v === '')) rows.pop();
  return rows;
}

/** The API leaves out trailing empty cells; getValues gives '' for them. */
function padded(row: readonly unknown[], width: number): unknown[] {
  const out = row.slice();
  while (out.length < width) out.push('');
  return out;
}

export function sheetsService(): GoogleAppsScript.Sheets.Collection.SpreadsheetsCollection {
  if (typeof Sheets === 'undefined' || !Sheets || !Sheets.Spreadsheets || !Sheets.Spreadsheets.Values) {
    throw new Error(
      'The Advanced Sheets service (Sheets v4) is not enabled for this script; the sync needs it to write rows in batches.',
    );
  }
  return Sheets.Spreadsheets;
}

export function valuesService(): GoogleAppsScript.Sheets.Collection.Spreadsheets.ValuesCollection {
  return sheetsService().Values as GoogleAppsScript.Sheets.Collection.Spreadsheets.ValuesCollection;
}
