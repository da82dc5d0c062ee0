/**
 * How far a sync is, said honestly. The API tells no totals, so only two things are measured:
 * orders come oldest change first, so the watermark walks from where the run began towards now
 * (its distance is a fair fraction); the daily job knows its days. Products are one or two pages.
 * Each job owns a span of the bar; the bar never moves back and shows 100 % only when done.
 */
import type { JobName, JobPosition } from './job-context';

const SPANS: Record<JobName, readonly [number, number]> = {
  orders: [0, 0.8],
  products: [0.8, 0.85],
  reconcile: [0.85, 0.9],
  daily: [0.9, 1],
};
/** The most a sync that is not done may show. */
export const MAX_UNTIL_DONE = 0.99;

/** Share of the orders feed done: the watermark's way from `fromMark` to now; null when unknown. */
export function ordersShare(fromMark: string | null, mark: string | null, now: number): number | null {
  if (!fromMark || !mark) return null;
  const from = Date.parse(fromMark);
  const at = Date.parse(mark);
  if (Number.isNaN(from) || Number.isNaN(at) || now <= from) return null;
  return clamp((at - from) / (now - from));
}

export function positionShare(position: JobPosition | null): number | null {
  if (!position || position.total <= 0) return null;
  return clamp(position.done / position.total);
}

/** The whole sync's fraction while `job` runs and has done `share` of its own work (null share = its start). */
export function overallFraction(job: JobName | null, share: number | null): number | null {
  if (job === null) return null;
  const [start, end] = SPANS[job];
  if (share === null) return job === 'orders' ? null : start;
  return Math.min(MAX_UNTIL_DONE, start + (end - start) * clamp(share));
}

/** What the bar shows: 1 only when done, never less than it showed before, never 100 % early. */
export function monotonicFraction(previous: number | null, next: number | null, done: boolean): number | null {
  if (done) return 1;
  if (next === null) return previous;
  const capped = Math.min(MAX_UNTIL_DONE, next);
  return previous === null ? capped : Math.max(previous, capped);
}

function clamp(x: number): number {
  return Math.max(0, Math.min(1, x));
}
