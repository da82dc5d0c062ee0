import { dailyRows, periodTotals } from '../data/pnl.js';
import { addDays, daysBetween, localDate } from '../timezone.js';
import type { ApiContext, ApiResult, HistoryMeta, PageInfo } from './context.js';
import { filterHash } from './cursor.js';
import { invalidParameter } from './errors.js';
import { readCursor } from './orders.js';
import { QueryReader } from './query.js';

export const SUMMARY_CACHE_CONTROL = 'private, max-age=60';
const DEFAULT_PERIOD_DAYS = 30;

interface Period {
  /** As requested (defaults made explicit). */
  start: string;
  end: string;
  /** First date inside the plan window. */
  effectiveStart: string;
  meta: HistoryMeta;
}

/** start_date/end_date in the store's timezone; defaults: the 30 days ending today. */
function readPeriod(ctx: ApiContext, q: QueryReader): Period {
  const today = localDate(ctx.state.clock.now(), ctx.data.store.timezone);
  const end = q.date('end_date') ?? today;
  const start = q.date('start_date') ?? addDays(end, -(DEFAULT_PERIOD_DAYS - 1));
  if (end < start) throw invalidParameter('end_date', 'must not be before start_date');
  const window = ctx.state.historyWindow(ctx.data.store);
  const cut = window.from !== null && start < window.from;
  return {
    start,
    end,
    effectiveStart: cut ? window.from! : start,
    meta: { history_available_from: window.from, truncated: cut },
  };
}

/** GET /api/v1/profitability/summary (spec 4.8): totals over the orders placed in the period. */
export function summary(ctx: ApiContext): ApiResult {
  const q = new QueryReader(ctx.params, ['start_date', 'end_date']);
  const period = readPeriod(ctx, q);
  const acc = periodTotals(ctx.data, period.effectiveStart, period.end);
  const store = ctx.data.store;
  return {
    body: {
      success: true,
      data: {
        period: {
          start: period.effectiveStart,
          end: period.end,
          days: Math.max(0, daysBetween(period.effectiveStart, period.end) + 1),
        },
        currency: store.currency,
        cogs_coverage_pct: acc.coveragePct(),
        units_sold: acc.unitsTotal,
        units_with_known_cost: acc.unitsCovered,
        basis: {
          refund_recognition: 'sale_date',
          tax_treated_as_cost: store.taxTreatedAsCost,
          ad_spend: 'blended_daily',
        },
        totals: acc.totals(),
      },
      meta: period.meta,
    },
    headers: { 'Cache-Control': SUMMARY_CACHE_CONTROL },
  };
}

/** GET /api/v1/profitability/daily (spec 4.9): one row per store-local date, oldest first, paged by date. */
export function daily(ctx: ApiContext): ApiResult {
  const q = new QueryReader(ctx.params, ['start_date', 'end_date', 'limit', 'cursor']);
  const period = readPeriod(ctx, q);
  const limit = q.integer('limit', 1, 400, 100);
  const filters = filterHash({ start_date: period.start, end_date: period.end, limit });
  const position = readCursor(ctx, 'daily', filters);
  let first = period.effectiveStart;
  if (position?.by === 'date' && position.date >= first) first = addDays(position.date, 1);
  const remaining = first <= period.end ? daysBetween(first, period.end) + 1 : 0;
  const count = Math.min(limit, remaining);
  const rows = count > 0 ? dailyRows(ctx.data, first, addDays(first, count - 1)) : [];
  const hasMore = remaining > limit;
  const page: PageInfo = {
    has_more: hasMore,
    next_cursor: hasMore
      ? ctx.cursors.encode('daily', ctx.data.store.id, filters, { by: 'date', date: rows[rows.length - 1]!.date })
      : null,
    limit,
  };
  return { body: { success: true, data: rows, page, meta: period.meta } };
}
