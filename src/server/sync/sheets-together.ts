/**
 * The sheets a first sync will fill, created together: a sheet's set-up (headers, formats, tag) is
 * held back until the run's next Sheets API request, so the missing sheets opened before the Sync
 * log's opening row share its one set-up batchUpdate instead of one batchUpdate per job later (the
 * products, the Daily P&L, then the tie-out's Monthly P&L and Checks). Only sheets that do not exist
 * yet are opened here: opening an existing one reads it, which its job does when it runs.
 */
import { CHECKS, DAILY, MONTHLY, PRODUCTS, VARIANTS, type TableSchema } from '../sheets/schema';
import type { JobContext, JobName } from './job-context';

export function createMissingSheetsTogether(ctx: JobContext, jobs: readonly JobName[]): void {
  const tables: TableSchema[] = [];
  if (jobs.includes('products')) tables.push(PRODUCTS, VARIANTS);
  // The tie-out that follows the Daily P&L writes the Monthly P&L and the Checks.
  if (jobs.includes('daily')) tables.push(DAILY, MONTHLY, CHECKS);
  // Opening a table's sheet creates it when it is missing.
  for (const table of tables) if (!ctx.workbook.hasSheet(table)) ctx.workbook.createdThisRun(table);
}
