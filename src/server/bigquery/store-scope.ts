/**
 * The store whose rows this spreadsheet reads, MERGEs and deletes in BigQuery. Several spreadsheets,
 * each connected to its own store, may sync into one dataset: every statement the add-on runs on
 * the tables is confined to the rows whose store_id is this store's (the store the run confirmed,
 * run-start.ts, tagged on the document).
 */
import { storeTag } from '../auth/connection-record';
import type { QueryParameter } from './query';

export const STORE_PARAMETER = 'store_id';

export function storeIdOfRun(): string {
  const id = storeTag();
  if (id === null)
    throw new Error('No store is tagged on this spreadsheet yet: its BigQuery rows cannot be told apart.');
  return id;
}

/** The named parameter (`@store_id`) for the run's store. */
export const storeParameter = (storeId: string): QueryParameter => ({
  name: STORE_PARAMETER,
  type: 'STRING',
  value: storeId,
});

/** A GoogleSQL string literal ("Lexical structure": quoted, backslash escapes), for SQL that takes no parameters (a Connected Sheets query). */
export function stringLiteral(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r')}'`;
}
