/** What a custom function runs with: the client, the budget and the zones, or the context's defaults. */
import type { ApiClient } from '../api/client';
import type { CostGapsRead } from '../finance/cost-gaps';
import type { ExecutionBudget } from '../platform/budget';
import { instantToLocalDate } from '../platform/calendar';
import type { AnswerCache } from './answer-cache';
import type { DateFormatter } from './args';
import { customFunctionContext } from './context';
import { readCostGaps } from './cost-gaps';
import { OTHER_CURRENCY_DAYS_KEY, otherCurrencyNote, readOtherCurrencyDays } from '../finance/other-currency-days';
import { documentProperties } from '../platform/properties';
import { mayBeFuture, once, storeTimeZoneOf, storeToday } from './store-zone';

export interface FunctionDeps {
  client: ApiClient;
  budget: ExecutionBudget;
  /** The spreadsheet's time zone (IANA): Date arguments are read in it, PROFIT_DAILY's dates made in it. */
  timeZone: string;
  /** Shared answers (document cache, one fetcher per argument set); without it every call fetches. */
  answers?: AnswerCache;
  /** Orders with incomplete costs placed in [start, end] (counted by the sync), net revenue in `currency`, or why not counted; absent: not counted (empty cells). */
  costGaps?: (start: string, end: string, currency: string | null) => CostGapsRead;
  /** What the service's figures for [start, end] hold in other currencies than `currency` (as the last tie-out counted); '' when none. */
  otherCurrencies?: (start: string, end: string, currency: string | null) => string;
  /** The store's time zone, asked only when a period reaches today or an order's day is shown (storeTimeZoneOf); default: `timeZone`. */
  storeTimeZone?: () => string;
  /** Epoch ms now; default Date.now. */
  now?: () => number;
}

/** YYYY-MM-DD of a Date as the spreadsheet shows it (what Utilities.formatDate gives in its zone). */
export function dayFormatter(timeZone: string): DateFormatter {
  return (date) => instantToLocalDate(date.getTime(), timeZone);
}

export function depsOrContext(deps: FunctionDeps | undefined, timeZone: string): FunctionDeps {
  if (deps) return deps;
  const ctx = customFunctionContext();
  return {
    // Read when the cell fetches: the context makes its client then (customFunctionContext).
    get client() {
      return ctx.client;
    },
    budget: ctx.budget,
    answers: ctx.answers,
    timeZone,
    costGaps: (start, end, currency) => readCostGaps(start, end, currency),
    // One more key of the document state a formula reads whole (readDocumentStateWhole): no call of its own.
    otherCurrencies: (start, end, currency) =>
      otherCurrencyNote(
        readOtherCurrencyDays(documentProperties().getProperty(OTHER_CURRENCY_DAYS_KEY)),
        start,
        end,
        currency,
      ),
    storeTimeZone: once(() => storeTimeZoneOf(null, () => timeZone)),
  };
}

/** The store's today when `day` may be after it, else null (no zone read: see mayBeFuture). */
export function todayIfReached(deps: FunctionDeps, day: string): string | null {
  const now = deps.now?.() ?? Date.now();
  if (!mayBeFuture(day, now)) return null;
  return storeToday(deps.storeTimeZone?.() ?? deps.timeZone, now);
}
