/** The service reads behind the formulas: each answer checked readable and shared through the answer cache. */
import type { ApiClient } from '../api/client';
import type { MetaInfo } from '../api/envelope';
import type { DailyRow, ProfitabilitySummary } from '../api/types';
import type { CostGapsRead } from '../finance/cost-gaps';
import type { ExecutionBudget } from '../platform/budget';
import type { Fetched } from './answer-cache';
import { FormulaError } from './args';
import type { FunctionDeps } from './function-deps';
import { readableAnswer } from './readable-answer';

/** One page of daily rows holds up to 400 days (spec 8.2); more pages than this is a loop. */
const DAILY_PAGE_LIMIT = 400;
const MAX_DAILY_PAGES = 50;

/**
 * Daily rows carry no Cache-Control the add-on could honour for them (spec 8.5 names only account,
 * stores and summary); the formula answer is derived data like the Daily P&L sheet itself, so it
 * is kept until the next sync that changes data (the generation in its key) and at most an hour:
 * never older than the sheets are under the hourly schedule.
 */
export const DAILY_KEEP_SECONDS = 3_600;

/** Every answer a formula reads from the service passes here: one too deep to read is refused in words. */
export function cached<T>(
  fn: string,
  deps: FunctionDeps | Omit<FunctionDeps, 'timeZone'>,
  key: string,
  fetch: () => Fetched<T>,
): T {
  const readable = (): Fetched<T> => {
    const fetched = fetch();
    readableAnswer(fn, fetched.value);
    return fetched;
  };
  return deps.answers ? deps.answers.answer(fn, key, readable) : readable().value;
}

/** The incomplete-cost count the sync kept per day: a few property reads, no lock, no cache entry of its own. */
export function readGaps(deps: FunctionDeps, start: string, end: string, currency: string | null): CostGapsRead {
  return deps.costGaps ? deps.costGaps(start, end, currency) : { notCounted: 'not-synced' };
}

export interface SummaryData {
  summary: ProfitabilitySummary;
  meta: MetaInfo | null;
}

export function readSummary(fn: string, deps: FunctionDeps, start: string, end: string): SummaryData {
  return cached<SummaryData>(fn, deps, `summary:${start}:${end}`, () => {
    const answer = deps.client.summaryAnswer(start, end);
    // Honours the summary's Cache-Control (spec 8.5); none or no-store: not kept.
    return { value: { summary: answer.summary, meta: answer.meta }, keepSeconds: answer.maxAgeSeconds };
  });
}

interface DaysData {
  rows: DailyRow[];
  historyFrom: string | null;
}

export function readDays(fn: string, deps: FunctionDeps, start: string, end: string): DaysData {
  return cached<DaysData>(fn, deps, `daily:${start}:${end}`, () => ({
    value: readAllDays(fn, deps.client, deps.budget, start, end),
    keepSeconds: DAILY_KEEP_SECONDS,
  }));
}

/** Follows next_cursor with the same filters, sequentially, while the 30 s budget allows. */
function readAllDays(
  fn: string,
  client: ApiClient,
  budget: ExecutionBudget,
  startDate: string,
  endDate: string,
): DaysData {
  const rows: DailyRow[] = [];
  let historyFrom: string | null = null;
  const seen = new Set<string>();
  let cursor: string | null = null;
  for (let pages = 0; ; pages++) {
    if (pages > 0 && !budget.canStartStep()) {
      throw new FormulaError(
        fn,
        'the range is too long to read within the 30 seconds a formula may run; use a shorter range or the Daily P&L sheet',
      );
    }
    const page = client.listDaily({ startDate, endDate, limit: DAILY_PAGE_LIMIT, cursor });
    rows.push(...page.data);
    if (page.meta?.truncated === true) historyFrom = page.meta.historyAvailableFrom;
    if (!page.hasMore) return { rows, historyFrom };
    if (page.nextCursor === null || seen.has(page.nextCursor) || pages + 1 >= MAX_DAILY_PAGES) {
      throw new FormulaError(fn, 'Merchant Analytics returned inconsistent paging; try again later');
    }
    seen.add(page.nextCursor);
    cursor = page.nextCursor;
  }
}
