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

/** Requests made at or before this instant (epoch ms) belong to an earlier Sync now; null: none marked. */
let earlierThan: number | null = null;

/**
 * Sync now's first step, which starts the run in this execution: a Cancel of an earlier Sync now
 * does not stop it. Rather than a delete before the run (a billed write, 70 ms,
 * apps-script-cost-model.md, made even when nothing is stored), the request is judged under the
 * run's lock from the run's whole read (CancellableBudget.readUnderLock): one made before now is
 * deleted there; none, the usual case, costs nothing.
 */
export function ignoreEarlierCancel(now: number = Date.now()): void {
  earlierThan = now;
}

/** A run that did not take the lock cannot judge the request from its read: an earlier one is cleared as before. */
export function clearEarlierCancel(): void {
  if (earlierThan === null) return;
  earlierThan = null;
  clearCancel();
}

/** A stored request made at or before `earlierThan` (or not a time): an earlier Sync now's. */
const isEarlier = (stored: string): boolean => earlierThan !== null && !(Number(stored) > earlierThan);

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

  /**
   * The run's whole read under the document lock is a read of the request: the next read is due a
   * second after it (none at the first page). An earlier Sync now's request is deleted, not honoured.
   */
  readUnderLock(read: Readonly<Record<string, string>>): void {
    const stored = read[CANCEL_KEY];
    this.readAt = this.elapsedMs();
    if (stored !== undefined && isEarlier(stored)) clearCancel();
    else this.seen = stored !== undefined;
    earlierThan = null;
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
