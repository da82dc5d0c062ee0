/**
 * One read of the service's Daily P&L per run: the daily job pages through its range, and the
 * tie-out that follows asks for the days to the same end date again (its P&L books). A range the
 * run has already read to its last page gives them without a request: a range within it as one
 * page; a range starting earlier as the earlier days from the service, page by page, then the kept
 * ones as its last page. The days the daily job has just written are the books the tie-out proves
 * the sheets against.
 *
 * Kept only for this run's client (one execution), and only for a complete read: a range stopped
 * part way, or one the plan window cut (spec 8.3: a narrower range may not be cut), is read again.
 */
import type { ApiClient, DailyQuery, Page } from '../api';
import type { DailyRow } from '../api/types';
import { dayOfRecord } from '../api/record-check';
import { addDays } from '../platform/calendar';

interface DailyRead {
  startDate: string;
  endDate: string;
  days: DailyRow[];
  truncated: boolean;
  last: Page<DailyRow>;
  /** The cursor the next page of this read is asked with. */
  nextCursor: string | null;
}

/** The cursor of a range's kept last page: never one the service gives (its cursors are opaque tokens of its own). */
const KEPT_CURSOR = 'kept-daily-read:';

export function keepDailyReads(api: ApiClient): ApiClient {
  const complete: DailyRead[] = [];
  let open: DailyRead | null = null;
  /** A range starting before a kept read: the earlier days' query, and the read whose days follow them. */
  let earlier: { kept: DailyRead; next: string | null } | null = null;

  const keptPage = (read: DailyRead, query: DailyQuery, from: string): Page<DailyRow> => {
    // Days of the asked range only; one without a readable date stays in, for the caller to refuse as before.
    const days = read.days.filter((d) => {
      const day = dayOfRecord(d);
      return day === null || day >= from;
    });
    return { ...read.last, data: days, hasMore: false, nextCursor: null, limit: query.limit ?? read.last.limit };
  };

  /** The days before `kept`, from the service; its last page points on to the kept days. */
  const earlierPage = (query: DailyQuery, kept: DailyRead, cursor: string | null): Page<DailyRow> => {
    const before = { ...query, endDate: addDays(kept.startDate, -1), cursor };
    const page = api.listDaily(before);
    earlier = { kept, next: page.hasMore ? page.nextCursor : null };
    if (page.hasMore && page.nextCursor !== null) return page;
    return { ...page, hasMore: true, nextCursor: `${KEPT_CURSOR}${complete.indexOf(kept)}` };
  };

  const fromKept = (query: DailyQuery): Page<DailyRow> | null => {
    const cursor = query.cursor ?? null;
    if (cursor !== null && cursor.indexOf(KEPT_CURSOR) === 0) {
      const kept = complete[Number(cursor.slice(KEPT_CURSOR.length))];
      return kept ? keptPage(kept, query, kept.startDate) : null;
    }
    if (cursor !== null) return earlier && earlier.next === cursor ? earlierPage(query, earlier.kept, cursor) : null;
    const sameEnd = complete.filter((r) => r.endDate === query.endDate);
    const within = sameEnd.find(
      (r) => r.startDate <= query.startDate && (!r.truncated || r.startDate === query.startDate),
    );
    if (within) return keptPage(within, query, query.startDate);
    const after = sameEnd.find((r) => !r.truncated && r.startDate > query.startDate);
    return after ? earlierPage(query, after, null) : null;
  };

  const record = (query: DailyQuery, page: Page<DailyRow>): void => {
    if (!query.cursor)
      open = {
        startDate: query.startDate,
        endDate: query.endDate,
        days: [],
        truncated: false,
        last: page,
        nextCursor: null,
      };
    else if (!open || open.nextCursor !== query.cursor) {
      open = null;
      return;
    }
    if (!open) return;
    open.days.push(...page.data);
    open.truncated = open.truncated || (page.meta !== null && page.meta.truncated);
    open.last = page;
    open.nextCursor = page.nextCursor;
    if (!page.hasMore || page.nextCursor === null) {
      complete.push(open);
      open = null;
    }
  };

  const listDaily = (query: DailyQuery): Page<DailyRow> => {
    const kept = fromKept(query);
    if (kept) return kept;
    const page = api.listDaily(query);
    record(query, page);
    return page;
  };

  return { ...api, listDaily };
}
