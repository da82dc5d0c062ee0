/**
 * The pager every cursor feed shares, the way a tap declares its streams: a feed says how to list a
 * page and how to take it (write, then checkpoint); the pager walks the pages within the execution
 * budget and starts a feed again from its checkpoint when the service rejects its cursor.
 */
import type { Page } from '../api';
import type { ExecutionBudget } from '../platform/budget';
import { isCursorRejected } from './job-context';

/** Rejected cursors a feed restarts from before the rejection is the run's failure. */
const CURSOR_RESTARTS = 2;

/** What follows a page: the next one, the end of the feed, or the feed again from its checkpoint. */
export type AfterPage = 'next' | 'done' | 'fresh';

export interface Feed<T> {
  /**
   * Before each page: 'stop' ends the feed (it reached its end), 'fresh' lists again without a
   * cursor, 'later' leaves the rest to the next run (as when the budget ends).
   */
  beforePage?(): 'go' | 'fresh' | 'stop' | 'later';
  list(cursor: string | null): Page<T>;
  /** Writes the page, then moves the checkpoint past it (never before: an execution ended between loses no row). */
  take(page: Page<T>, at: { cursor: string | null; last: boolean }): AfterPage;
  /** A rejected cursor: the next list starts from the stored checkpoint. */
  fromCheckpoint(): void;
  /**
   * Writes and checkpoints pages taken but not written yet: before a failed list propagates and
   * when the budget ends. False when the feed must start again without its cursor.
   */
  settle?(): boolean;
}

/** Pages through `feed` while the budget allows; true when it reached its end ('done' or 'stop'). */
export function pageThrough<T>(budget: ExecutionBudget, feed: Feed<T>): boolean {
  let cursor: string | null = null;
  let restarts = 0;
  while (budget.canStartStep()) {
    const before = feed.beforePage ? feed.beforePage() : 'go';
    if (before === 'stop') return true;
    if (before === 'later') break;
    if (before === 'fresh') cursor = null;
    let page: Page<T>;
    try {
      page = feed.list(cursor);
    } catch (e) {
      // The pages taken before the failure are written and checkpointed, as if each had been on its own.
      if (feed.settle && !feed.settle()) cursor = null;
      if (!isCursorRejected(e) || cursor === null || restarts >= CURSOR_RESTARTS) throw e;
      restarts++;
      cursor = null;
      feed.fromCheckpoint();
      continue;
    }
    const after = feed.take(page, { cursor, last: !page.hasMore || !page.nextCursor });
    if (after === 'done') return true;
    cursor = after === 'fresh' ? null : page.nextCursor;
  }
  if (feed.settle) feed.settle();
  return false;
}
