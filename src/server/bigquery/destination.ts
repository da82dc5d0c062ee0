/**
 * The run's side of the destination setting: which writer the orders feed uses, and which run
 * steps do not apply while Orders and Line items live in BigQuery (each reads or writes those
 * sheets). Read from the sync state's whole read at the run's start: no property call.
 */
import { currentSpreadsheetId } from '../platform/context';
import type { JobContext } from '../sync/job-context';
import type { OrderWriter } from '../sync/order-writer';
import { BACKFILL_CHECK } from '../sync/orders-destination';
import { DESTINATION_PROPERTY_KEY, readDestination, type Destination } from './destination-setting';
import { connectSheets } from './connected-sheets';
import { requireDestinationPermission } from './destination-consent';
import { refuseWhileLoadsPaused } from './load-quota';
import { refuseWhilePartitionsPaused } from './partition-budget';
import { bigQueryOrderWriter, type BigQueryWriterOptions } from './order-writer';

export function runDestination(ctx: Pick<JobContext, 'state'>): Destination {
  return readDestination(ctx.state.readAtStart[DESTINATION_PROPERTY_KEY]);
}

/** The BigQuery writer when the user chose BigQuery; null for the sheets. */
export function bigQueryWriterFor(ctx: JobContext, options: BigQueryWriterOptions = {}): OrderWriter | null {
  const destination = runDestination(ctx);
  if (destination.kind !== 'bigquery') return null;
  requireDestinationPermission(destination);
  // BigQuery's daily load quota or partition modifications used up: no page is read that could not be written.
  refuseWhileLoadsPaused(ctx, ctx.now());
  refuseWhilePartitionsPaused(ctx, ctx.now());
  // The spreadsheet's own stage tables: two spreadsheets syncing into one dataset never share one
  // (a spreadsheet id's letters, digits, - and _ are all allowed in a table name: "Table naming").
  const spreadsheetId = currentSpreadsheetId();
  if (spreadsheetId === null) throw new Error('No spreadsheet: the BigQuery stage tables are named after it.');
  return bigQueryOrderWriter(ctx, destination, spreadsheetId, options);
}

/**
 * Steps that read or write the Orders and Line items sheets (duplicate rows, the column fill) or
 * guard their cells (the backfill's fit): not run while orders go to BigQuery. The tie-out runs in
 * SQL there (tieout.ts), the ✗ days' refetch MERGEs through the BigQuery writer, and the
 * reconciliation pass is BigQuery's own (reconcile-pass.ts).
 */
const SHEET_ORDER_STEPS: ReadonlySet<string> = new Set([BACKFILL_CHECK, 'duplicate rows', 'column fill']);

export function stepSkippedForDestination(ctx: Pick<JobContext, 'state'>, step: string): boolean {
  return SHEET_ORDER_STEPS.has(step) && runDestination(ctx).kind === 'bigquery';
}

/** After the run's jobs: the Connected Sheets over the orders table, when orders go to BigQuery. */
export function connectedSheetsAfterJobs(ctx: JobContext): string | null {
  const destination = runDestination(ctx);
  return destination.kind === 'bigquery' ? connectSheets(ctx, destination) : null;
}
