/**
 * One read of the service's Daily P&L per run: the daily job pages through its range, and the
 * tie-out that follows asks for the days to the same end date again (its P&L books). A range the
 * run has already read to its last page gives them without a request, as one page: the days the
 * daily job has just written are the books the tie-out proves the sheets against.
 *
 * Kept only for this run's client (one execution), and only for a complete read: a range stopped
 * part way, or one the plan window cut (spec 8.3: a narrower range may not be cut), is read again.
 */
import type { ApiClient, DailyQuery, Page } from '../api';
import type { DailyRow } from '../api/types';
import { dayOfRecord } from '../api/record-check';

interface DailyRead {
  startDate: string;
  endDate: string;
  days: DailyRow[];
  truncated: boolean;
  last: Page<DailyRow>;
  /** The cursor the next page of this read is asked with; null once the read is complete. */
  nextCursor: string | null;
  complete: boolean;
}

export function keepDailyReads(api: ApiClient): ApiClient {
  const reads: DailyRead[] = [];
  let open: DailyRead | null = null;

  const kept = (query: DailyQuery): Page<DailyRow> | null => {
    if (query.cursor) return null;
    const read = reads.find(
      (r) =>
        r.complete &&
        r.endDate === query.endDate &&
        r.startDate <= query.startDate &&
        (!r.truncated || r.startDate === query.startDate),
    );
    if (!read) return null;
    // Days of the asked range only; one without a readable date stays in, for the caller to refuse as before.
    const days = read.days.filter((d) => {
      const day = dayOfRecord(d);
      return day === null || day >= query.startDate;
    });
    return { ...read.last, data: days, hasMore: false, nextCursor: null, limit: query.limit ?? read.last.limit };
  };

  const listDaily = (query: DailyQuery): Page<DailyRow> => {
    const answer = kept(query);
    if (answer) return answer;
    const page = api.listDaily(query);
    if (!query.cursor) {
      open = {
        startDate: query.startDate,
        endDate: query.endDate,
        days: [],
        truncated: false,
        last: page,
        nextCursor: null,
        complete: false,
      };
    } else if (!open || open.nextCursor !== query.cursor) {
      open = null;
      return page;
    }
    if (!open) return page;
    open.days.push(...page.data);
    open.truncated = open.truncated || (page.meta !== null && page.meta.truncated);
    open.last = page;
    open.nextCursor = page.nextCursor;
    if (!page.hasMore || page.nextCursor === null) {
      open.complete = true;
      reads.push(open);
      open = null;
    }
    return page;
  };

  return { ...api, listDaily };
}
