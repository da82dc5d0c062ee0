/** The service's Daily P&L for a tie-out range: every page, oldest day first (spec 4.9). */
import type { ApiClient } from '../api/client';
import type { DailyRow } from '../api/types';
import { dayOfRecord } from '../api/record-check';

const PAGE_LIMIT = 400;
const MAX_PAGES = 60;

export interface PnlBooks {
  days: DailyRow[];
  /** The plan window's first day when it cut the range (spec 8.3), else null. */
  cutFrom: string | null;
}

/** `canContinue` is asked before every page after the first (the execution budget). */
export function readPnlBooks(api: ApiClient, startDate: string, endDate: string, canContinue: () => boolean): PnlBooks {
  const days: DailyRow[] = [];
  let cutFrom: string | null = null;
  let cursor: string | null = null;
  const seen = new Set<string>();
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    if (pages > 0 && !canContinue())
      throw new Error('the range is too long to check within the time an execution may run; check a shorter range');
    const page = api.listDaily({ startDate, endDate, limit: PAGE_LIMIT, cursor });
    // A day is compared by its date (sorted with <, which turns an array into text, recursively):
    // one without a readable date fails the check in words. Deep figures read as unknown (✗).
    if (page.data.some((day) => dayOfRecord(day) === null))
      throw new Error('Merchant Analytics sent a Daily P&L day without a readable date; try again later');
    days.push(...page.data);
    if (page.meta && page.meta.truncated) cutFrom = page.meta.historyAvailableFrom;
    if (!page.hasMore || page.nextCursor === null || seen.has(page.nextCursor)) return { days, cutFrom };
    seen.add(page.nextCursor);
    cursor = page.nextCursor;
  }
  throw new Error('Merchant Analytics returned more daily pages than the range can have; try again later');
}
