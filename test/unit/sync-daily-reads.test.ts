import { describe, expect, it } from 'vitest';
import type { ApiClient, DailyQuery, Page } from '../../src/server/api';
import type { DailyRow } from '../../src/server/api/types';
import { keepDailyReads } from '../../src/server/sync/daily-reads';
import { readPnlBooks } from '../../src/server/finance/tieout-books';

const day = (n: number): string => new Date(Date.UTC(2026, 0, 1 + n)).toISOString().slice(0, 10);

/** A service of `days` days from 2026-01-01, `limit` a page; counts the requests it answers. */
function dailyService(days: number, truncatedBefore: string | null = null) {
  const asked: DailyQuery[] = [];
  const all = Array.from({ length: days }, (_, i) => ({ date: day(i), net_profit: i }) as unknown as DailyRow);
  const listDaily = (q: DailyQuery): Page<DailyRow> => {
    asked.push(q);
    const from = truncatedBefore && q.startDate < truncatedBefore ? truncatedBefore : q.startDate;
    const inRange = all.filter((d) => d.date >= from && d.date <= q.endDate);
    const at = q.cursor ? Number(q.cursor) : 0;
    const limit = q.limit ?? 400;
    const data = inRange.slice(at, at + limit);
    const more = at + limit < inRange.length;
    return {
      data,
      hasMore: more,
      nextCursor: more ? String(at + limit) : null,
      limit,
      meta: { historyAvailableFrom: truncatedBefore, truncated: from !== q.startDate },
      rateLimitRemaining: null,
    };
  };
  return { asked, api: { listDaily, stats: { requests: 0 } } as unknown as ApiClient };
}

function readAll(api: ApiClient, startDate: string, endDate: string, limit = 400): DailyRow[] {
  const rows: DailyRow[] = [];
  let cursor: string | null = null;
  for (;;) {
    const page = api.listDaily({ startDate, endDate, limit, cursor });
    rows.push(...page.data);
    if (!page.hasMore || !page.nextCursor) return rows;
    cursor = page.nextCursor;
  }
}

describe("the run's Daily P&L read, kept for its tie-out", () => {
  it('the tie-out of the range the daily job read to its end sends no request and gets the same days', () => {
    const service = dailyService(450);
    const api = keepDailyReads(service.api);
    readAll(api, day(0), day(449));
    expect(service.asked).toHaveLength(2);
    const books = readPnlBooks(api, day(0), day(449), () => true);
    expect(service.asked).toHaveLength(2);
    expect(books.days.map((d) => d.date)).toEqual(Array.from({ length: 450 }, (_, i) => day(i)));
    // A later start within the range: its days only.
    expect(readPnlBooks(api, day(100), day(449), () => true).days[0].date).toBe(day(100));
    expect(service.asked).toHaveLength(2);
  });

  it('a range starting earlier reads only the earlier days from the service, then gives the kept ones', () => {
    const service = dailyService(900);
    const api = keepDailyReads(service.api);
    readAll(api, day(500), day(899));
    expect(service.asked).toHaveLength(1);
    const books = readPnlBooks(api, day(0), day(899), () => true);
    expect(books.days.map((d) => d.date)).toEqual(Array.from({ length: 900 }, (_, i) => day(i)));
    expect(service.asked.slice(1).map((q) => [q.startDate, q.endDate])).toEqual([
      [day(0), day(499)],
      [day(0), day(499)],
    ]);
  });

  it('a range read part way, or one ending elsewhere, is read from the service', () => {
    const partWay = dailyService(450);
    const api = keepDailyReads(partWay.api);
    api.listDaily({ startDate: day(0), endDate: day(449), limit: 400, cursor: null });
    readPnlBooks(api, day(0), day(449), () => true);
    expect(partWay.asked).toHaveLength(1 + 2);
    const other = dailyService(450);
    const otherApi = keepDailyReads(other.api);
    readAll(otherApi, day(10), day(449));
    readPnlBooks(otherApi, day(10), day(448), () => true);
    expect(other.asked).toHaveLength(2 + 2);
  });

  it('a range the plan window cut is kept only for the same start (a later start may not be cut)', () => {
    const service = dailyService(450, day(30));
    const api = keepDailyReads(service.api);
    readAll(api, day(0), day(449));
    const asked = service.asked.length;
    expect(readPnlBooks(api, day(0), day(449), () => true).cutFrom).toBe(day(30));
    expect(service.asked).toHaveLength(asked);
    readPnlBooks(api, day(40), day(449), () => true);
    expect(service.asked.length).toBeGreaterThan(asked);
  });
});
