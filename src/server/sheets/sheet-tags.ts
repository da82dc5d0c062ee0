/**
 * How the sync knows its sheets: each data sheet carries two developer-metadata tags, the store
 * whose data it holds and the table it is (e.g. "Orders"). A sheet is looked up by name first and,
 * when the user renamed it, by its table tag, so the sync follows the sheet instead of starting a
 * second one that would hold only the latest changes. Tags travel with the sheet, never with text.
 */
import { lostColumnMessage } from './column-tags';
import { findHeaderProblem } from './header-check';
import type { TableSchema } from './schema';
import type { SheetInfo } from './sheet-snapshot';

export const STORE_METADATA_KEY = 'merchant_analytics_store_id';
export const TABLE_METADATA_KEY = 'merchant_analytics_table';

/**
 * Where a sheet problem is, in the add-on's own words only: the table (the schema's name, whatever
 * the sheet is called now) and, for a heading, its column and the heading it must have. Never the
 * sheet's current name or a cell's text, which any editor sets (the failure e-mail uses this).
 */
export interface SheetPlace {
  table: string;
  /** 1-based column of a heading problem; null when the problem is the sheet as a whole. */
  column: number | null;
  /** The heading the schema puts in that column. */
  header: string | null;
}

/** A managed sheet that is not the add-on's to write (another store's, or the user's own). */
export class SheetOwnershipError extends Error {
  constructor(
    readonly sheetName: string,
    readonly userMessage: string,
    readonly place: SheetPlace,
  ) {
    super(userMessage);
    this.name = 'SheetOwnershipError';
  }
}

/** A managed sheet whose header row no longer matches its columns: writing would mix fields. */
export class SheetLayoutError extends Error {
  constructor(
    readonly sheetName: string,
    readonly userMessage: string,
    readonly place: SheetPlace,
  ) {
    super(userMessage);
    this.name = 'SheetLayoutError';
  }
}

function wholeSheet(schema: TableSchema): SheetPlace {
  return { table: schema.sheetName, column: null, header: null };
}

export interface LocatedSheet {
  info: SheetInfo;
  /** Its name now: the schema's, or the one the user gave it. */
  name: string;
}

/** Every sheet carrying a table tag, by table, in the order the tags were made (pure: from the one snapshot read). */
export function taggedSheets(sheets: readonly SheetInfo[]): Map<string, SheetInfo[]> {
  const tags: Array<{ id: number; table: string; sheet: SheetInfo }> = [];
  for (const sheet of sheets) {
    for (const m of sheet.tags)
      if (m.key === TABLE_METADATA_KEY && m.value !== null) tags.push({ id: m.id, table: m.value, sheet });
  }
  tags.sort((a, b) => a.id - b.id);
  const byTable = new Map<string, SheetInfo[]>();
  for (const { table, sheet } of tags) {
    const list = byTable.get(table) ?? [];
    if (list.every((s) => s.sheetId !== sheet.sheetId)) list.push(sheet);
    byTable.set(table, list);
  }
  return byTable;
}

/** The sheet named as the schema says, else the one tagged as its table (renamed by the user); null when neither exists. */
export function locateSheet(
  sheets: readonly SheetInfo[],
  schema: TableSchema,
  tagged: () => Map<string, SheetInfo[]>,
): LocatedSheet | null {
  const byName = sheets.find((s) => s.title === schema.sheetName);
  if (byName) return { info: byName, name: schema.sheetName };
  if (!schema.storeData) return null;
  const candidates = tagged().get(schema.sheetName) ?? [];
  if (candidates.length > 1) {
    const names = candidates.map((s) => `"${s.title}"`).join(' and ');
    throw new SheetLayoutError(
      schema.sheetName,
      `Both ${names} carry Merchant Analytics' ${schema.sheetName} data (a copy of the sheet?). Rename the one the sync should keep to "${schema.sheetName}"; nothing was written.`,
      wholeSheet(schema),
    );
  }
  return candidates.length === 1 ? { info: candidates[0], name: candidates[0].title } : null;
}

/**
 * Checks that an existing data sheet is this store's and tags it as its table when an older
 * version did not (through `addTag`, the one call that needs the sheet itself). An empty
 * untagged sheet is the trace of a set-up cut short: it is claimed.
 */
export function claimSheet(
  { info, name }: LocatedSheet,
  schema: TableSchema,
  storeId: string,
  empty: boolean,
  addTag: (key: string, value: string) => void,
): void {
  const stores = info.tags.filter((m) => m.key === STORE_METADATA_KEY);
  const tables = info.tags.filter((m) => m.key === TABLE_METADATA_KEY);
  if (stores.length === 0) {
    if (!empty) {
      throw new SheetOwnershipError(
        name,
        `A sheet named "${name}" exists that Merchant Analytics did not create. Rename it so the sync can create its own; nothing was written.`,
        wholeSheet(schema),
      );
    }
    addTag(STORE_METADATA_KEY, storeId);
  } else if (stores[0].value !== storeId) {
    throw new SheetOwnershipError(
      name,
      `The sheet "${name}" holds data of another store (${String(stores[0].value)}); this connection reads ${storeId}. Nothing was written. Use a new spreadsheet for this store, or reconnect the original store.`,
      wholeSheet(schema),
    );
  }
  if (tables.length === 0) addTag(TABLE_METADATA_KEY, schema.sheetName);
}

/** Refuses a sheet whose managed columns moved or were renamed (`row`: the header row as read). */
export function checkHeaderRow({ name }: LocatedSheet, schema: TableSchema, row: readonly unknown[]): void {
  const problem = findHeaderProblem(schema, row, name);
  if (problem)
    throw new SheetLayoutError(name, problem.message, {
      table: schema.sheetName,
      column: problem.column,
      header: schema.columns[problem.column - 1]?.header ?? null,
    });
}

/** Refuses a tagged sheet one of whose synced columns was deleted (`lost`: their headers, from taggedLayout). */
export function checkColumnTags({ name }: LocatedSheet, schema: TableSchema, lost: readonly string[]): void {
  if (lost.length > 0)
    throw new SheetLayoutError(name, lostColumnMessage(lost[0], name), {
      table: schema.sheetName,
      column: null,
      header: lost[0],
    });
}
