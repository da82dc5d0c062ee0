/**
 * Before the jobs of a run: what the user did to the managed sheets since the last run, and what
 * that means for the checkpoints. The checkpoints say what the SHEETS hold; when a sheet was
 * deleted (and is now created again) or rows were deleted, an incremental run would leave them
 * incomplete for good, so:
 * - a sheet created again restarts its job from the beginning (upserts keep rows unique);
 * - order or line item rows that disappeared start a reconciliation pass, which writes every
 *   order the service returns and so puts the deleted rows back (at the bottom: rows never move).
 * Returns what it did, in words for the Sync log.
 */
import { startPass } from './reconcile-pass';
import { SheetLayoutError } from '../sheets/managed-workbook';
import { DAILY, LINE_ITEMS, ORDERS, PRODUCTS, VARIANTS, type TableSchema } from '../sheets/schema';
import type { JobContext, JobName } from './job-context';
import { createMissingSheetsTogether } from './sheets-together';
import { counted } from '../../contract/counts-text';

function rebuilt(ctx: JobContext, schemas: readonly TableSchema[]): string[] {
  return schemas.filter((s) => ctx.workbook.createdThisRun(s)).map((s) => `"${s.sheetName}"`);
}

/**
 * Whether a Products, Variants or P&L sheet was set up afresh in this run. One whose columns the user
 * broke was not: its own job stops on it and says how to mend it, after Orders and Line items are written.
 */
function setUpAfresh(ctx: JobContext, schema: TableSchema): boolean {
  try {
    return ctx.workbook.createdThisRun(schema);
  } catch (e) {
    if (e instanceof SheetLayoutError) return false;
    throw e;
  }
}

function restartNote(names: string[], what: string): string {
  return `The ${names.join(' and ')} sheet${names.length > 1 ? 's were' : ' was'} missing and ${names.length > 1 ? 'are' : 'is'} filled again with every ${what}.`;
}

export function checkManagedSheets(ctx: JobContext, jobs: readonly JobName[]): string[] {
  const notes: string[] = [];
  // A reconciliation goes over every order: the row index would only cost a read of its own.
  if (jobs.indexOf('reconcile') >= 0) ctx.workbook.readKeysWhole();
  if (jobs.indexOf('orders') >= 0 || jobs.indexOf('reconcile') >= 0) {
    const orders = ctx.state.get('orders');
    const missing = rebuilt(ctx, [ORDERS, LINE_ITEMS]);
    if (missing.length > 0) {
      if (orders.watermark !== null) {
        ctx.state.update('orders', { watermark: null, caughtUp: false, rowCounts: null });
        notes.push(restartNote(missing, 'order'));
      }
    } else if (orders.rowCounts) {
      const lostOrders = orders.rowCounts.orders - ctx.workbook.index(ORDERS).size;
      const lostLines = orders.rowCounts.lineItems - ctx.workbook.index(LINE_ITEMS).size;
      if (lostOrders > 0 || lostLines > 0) {
        // A pass already under way has read past the deleted rows' changes: only a new one brings them back.
        startPass(ctx);
        notes.push(
          `${counted(Math.max(0, lostOrders), 'order row', 'order rows')} and ${counted(Math.max(0, lostLines), 'line item row', 'line item rows')} were deleted from the sheets; ` +
            'a full pass over the orders puts them back at the bottom (rows the sync manages are kept in step with Merchant Analytics).',
        );
      }
    }
  }
  if (jobs.indexOf('products') >= 0 && ctx.state.get('products').watermark !== null) {
    const missing = [PRODUCTS, VARIANTS].filter((s) => setUpAfresh(ctx, s)).map((s) => `"${s.sheetName}"`);
    if (missing.length > 0) {
      ctx.state.update('products', { watermark: null, caughtUp: false });
      notes.push(restartNote(missing, 'product'));
    }
  }
  if (jobs.indexOf('daily') >= 0 && ctx.state.get('daily').historyDone && setUpAfresh(ctx, DAILY)) {
    ctx.state.update('daily', { historyDone: false, resumeFrom: null, dirtyFrom: null, backfillFrom: null });
    notes.push(restartNote(['"Daily P&L"'], 'day of the history'));
  }
  createMissingSheetsTogether(ctx, jobs);
  return notes;
}

/** What the orders job saves with each checkpoint: the rows the sheets now hold. */
export function rowCounts(ctx: JobContext): { orders: number; lineItems: number } {
  return { orders: ctx.workbook.index(ORDERS).size, lineItems: ctx.workbook.index(LINE_ITEMS).size };
}
