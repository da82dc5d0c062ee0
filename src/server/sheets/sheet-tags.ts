/**
 * How the sync knows its sheets: each data sheet carries two developer-metadata tags, the store
 * whose data it holds and the table it is (e.g. "Orders"). A sheet is looked up by name first and,
 * when the user renamed it, by its table tag, so the sync follows the sheet instead of starting a
 * second one that would hold only the latest changes. Tags travel with the sheet, never with text.
 */
import { findHeaderProblem } from './header-check';
import type { TableSchema } from './schema';

export const STORE_METADATA_KEY = 'merchant_analytics_store_id';
export const TABLE_METADATA_KEY = 'merchant_analytics_table';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** A managed sheet that is not the add-on's to write (another store's, or the user's own). */
export class SheetOwnershipError extends Error {
  constructor(readonly sheetName: string, readonly userMessage: string) {
    super(userMessage);
    this.name = 'SheetOwnershipError';
  }
}

/** A managed sheet whose header row no longer matches its columns: writing would mix fields. */
export class SheetLayoutError extends Error {
  constructor(readonly sheetName: string, readonly userMessage: string) {
    super(userMessage);
    this.name = 'SheetLayoutError';
  }
}

export interface LocatedSheet {
  sheet: Sheet;
  /** Its name now: the schema's, or the one the user gave it. */
  name: string;
}

/** Every sheet carrying a table tag, by table: ONE metadata search, made only when a sheet is missing by name. */
export function taggedSheets(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): Map<string, Sheet[]> {
  const byTable = new Map<string, Sheet[]>();
  for (const m of spreadsheet.createDeveloperMetadataFinder().withKey(TABLE_METADATA_KEY).find()) {
    const sheet = m.getLocation().getSheet();
    const table = m.getValue();
    if (!sheet || table === null) continue;
    const list = byTable.get(table) ?? [];
    if (list.every((s) => s.getSheetId() !== sheet.getSheetId())) list.push(sheet);
    byTable.set(table, list);
  }
  return byTable;
}

/** The sheet named as the schema says, else the one tagged as its table (renamed by the user); null when neither exists. */
export function locateSheet(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  schema: TableSchema,
  tagged: () => Map<string, Sheet[]>,
): LocatedSheet | null {
  const byName = spreadsheet.getSheetByName(schema.sheetName);
  if (byName) return { sheet: byName, name: schema.sheetName };
  if (!schema.storeData) return null;
  const candidates = tagged().get(schema.sheetName) ?? [];
  if (candidates.length > 1) {
    const names = candidates.map((s) => `"${s.getName()}"`).join(' and ');
    throw new SheetLayoutError(
      schema.sheetName,
      `Both ${names} carry Merchant Analytics' ${schema.sheetName} data (a copy of the sheet?). Rename the one the sync should keep to "${schema.sheetName}"; nothing was written.`,
    );
  }
  return candidates.length === 1 ? { sheet: candidates[0], name: candidates[0].getName() } : null;
}

/**
 * Checks that an existing data sheet is this store's and tags it as its table when an older
 * version did not. An empty untagged sheet is the trace of a set-up cut short: it is claimed.
 */
export function claimSheet({ sheet, name }: LocatedSheet, schema: TableSchema, storeId: string, empty: boolean): void {
  const metadata = sheet.getDeveloperMetadata();
  const stores = metadata.filter((m) => m.getKey() === STORE_METADATA_KEY);
  const tables = metadata.filter((m) => m.getKey() === TABLE_METADATA_KEY);
  if (stores.length === 0) {
    if (!empty) {
      throw new SheetOwnershipError(name, `A sheet named "${name}" exists that Merchant Analytics did not create. Rename it so the sync can create its own; nothing was written.`);
    }
    sheet.addDeveloperMetadata(STORE_METADATA_KEY, storeId);
  } else if (stores[0].getValue() !== storeId) {
    throw new SheetOwnershipError(
      name,
      `The sheet "${name}" holds data of another store (${String(stores[0].getValue())}); this connection reads ${storeId}. Nothing was written. Use a new spreadsheet for this store, or reconnect the original store.`,
    );
  }
  if (tables.length === 0) sheet.addDeveloperMetadata(TABLE_METADATA_KEY, schema.sheetName);
}

/** Tags a sheet the sync has just created. */
export function tagNewSheet(sheet: Sheet, schema: TableSchema, storeId: string): void {
  sheet.addDeveloperMetadata(STORE_METADATA_KEY, storeId);
  sheet.addDeveloperMetadata(TABLE_METADATA_KEY, schema.sheetName);
}

/** Reads the header row (one call) and refuses a sheet whose managed columns moved or were renamed. */
export function checkHeaderRow({ sheet, name }: LocatedSheet, schema: TableSchema): void {
  // One column past the managed ones shows where a heading went when a column was inserted before it.
  const width = Math.min(schema.columns.length + 1, sheet.getMaxColumns());
  const row = sheet.getRange(1, 1, 1, width).getValues()[0];
  const problem = findHeaderProblem(schema, row, name);
  if (problem) throw new SheetLayoutError(name, problem.message);
}
