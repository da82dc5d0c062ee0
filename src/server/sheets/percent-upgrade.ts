/**
 * Sheets set up before percent.ts hold the API's points in their percent columns (55.08 shown
 * "55.08%" by the pattern 0.00"%"). The first run that opens such a sheet turns every one of its
 * percent cells into Sheets' fraction and gives the column the 0.00% format, and tags the sheet
 * as holding fractions. Google applies a batchUpdate's requests together or not at all ("if any
 * request is not valid, the entire update fails", spreadsheets batchUpdate reference): the whole
 * upgrade goes in ONE when it fits Google's recommended 2 MB, else in blocks of rows each sent with
 * a marker naming its rows (percentUpgradeBatches), so no cell is divided twice and a run cut short
 * leaves the rest to the next. The tag (developer metadata on the sheet, read with the run's one
 * snapshot) is what says a sheet holds fractions: a sheet set up now carries it from its set-up.
 */
import { a1Range } from './a1';
import { groupsWithin } from './groups-within';
import { columnBlocks, type RowSpan, type UpgradeBlock } from './percent-upgrade-blocks';
import { requestBytes } from './request-groups';
import type { SheetInfo } from './sheet-snapshot';
import type { TableSchema } from './schema';
import { WRITE_PAYLOAD_BYTES } from './write-size';

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

/** Blocks a request holds when full: the last block of a column leaves at most an eighth of a request unused. */
const BLOCKS = 8;

/** The marker of rows already turned into fractions, one per block, while a sheet is upgraded in several requests. */
export const PERCENT_DONE_KEY = 'merchant_analytics_percent_done';

/** A block's marker: `net_margin_pct:2-20001` (catalog header, sheet rows). */
function doneMarker(sheetId: number, block: UpgradeBlock): SheetsRequest {
  return {
    createDeveloperMetadata: {
      developerMetadata: {
        metadataKey: PERCENT_DONE_KEY,
        metadataValue: `${block.header}:${block.first}-${block.last}`,
        location: { sheetId },
        visibility: 'DOCUMENT',
      },
    },
  };
}

/** The sheet's markers deleted, with its tag: they say nothing once the sheet holds fractions. */
function markersCleared(sheetId: number): SheetsRequest {
  return {
    deleteDeveloperMetadata: {
      dataFilter: {
        developerMetadataLookup: {
          metadataKey: PERCENT_DONE_KEY,
          metadataLocation: { sheetId },
          locationMatchingStrategy: 'EXACT_LOCATION',
        },
      },
    },
  };
}

/** The rows of each percent column (by catalog header) that an upgrade cut short already turned into fractions. */
export function doneRows(info: SheetInfo): Map<string, RowSpan[]> {
  const done = new Map<string, RowSpan[]>();
  for (const tag of info.tags) {
    const m = tag.key === PERCENT_DONE_KEY ? /^(.+):(\d+)-(\d+)$/.exec(tag.value ?? '') : null;
    if (m) done.set(m[1], [...(done.get(m[1]) ?? []), [Number(m[2]), Number(m[3])]]);
  }
  return done;
}

/** Whether an earlier run cut short already turned this sheet row of the column into a fraction. */
export function isDone(done: ReadonlyMap<string, readonly RowSpan[]>, header: string, row: number): boolean {
  return (done.get(header) ?? []).some(([first, last]) => row >= first && row <= last);
}

/** Rows 2..rows less the spans done. */
function pendingSpans(rows: number, done: readonly RowSpan[]): RowSpan[] {
  const spans: RowSpan[] = [];
  let next = 2;
  for (const [first, last] of [...done].sort((a, b) => a[0] - b[0])) {
    if (first > next) spans.push([next, Math.min(first - 1, rows)]);
    next = Math.max(next, last + 1);
  }
  if (next <= rows) spans.push([next, rows]);
  return spans.filter(([first, last]) => first <= last);
}

/**
 * The upgrade of a sheet's percent columns (pure), as the batchUpdates to send in order.
 * `values[k]` is the k-th of percentColumns(schema) as read unformatted from row 2 down; `done`
 * what an earlier run cut short already did (doneRows). Every number of the other rows becomes its
 * fraction, rows 2..`rows` get the percent format, and the last request tags the sheet. Google
 * applies a batchUpdate's requests together or not at all, so an upgrade that fits the request size
 * (write-size.ts) is ONE request; a larger one is cut into blocks of rows (percent-upgrade-blocks.ts),
 * each request carrying the markers of its blocks, so a run killed between two requests leaves rows
 * that are either fractions under a marker or points: the next run converts only the latter. The
 * last request, with the tag, deletes the markers.
 */
export function percentUpgradeBatches(
  sheetId: number,
  schema: TableSchema,
  values: ReadonlyArray<ReadonlyArray<ReadonlyArray<unknown>>>,
  rows: number,
  done: ReadonlyMap<string, readonly RowSpan[]> = new Map(),
): SheetsRequest[][] {
  const tag = percentTagRequest(sheetId);
  const budget = WRITE_PAYLOAD_BYTES - requestBytes(tag) - requestBytes(markersCleared(sheetId));
  const blocks = percentColumns(schema).flatMap((column, k) => {
    const header = schema.columns[column].header;
    const cells = (values[k] ?? []).map((row) => row[0]);
    return columnBlocks(sheetId, column, header, cells, pendingSpans(rows, done.get(header) ?? []), budget / BLOCKS);
  });
  const bytesOf = (requests: readonly SheetsRequest[]): number => requests.reduce((n, r) => n + requestBytes(r), 0);
  const groups =
    bytesOf(blocks.flatMap((b) => b.requests)) <= budget
      ? [blocks]
      : groupsWithin(blocks, (b) => bytesOf([...b.requests, doneMarker(sheetId, b)]), budget);
  const last = groups.length - 1;
  const marked = done.size > 0 || last > 0;
  return groups.map((group, i) =>
    i < last
      ? group.flatMap((b) => [...b.requests, doneMarker(sheetId, b)])
      : [...group.flatMap((b) => b.requests), tag, ...(marked ? [markersCleared(sheetId)] : [])],
  );
}
