/** When a reconciliation pass (re)starts and which plan windows invalidate the pages it has read. */
import type { JobContext } from './job-context';

/** A pass (re)starts: rows not written from now on are the ones the service no longer returns. */
export function startPass(ctx: JobContext): void {
  ctx.state.update('reconcile', { passStartedAt: ctx.now(), watermark: null, passWindow: null });
}

/** True when the plan window starting `to` shows days the one starting `from` did not (null = unlimited). */
export function widens(from: string | null, to: string | null): boolean {
  if (from === null) return false;
  return to === null || to < from;
}
