/**
 * Where the orders feed's pages go when not to the Orders and Line items sheets (the BigQuery
 * destination, ../bigquery, a layer above sync): registered once by the entry layer when the
 * bundle loads (entries/bigquery.ts), so sync names no destination it does not own.
 */
import type { JobContext, JobResult } from './job-context';
import type { OrderWriter } from './order-writer';

export interface OrdersDestination {
  /** The writer for this run's order pages, or null when they go to the sheets. */
  writer(ctx: JobContext): OrderWriter | null;
  /** True for a run step that works on the Orders and Line items sheets and does not apply to this run's destination. */
  skipsStep(ctx: JobContext, step: string): boolean;
  /**
   * The tie-out of this run's destination (the Sync log's words), or null when the orders are in the
   * sheets. `asked`: Checks → Run (the Checks rows read whole, a hand edit put back).
   */
  tieout(ctx: JobContext, asked: boolean): string | null;
  /** `day`'s orders were listed whole (these ids): orders the listing no longer gives leave the destination. */
  dayListed(ctx: JobContext, day: string, ids: readonly string[]): void;
  /** The reconciliation pass of this run's destination, or null when the orders are in the sheets. */
  reconcile(ctx: JobContext): JobResult | null;
  /** After the run's jobs (Connected Sheets made or refreshed): what the Sync log says, or null. */
  afterJobs?(ctx: JobContext): string | null;
  /**
   * Before the run's jobs (a switch of destination copying what the sheets hold): what the Sync log
   * says, and whether the jobs may run (false while the copy is not done: the feed waits for it).
   */
  beforeJobs?(ctx: JobContext): { message: string | null; done: boolean };
  /** After the run's tie-out (a switch's cells freed once it is ✓): what the Sync log says, or null. */
  afterTieout?(ctx: JobContext): string | null;
  /** The Google scopes a sync into the chosen destination needs besides the sync's own (reads the setting). */
  scopesNeeded?(): string[];
}

/** The orders job's check that a first backfill fits the spreadsheet's cells (backfill-check.ts), asked as a step. */
export const BACKFILL_CHECK = 'backfill check';

let registered: OrdersDestination | null = null;

export function useOrdersDestination(destination: OrdersDestination): void {
  registered = destination;
}

export function destinationWriter(ctx: JobContext): OrderWriter | null {
  return registered ? registered.writer(ctx) : null;
}

export function destinationTieout(ctx: JobContext, asked: boolean): string | null {
  return registered ? registered.tieout(ctx, asked) : null;
}

export function destinationDayListed(ctx: JobContext, day: string, ids: readonly string[]): void {
  if (registered) registered.dayListed(ctx, day, ids);
}

export function destinationReconcile(ctx: JobContext): JobResult | null {
  return registered ? registered.reconcile(ctx) : null;
}

export function destinationSkipsStep(ctx: JobContext, step: string): boolean {
  return registered ? registered.skipsStep(ctx, step) : false;
}

export function destinationAfterJobs(ctx: JobContext): string | null {
  return registered && registered.afterJobs ? registered.afterJobs(ctx) : null;
}

export function destinationBeforeJobs(ctx: JobContext): { message: string | null; done: boolean } {
  return registered && registered.beforeJobs ? registered.beforeJobs(ctx) : { message: null, done: true };
}

export function destinationAfterTieout(ctx: JobContext): string | null {
  return registered && registered.afterTieout ? registered.afterTieout(ctx) : null;
}

export function destinationScopesNeeded(): string[] {
  return registered && registered.scopesNeeded ? registered.scopesNeeded() : [];
}
