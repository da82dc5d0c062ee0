/**
 * Cancel from the sidebar, honoured before the next page: the sidebar's Cancel stores a request in
 * the document properties (cancelSync, a separate execution running while the step runs), and a
 * run started by Sync now looks at it when it would start another page (at most once a second:
 * CANCEL_READ_INTERVAL_MS). Sync now's start
 * clears it, so a request never outlives the run it was made for.
 */
import { ExecutionBudget } from '../platform/budget';
import { documentProperties } from '../platform/properties';

const CANCEL_KEY = 'ma.sync.cancelAt';

export function requestCancel(now: number = Date.now()): void {
  documentProperties().setProperty(CANCEL_KEY, String(now));
}

export function clearCancel(): void {
  documentProperties().deleteProperty(CANCEL_KEY);
}

/**
 * Cancel is read again only after this much of the execution has passed since the last read: a
 * run asks canStartStep before every page and again between its short finishing steps (often
 * several times within a second), and each read is a billed Properties call (40 ms,
 * apps-script-cost-model.md). A click on Cancel is still honoured within a second of it reaching
 * the store, before the page that follows.
 */
export const CANCEL_READ_INTERVAL_MS = 1_000;

/**
 * A budget that also ends when a cancel was requested: getProperty reads the store each time
 * (another execution wrote it), at most once per CANCEL_READ_INTERVAL_MS. Once seen, it stays cancelled.
 */
export class CancellableBudget extends ExecutionBudget {
  private seen = false;
  private readAt: number | null = null;

  get cancelled(): boolean {
    return this.seen;
  }

  override canStartStep(): boolean {
    if (!super.canStartStep()) return false;
    if (!this.seen && (this.readAt === null || this.elapsedMs() - this.readAt >= CANCEL_READ_INTERVAL_MS)) {
      this.readAt = this.elapsedMs();
      this.seen = documentProperties().getProperty(CANCEL_KEY) !== null;
    }
    return !this.seen;
  }
}

export const CANCELLED_NOTE =
  'Cancelled in the sidebar before the next page. Rows written so far are kept; Sync now continues from where it stopped.';
