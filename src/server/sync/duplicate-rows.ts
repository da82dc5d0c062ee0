/**
 * Sync now clears the rows of Orders and the Daily P&L that repeat an earlier row's key (a row a
 * user copied, a date typed over another day's), once the tie-out named them (Checks) and the run
 * has caught up. Caught up, the key's first row holds the service's figures: the sync writes a
 * key's first row (the key index keeps it), the ✗ days' orders were fetched again whole (the ✗-day
 * refetch) and the Daily P&L read again from the earliest ✗ day. That row is kept; the later ones
 * are emptied (their managed cells; a user's own columns stay). Emptied, not deleted: a row a user
 * did not copy is never touched, and no row moves under the run's key index. The run then owes a
 * tie-out, so the same Sync now says ✓ in its next step.
 */
import { duplicateDayRows, duplicateOrderRows, duplicateWords, type DuplicateKey } from '../finance/tieout-duplicates';
import type { CellValue } from '../sheets/cells';
import { DAILY, ORDERS, columnIndex, type TableSchema } from '../sheets/schema';
import type { JobContext } from './job-context';
import { runsJobs, type RunStep } from './run-step';

export const DUPLICATE_ROWS_STEP: RunStep = {
  name: 'duplicate rows',
  due: (run) =>
    run.allCaughtUp &&
    run.options.refetchFailedDays === true &&
    runsJobs(run, 'orders', 'daily') &&
    (run.ctx.state.get('tieout').duplicateRows ?? 0) > 0,
  run(run) {
    const message = clearDuplicateRows(run.ctx);
    if (message === null) return;
    run.messages.push(message);
    // The Checks sheet still lists them: the next step of this Sync now ties out again.
    if (typeof run.ctx.state.get('tieout').owedSince !== 'number')
      run.ctx.state.update('tieout', { owedSince: run.ctx.now() });
    run.allCaughtUp = false;
  },
};

/** Empties the later rows of every duplicated key whose first row is the one the sync writes; the Sync log's words. */
export function clearDuplicateRows(ctx: JobContext): string | null {
  const orders = ctx.workbook.hasSheet(ORDERS)
    ? duplicateOrderRows(
        ctx.workbook.readColumns(ORDERS, ['id']),
        columnIndex(ORDERS, 'id'),
        columnIndex(ORDERS, 'placed_date'),
      )
    : [];
  const days = ctx.workbook.hasSheet(DAILY) ? duplicateDayRows(ctx.workbook.readTable(DAILY)) : [];
  const clearedOrders = clear(
    ctx,
    ORDERS,
    orders.filter((d) => keptBySync(ctx, ORDERS, d, d.key)),
  );
  const clearedDays = clear(
    ctx,
    DAILY,
    days.filter((d) => keptBySync(ctx, DAILY, d, d.key)),
  );
  ctx.state.update('tieout', { duplicateRows: 0 });
  const said = [
    clearedOrders.length > 0 ? `Orders ${clearedOrders.map(duplicateWords).join(', ')}` : '',
    clearedDays.length > 0 ? `Daily P&L ${clearedDays.map(duplicateWords).join(', ')}` : '',
  ].filter((s) => s !== '');
  return said.length === 0
    ? null
    : `Cleared rows that repeated an earlier row (${said.join('; ')}): the first row of each, which holds the service's figures, is kept.`;
}

/** The key's first row is the one the run's key index holds (so the sync wrote the service's figures there). */
function keptBySync(ctx: JobContext, schema: TableSchema, d: DuplicateKey, key: string): boolean {
  return ctx.workbook.index(schema).get(key)?.row === d.rows[0];
}

function clear(ctx: JobContext, schema: TableSchema, duplicates: readonly DuplicateKey[]): DuplicateKey[] {
  const rows = duplicates.flatMap((d) => d.rows.slice(1));
  if (rows.length === 0) return [];
  const blank = (): CellValue[] => schema.columns.map(() => '');
  ctx.workbook.write([{ schema, rows: rows.map((row) => ({ row, column: 1, cells: blank() })) }]);
  return duplicates.slice();
}
