/**
 * The hourly request budget as the API reports it on successful answers (spec 8.1:
 * RateLimit-Limit / RateLimit-Remaining / RateLimit-Policy). Syncs stop starting pages while a
 * reserve is left, so the sidebar and custom functions still work until the hour turns.
 */
import { HOURLY_RESERVE_REQUESTS } from '../../contract/pause-text';

/** The pause's words name this reserve: one number for both. */
export const DEFAULT_PAGE_RESERVE = HOURLY_RESERVE_REQUESTS;
const DEFAULT_WINDOW_SECONDS = 3600;

export interface HourlyBudgetReading {
  remaining: number;
  /** Epoch ms by which the budget is (at the latest) renewed. */
  resetAt: number;
}

/** Null when the answer carries no RateLimit-Remaining. */
export function readHourlyBudget(header: (name: string) => string | null, now: number): HourlyBudgetReading | null {
  const rawRemaining = header('RateLimit-Remaining');
  if (rawRemaining === null || !/^\s*\d+\s*$/.test(rawRemaining)) return null;
  return { remaining: Number(rawRemaining), resetAt: now + resetSeconds(header) * 1000 };
}

/** RateLimit-Reset (delta seconds) when sent, else the policy window (`1000;w=3600`), else one hour. */
function resetSeconds(header: (name: string) => string | null): number {
  const reset = header('RateLimit-Reset');
  if (reset !== null && /^\s*\d+\s*$/.test(reset)) return Number(reset);
  const policy = header('RateLimit-Policy');
  const window = policy === null ? null : /w\s*=\s*(\d+)/.exec(policy);
  return window ? Number(window[1]) : DEFAULT_WINDOW_SECONDS;
}
