/**
 * Each column the sync keeps in Orders, Line items, Products, Variants, Daily P&L and Monthly P&L
 * carries its API key in developer metadata
 * (location COLUMN, visibility DOCUMENT). Sheets moves that tag with its column when columns are
 * inserted, deleted or moved, and deletes it with its column (developers.google.com/workspace/sheets/api/guides/metadata),
 * so the sync finds its columns by tag, not by heading: the heading is the user's to rename
 * ("Order #"), and the add-on never writes the key back over it. Pure.
 */
import type { TableLayout } from './sheet-layout';
import type { SheetName, TableSchema } from './schema';

export const COLUMN_METADATA_KEY = 'merchant_analytics_column';

/** The tables whose columns are tagged at set-up and found by tag: their headings are the user's to rename. */
const TAG_FOLLOWED: ReadonlySet<SheetName> = new Set<SheetName>([
  'Orders',
  'Line items',
  'Products',
  'Variants',
  'Daily P&L',
  'Monthly P&L',
]);

export function followsColumnTags(schema: TableSchema): boolean {
  return TAG_FOLLOWED.has(schema.sheetName);
}

/**
 * The header row as the tags read it: a tagged column's heading is its key, whatever the user
 * named it. The header check of a sheet whose columns keep their places (no layout) runs on this
 * row, so a rename passes and a moved or inserted column is still found.
 */
export function taggedHeaderRow(row: readonly unknown[], tags: readonly ColumnTag[]): unknown[] {
  const read = row.slice();
  // The newest tag of a column wins (a set-up cut short and redone tags it twice).
  for (const { header, column } of tags.slice().sort((a, b) => a.id - b.id)) {
    while (read.length <= column) read.push('');
    read[column] = header;
  }
  return read;
}

/** A column tag as the run's one spreadsheets.get lists it. */
export interface ColumnTag {
  id: number;
  /** The API key (catalog header) the column holds. */
  header: string;
  /** 0-based column of the sheet. */
  column: number;
}

export interface TaggedLayout {
  /** The layout with every tagged column where its tag is now (an untagged column is the user's). */
  layout: TableLayout;
  /** Synced headers whose column is gone (deleted with its tag): the sync must stop. */
  lost: string[];
}

/**
 * Where the tags put a layout's columns. A header tagged twice (a set-up cut short and redone) is
 * where its newest tag is. A retired column the user deleted is simply gone (its note invites that).
 */
export function taggedLayout(layout: TableLayout, tags: readonly ColumnTag[]): TaggedLayout {
  const placed = new Set(layout.columns.filter((h): h is string => h !== null));
  const newest = new Map<string, ColumnTag>();
  for (const tag of tags) {
    if (!placed.has(tag.header)) continue;
    const had = newest.get(tag.header);
    if (!had || tag.id > had.id) newest.set(tag.header, tag);
  }
  const columns: Array<string | null> = [];
  for (const { header, column } of newest.values()) {
    while (columns.length <= column) columns.push(null);
    columns[column] = header;
  }
  const gone = [...placed].filter((h) => !newest.has(h));
  const retired = new Set(layout.retired);
  const lost = gone.filter((h) => !retired.has(h));
  const keptRetired = layout.retired.filter((h) => newest.has(h));
  const cleared = layout.cleared
    ? Object.fromEntries(Object.entries(layout.cleared).filter(([h]) => newest.has(h)))
    : undefined;
  return { layout: { ...layout, columns, retired: keptRetired, ...(cleared ? { cleared } : {}) }, lost };
}

/** The stop when a synced column was deleted: which one, and how to get it back. */
export function lostColumnMessage(header: string, sheetName: string): string {
  const sheet = `"${sheetName}"`;
  return `The column "${header}" of ${sheet} was deleted, so the sync no longer knows where that field belongs. Undo the deletion (Edit → Undo, or File → Version history), or delete the sheet ${sheet} and the next sync builds it again with every row. Nothing was written to ${sheet}.`;
}

/** createDeveloperMetadata requests tagging the layout's columns at `columns` (1-based), for one batchUpdate. */
export function columnTagRequests(
  sheetId: number,
  layout: readonly (string | null)[],
  columns: readonly number[] = layout.map((_, i) => i + 1),
): GoogleAppsScript.Sheets.Schema.Request[] {
  return columns
    .filter((column) => layout[column - 1] !== null && layout[column - 1] !== undefined)
    .map((column) => ({
      createDeveloperMetadata: {
        developerMetadata: {
          metadataKey: COLUMN_METADATA_KEY,
          metadataValue: layout[column - 1] as string,
          location: { dimensionRange: { sheetId, dimension: 'COLUMNS', startIndex: column - 1, endIndex: column } },
          visibility: 'DOCUMENT',
        },
      },
    }));
}
