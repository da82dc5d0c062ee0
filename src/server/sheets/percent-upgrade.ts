/**
 * Sheets set up before percent.ts hold the API's points in their percent columns (55.08 shown
 * "55.08%" by the pattern 0.00"%"). The first run that opens such a sheet turns every one of its
 * percent cells into Sheets' fraction and gives the column the 0.00% format, and tags the sheet
 * as holding fractions. Google applies a batchUpdate's requests together or not at all ("if any
 * request is not valid, the entire update fails", spreadsheets batchUpdate reference): the whole
 * upgrade goes in ONE when it fits Google's recommended 2 MB, else in blocks of rows, each fraction
 * written in the request that gives it its format (percentUpgradeBatches), so no cell is divided
 * twice and a run cut short leaves the rest to the next, however the rows were sorted or deleted in
 * between. The tag (developer metadata on the sheet, read with the run's one snapshot) is what says
 * a sheet holds fractions: a sheet set up now carries it from its set-up.
 */
import { a1Range } from './a1';
import { groupsWithin } from './groups-within';
import { columnBlocks, type UpgradeBlock } from './percent-upgrade-blocks';
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

/**
 * The one marker of an upgrade in progress (no row numbers: the cells carry their own state). The
 * key is the one the row-numbered markers of earlier builds had, so a sheet they left half upgraded
 * reads as in progress too, and the last request deletes them all.
 */
export const PERCENT_IN_PROGRESS_KEY = 'merchant_analytics_percent_done';
const IN_PROGRESS = 'in progress';

function inProgressMarker(sheetId: number): SheetsRequest {
  return {
    createDeveloperMetadata: {
      developerMetadata: {
        metadataKey: PERCENT_IN_PROGRESS_KEY,
        metadataValue: IN_PROGRESS,
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
          metadataKey: PERCENT_IN_PROGRESS_KEY,
          metadataLocation: { sheetId },
          locationMatchingStrategy: 'EXACT_LOCATION',
        },
      },
    },
  };
}

/** Whether an earlier run began this sheet's upgrade in several requests and was cut short. */
export function upgradeInProgress(info: SheetInfo): boolean {
  return info.tags.some((t) => t.key === PERCENT_IN_PROGRESS_KEY);
}

/**
 * The upgrade of a sheet's percent columns (pure), as the batchUpdates to send in order.
 * `values[k]` is the k-th of percentColumns(schema) as read unformatted from row 2 down;
 * `converted[k][i]`, after a run cut short, says that cell (row i + 2) already holds a fraction (it
 * is under 0.00%: percent-formats.ts). Every other number becomes its fraction under 0.00%, rows
 * 2..`rows` get the percent format, and the last request tags the sheet. Google applies a
 * batchUpdate's requests together or not at all, so an upgrade that fits the request size
 * (write-size.ts) is ONE request; a larger one is cut into blocks of rows
 * (percent-upgrade-blocks.ts), the first request marking the upgrade in progress. A request gives
 * the 0.00% format to exactly the rows whose numbers it converts, so a run killed between two
 * requests leaves cells that are either fractions under 0.00% or points, wherever the merchant
 * moves them before the next run, which converts only the latter. The last request, with the tag,
 * deletes the marker.
 */
export function percentUpgradeBatches(
  sheetId: number,
  schema: TableSchema,
  values: ReadonlyArray<ReadonlyArray<ReadonlyArray<unknown>>>,
  rows: number,
  converted: ReadonlyArray<readonly boolean[]> | null = null,
): SheetsRequest[][] {
  const tag = percentTagRequest(sheetId);
  const marker = inProgressMarker(sheetId);
  const budget = WRITE_PAYLOAD_BYTES - requestBytes(tag) - requestBytes(markersCleared(sheetId)) - requestBytes(marker);
  const blocks = percentColumns(schema).flatMap((column, k) =>
    columnBlocks(
      sheetId,
      column,
      (values[k] ?? []).map((row) => row[0]),
      converted?.[k] ?? [],
      rows,
      budget / BLOCKS,
    ),
  );
  const bytesOf = (b: UpgradeBlock): number => b.requests.reduce((n, r) => n + requestBytes(r), 0);
  const groups = groupsWithin(blocks, bytesOf, budget);
  const last = groups.length - 1;
  const resumed = converted !== null;
  return groups.map((group, i) => [
    ...(i === 0 && last > 0 && !resumed ? [marker] : []),
    ...group.flatMap((b) => b.requests),
    ...(i === last ? [tag, ...(resumed || last > 0 ? [markersCleared(sheetId)] : [])] : []),
  ]);
}
