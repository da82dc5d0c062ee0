import { describe, expect, it } from 'vitest';
import type { ApiClient, DailyQuery, Page } from '../../src/server/api/client';
import { NotFoundError } from '../../src/server/api/errors';
import type { DailyRow, Order, ProfitabilitySummary } from '../../src/server/api/types';
import { PROFIT_TOTALS_FIELDS } from '../../src/server/api/types';
import { dateArgument, dateRangeArguments, orderIdArgument, orderReference } from '../../src/server/functions/args';
import { profitDaily, profitMonthly, profitOrder, profitSummary } from '../../src/server/functions/profit';
import { mayBeFuture } from '../../src/server/functions/store-zone';
import { freshnessTable } from '../../src/server/functions/period-tables';
import { profitSummaryColumn } from '../../src/server/functions/summary-column';
import { shownSummary } from '../../src/server/functions/summary-show';
import { ExecutionBudget } from '../../src/server/platform/budget';

// What Utilities.formatDate(date, 'America/New_York', 'yyyy-MM-dd') returns, via Intl.
const newYork = (d: Date) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/New_York',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(d);

describe('arguments: Date cells in the spreadsheet time zone, or YYYY-MM-DD', () => {
  it('a Date cell converts in the spreadsheet time zone, not UTC', () => {
    // Midnight 1 March in New York is 05:00 UTC; a late-evening instant stays on the NY day.
    expect(dateArgument('F', 'start', new Date('2025-03-01T05:00:00Z'), newYork)).toBe('2025-03-01');
    expect(dateArgument('F', 'start', new Date('2025-03-02T03:00:00Z'), newYork)).toBe('2025-03-01');
  });
  it('accepts YYYY-MM-DD text (trimmed)', () => {
    expect(dateArgument('F', 'start', ' 2024-02-29 ', newYork)).toBe('2024-02-29');
  });
  it.each([['2025-02-30'], ['2025-13-01'], ['01/02/2025'], [45000], [true], ['2025-1-1']])(
    'rejects %s with a clear error',
    (value) => {
      expect(() => dateArgument('PROFIT_SUMMARY', 'start', value, newYork)).toThrow(
        'PROFIT_SUMMARY: start must be a date or YYYY-MM-DD',
      );
    },
  );
  it('an empty cell and a range are named as such', () => {
    expect(() => dateArgument('PROFIT_DAILY', 'end', '', newYork)).toThrow('PROFIT_DAILY: end is required');
    expect(() => dateArgument('PROFIT_DAILY', 'end', [[1, 2]], newYork)).toThrow('single cell');
  });
  it('start after end is refused', () => {
    expect(() => dateRangeArguments('PROFIT_SUMMARY', '2025-02-01', '2025-01-01', newYork)).toThrow(
      'start (2025-02-01) must not be after end (2025-01-01)',
    );
  });
  it('order ids: service id, external:, or the platform number', () => {
    expect(orderIdArgument('PROFIT_ORDER', 'ord_abc123')).toBe('ord_abc123');
    expect(orderIdArgument('PROFIT_ORDER', 'external:5550001')).toBe('external:5550001');
    expect(orderIdArgument('PROFIT_ORDER', 5550001)).toBe('external:5550001');
    expect(orderIdArgument('PROFIT_ORDER', '5550001')).toBe('external:5550001');
    expect(() => orderIdArgument('PROFIT_ORDER', '../account')).toThrow('PROFIT_ORDER: order_id must be');
    expect(() => orderIdArgument('PROFIT_ORDER', 1.5)).toThrow('PROFIT_ORDER: order_id must be');
  });
  it('PROFIT_ORDER takes any other text as a display number, as typed first (spec 2.1: a display string)', () => {
    const ref = (v: unknown) => orderReference('PROFIT_ORDER', v);
    expect(ref('ord_abc123')).toEqual({ id: 'ord_abc123', displayNumbers: [] });
    expect(ref('external:555')).toEqual({ id: 'external:555', displayNumbers: [] });
    expect(ref(1001)).toEqual({ id: 'external:1001', displayNumbers: ['#1001', '1001'] });
    expect(ref(' #1001 ')).toEqual({ id: null, displayNumbers: ['#1001', '1001'] });
    expect(ref('SO-1001')).toEqual({ id: null, displayNumbers: ['SO-1001', '#SO-1001'] });
    expect(ref('#EU 1001')).toEqual({ id: null, displayNumbers: ['#EU 1001', 'EU 1001'] });
    expect(ref('#AB100').displayNumbers[0]).toBe('#AB100');
    expect(ref(1001.2)).toEqual({ id: null, displayNumbers: ['1001.2', '#1001.2'] });
    expect(ref('#')).toEqual({ id: null, displayNumbers: ['#'] });
    for (const nothing of ['', '  ', null, undefined, true])
      expect(() => ref(nothing), String(nothing)).toThrow('PROFIT_ORDER: order_id must be');
    expect(() => ref([['#1001']])).toThrow('single cell');
  });
});

const totals = Object.fromEntries(
  PROFIT_TOTALS_FIELDS.map((f, i) => [f, i * 10 + 0.5]),
) as ProfitabilitySummary['totals'];
const summary: ProfitabilitySummary = {
  period: { start: '2025-01-01', end: '2025-01-31', days: 31 },
  currency: 'USD',
  cogs_coverage_pct: 87.5,
  units_sold: 120,
  units_with_known_cost: 105,
  basis: { refund_recognition: 'sale_date', tax_treated_as_cost: false, ad_spend: 'blended_daily' },
  totals,
};
const day = (date: string, net: number): DailyRow => ({ ...totals, net_profit: net, date });

function fakeClient(overrides: Partial<ApiClient>): { client: ApiClient; calls: string[] } {
  const calls: string[] = [];
  const unexpected = (name: string) => () => {
    throw new Error(`unexpected ${name}`);
  };
  const client: ApiClient = {
    stats: { requests: 0, retries: 0, rateLimitWaits: 0, cacheHits: 0 },
    account: unexpected('account'),
    stores: unexpected('stores'),
    listOrders: unexpected('listOrders'),
    getOrder: unexpected('getOrder'),
    listProducts: unexpected('listProducts'),
    getProduct: unexpected('getProduct'),
    summary: unexpected('summary'),
    listDaily: unexpected('listDaily'),
    rateLimitRemaining: () => null,
    summaryAnswer: (s, e) => ({ summary: client.summary(s, e), meta: null, maxAgeSeconds: null }),
    ...overrides,
  };
  return { client, calls };
}
const budget = () => new ExecutionBudget(30_000);

describe('PROFIT_SUMMARY: a 2-column table, header first, every totals field', () => {
  it('lists period, currency, basis, coverage and all 20 totals with their values', () => {
    let asked: string[] = [];
    const { client } = fakeClient({ summary: (s, e) => ((asked = [s, e]), summary) });
    const table = profitSummary(new Date('2025-01-01T05:00:00Z'), '2025-01-31', undefined, {
      client,
      budget: budget(),
      timeZone: 'America/New_York',
    });
    expect(asked).toEqual(['2025-01-01', '2025-01-31']);
    expect(table[0]).toEqual(['field', 'value']);
    const asMap = new Map(table.slice(1).map(([k, v]) => [k, v]));
    expect(asMap.get('period_start')).toBe('2025-01-01');
    expect(asMap.get('period_days')).toBe(31);
    expect(asMap.get('basis_tax_treated_as_cost')).toBe(false);
    // Sheets' percent: the API's 87.5 points as the fraction a 0.00% cell shows as 87.50%.
    expect(asMap.get('cogs_coverage_pct')).toBe(0.875);
    for (const f of PROFIT_TOTALS_FIELDS) expect(asMap.get(f)).toBe(totals[f]);
    expect(table.every((row) => row.length === 2)).toBe(true);
    // Then the Orders sheet's count of orders with incomplete costs: not counted here (no sheet), so empty, never 0.
    expect(table).toHaveLength(1 + 9 + 2 + PROFIT_TOTALS_FIELDS.length + 3);
    expect(table.slice(-3).map((r) => r.slice(0, 2))).toEqual([
      ['orders_with_incomplete_costs', ''],
      ['net_revenue_with_incomplete_costs', ''],
      ['incomplete_costs_note', 'No Orders sheet yet: run Sync now to count orders with incomplete costs.'],
    ]);
  });
  it('bad arguments fail before any request', () => {
    const { client } = fakeClient({});
    expect(() =>
      profitSummary('yesterday', '2025-01-31', undefined, { client, budget: budget(), timeZone: 'America/New_York' }),
    ).toThrow('PROFIT_SUMMARY: start must be a date or YYYY-MM-DD');
  });
});

describe('PROFIT_DAILY: header row + one row per day, oldest first, following next_cursor', () => {
  it('follows cursors with the same filters and sorts oldest first', () => {
    const queries: DailyQuery[] = [];
    const pages: Array<Page<DailyRow>> = [
      {
        data: [day('2025-01-02', 2), day('2025-01-01', 1)],
        hasMore: true,
        nextCursor: 'c2',
        limit: 400,
        meta: null,
        rateLimitRemaining: 900,
      },
      {
        data: [day('2025-01-03', 3)],
        hasMore: false,
        nextCursor: null,
        limit: 400,
        meta: null,
        rateLimitRemaining: 899,
      },
    ];
    const { client } = fakeClient({ listDaily: (q) => (queries.push(q), pages.shift()!) });
    const table = profitDaily('2025-01-01', '2025-01-03', undefined, {
      client,
      budget: budget(),
      timeZone: 'America/New_York',
    });
    expect(queries).toEqual([
      { startDate: '2025-01-01', endDate: '2025-01-03', limit: 400, cursor: null },
      { startDate: '2025-01-01', endDate: '2025-01-03', limit: 400, cursor: 'c2' },
    ]);
    expect(table[0]).toEqual(['date', ...PROFIT_TOTALS_FIELDS]);
    const netCol = table[0].indexOf('net_profit');
    // Dates, not text: midnight in New York (UTC-5 in January).
    expect(table.slice(1).map((r) => [r[0], r[netCol]])).toEqual([
      [new Date('2025-01-01T05:00:00Z'), 1],
      [new Date('2025-01-02T05:00:00Z'), 2],
      [new Date('2025-01-03T05:00:00Z'), 3],
    ]);
  });
  it('dates are midnight of the day in the SPREADSHEET zone, the header stays text, a malformed date stays its text', () => {
    const rows = [day('2026-10-01', 1), day('2026-04-05', 2), { ...day('not a date', 3) }];
    const { client } = fakeClient({
      listDaily: () => ({
        data: rows,
        hasMore: false,
        nextCursor: null,
        limit: 400,
        meta: null,
        rateLimitRemaining: null,
      }),
    });
    const table = profitDaily('2026-04-01', '2026-10-01', undefined, {
      client,
      budget: budget(),
      timeZone: 'Pacific/Auckland',
    });
    expect(table[0].every((h) => typeof h === 'string')).toBe(true);
    // Auckland: still NZDT (+13) at midnight on 5 April 2026 (DST ends at 03:00), and again on 1 October.
    expect(table.slice(1).map((r) => r[0])).toEqual([
      new Date('2026-04-04T11:00:00Z'),
      new Date('2026-09-30T11:00:00Z'),
      'not a date',
    ]);
  });
  it('a day whose midnight a daylight-saving change skips starts at its first existing minute', () => {
    // Santiago, 8 September 2024: clocks jump from 24:00 to 01:00 (04:00 UTC).
    const { client } = fakeClient({
      listDaily: () => ({
        data: [day('2024-09-08', 1)],
        hasMore: false,
        nextCursor: null,
        limit: 400,
        meta: null,
        rateLimitRemaining: null,
      }),
    });
    const table = profitDaily('2024-09-08', '2024-09-08', undefined, {
      client,
      budget: budget(),
      timeZone: 'America/Santiago',
    });
    expect(table[1][0]).toEqual(new Date('2024-09-08T04:00:00Z'));
  });
  it('a repeating cursor is refused instead of looping', () => {
    const { client } = fakeClient({
      listDaily: () => ({
        data: [],
        hasMore: true,
        nextCursor: 'same',
        limit: 400,
        meta: null,
        rateLimitRemaining: null,
      }),
    });
    expect(() =>
      profitDaily('2025-01-01', '2025-01-03', undefined, { client, budget: budget(), timeZone: 'America/New_York' }),
    ).toThrow('PROFIT_DAILY: Merchant Analytics returned inconsistent paging');
  });
});

describe('PROFIT_ORDER and typed failures', () => {
  it('an API error becomes the function name plus the user message', () => {
    const { client } = fakeClient({
      getOrder: () => {
        throw new NotFoundError({ status: 404 });
      },
    });
    expect(() =>
      profitOrder('ord_x', { client, budget: budget(), timeZone: 'UTC', storeTimeZone: () => 'UTC' }),
    ).toThrow(/^PROFIT_ORDER: No such record in this store/);
  });
  it('null values become empty cells, never 0', () => {
    const order = { id: 'ord_1', canceled_at: null, economics: { net_profit: 12.5, cogs: null } } as unknown as Order;
    const { client } = fakeClient({ getOrder: () => order });
    const map = new Map(
      profitOrder('ord_1', { client, budget: budget(), timeZone: 'UTC', storeTimeZone: () => 'UTC' }).map(([k, v]) => [
        k,
        v,
      ]),
    );
    expect(map.get('canceled_at')).toBe('');
    expect(map.get('cogs')).toBe('');
    expect(map.get('net_profit')).toBe(12.5);
  });
});

describe('PROFIT_SUMMARY keeps the unit counts behind cogs_coverage_pct', () => {
  it('extra scalar fields of the summary appear after the coverage row', () => {
    const { client } = fakeClient({ summary: () => summary });
    const table = profitSummary('2025-01-01', '2025-01-31', undefined, {
      client,
      budget: budget(),
      timeZone: 'America/New_York',
    });
    const keys = table.map((r) => r[0]);
    expect(keys.slice(9, 12)).toEqual(['cogs_coverage_pct', 'units_sold', 'units_with_known_cost']);
    expect(table[keys.indexOf('units_sold')][1]).toBe(120);
  });
});

describe('metric names: case-insensitive, CM1–CM3 and margins in percent', () => {
  const ny = { budget: budget(), timeZone: 'America/New_York' };
  const one = (metric: unknown, meta: { historyAvailableFrom: string | null; truncated: boolean } | null = null) => {
    const { client } = fakeClient({ summaryAnswer: () => ({ summary, meta, maxAgeSeconds: null }) });
    return profitSummary('2025-01-01', '2025-01-31', metric, { client, ...ny });
  };
  it('a totals field, its short name and its spelling variants give that one number', () => {
    expect(one('net_profit')).toEqual([[totals.net_profit]]);
    expect(one('NET PROFIT')).toEqual([[totals.net_profit]]);
    expect(one('CM3')).toEqual([[totals.contribution_margin_cm3]]);
    expect(one('cm1')).toEqual([[totals.product_margin_cm1]]);
    expect(one(' gross-profit-cm2 ')).toEqual([[totals.gross_profit_cm2]]);
    expect(one('cogs_coverage_pct')).toEqual([[0.875]]);
  });
  it("net margin % is net profit over net revenue, as Sheets' percent (a fraction), rounded to 2 places of a point", () => {
    const expected = Math.round((totals.net_profit / totals.net_revenue) * 10000) / 10000;
    expect(one('Net margin %')).toEqual([[expected]]);
    expect(one('net_margin_pct')).toEqual([[expected]]);
  });
  it('a margin over zero or negative net revenue is 0 (spec 2.3 rule 5), as the Monthly P&L has it', () => {
    for (const netRevenue of [0, -120]) {
      const { client } = fakeClient({
        summaryAnswer: () => ({
          summary: { ...summary, totals: { ...totals, net_revenue: netRevenue, net_profit: -228.61 } },
          meta: null,
          maxAgeSeconds: null,
        }),
      });
      expect(profitSummary('2025-01-01', '2025-01-31', 'net_margin_pct', { client, ...ny })).toEqual([[0]]);
    }
  });
  it('a period wholly before the plan window is an empty cell with a note for a metric, an error for the table, never 0', () => {
    const cut = { ...summary, period: { start: '2025-03-01', end: '2025-01-31', days: 0 } };
    const { client } = fakeClient({
      summaryAnswer: () => ({
        summary: cut,
        meta: { historyAvailableFrom: '2025-03-01', truncated: true },
        maxAgeSeconds: null,
      }),
    });
    const gaps = () => ({ orders: 3, netRevenue: 10, ordersCounted: 9, otherCurrencies: [] });
    expect(profitSummary('2025-01-01', '2025-01-31', 'net_profit', { client, ...ny, costGaps: gaps })).toEqual([
      ['', "no figures: 2025-01-01 to 2025-01-31 is before your plan's history, which starts 2025-03-01"],
    ]);
    expect(
      profitSummary('2025-01-01', '2025-01-31', 'orders_with_incomplete_costs', {
        client,
        ...ny,
        costGaps: gaps,
      })[0][0],
    ).toBe('');
    expect(() => profitSummary('2025-01-01', '2025-01-31', undefined, { client, ...ny, costGaps: gaps })).toThrow(
      "PROFIT_SUMMARY: no figures: 2025-01-01 to 2025-01-31 is before your plan's history, which starts 2025-03-01",
    );
  });
  it('the incomplete-cost counts cover the days the totals cover when the plan window cut the period', () => {
    const cut = { ...summary, period: { start: '2025-01-10', end: '2025-01-31', days: 22 } };
    const { client } = fakeClient({
      summaryAnswer: () => ({
        summary: cut,
        meta: { historyAvailableFrom: '2025-01-10', truncated: true },
        maxAgeSeconds: null,
      }),
    });
    const asked: string[][] = [];
    const gaps = (start: string, end: string) => (
      asked.push([start, end]),
      { orders: 3, netRevenue: 10, ordersCounted: 9, otherCurrencies: [] }
    );
    profitSummary('2025-01-01', '2025-01-31', undefined, { client, ...ny, costGaps: gaps });
    expect(asked).toEqual([['2025-01-10', '2025-01-31']]);
  });
  it("net revenue with incomplete costs is the store currency's: other currencies get their own rows and a note, never added", () => {
    const { client } = fakeClient({ summaryAnswer: () => ({ summary, meta: null, maxAgeSeconds: null }) });
    const gaps = () => ({
      orders: 3,
      netRevenue: 100,
      ordersCounted: 9,
      otherCurrencies: [{ currency: 'EUR', orders: 1, netRevenue: 56 }],
    });
    const table = profitSummary('2025-01-01', '2025-01-31', undefined, { client, ...ny, costGaps: gaps });
    const values = new Map(table.map(([k, v]) => [k, v]));
    expect(values.get('net_revenue_with_incomplete_costs')).toBe(100);
    expect(values.get('net_revenue_with_incomplete_costs_eur')).toBe(56);
    expect(String(values.get('incomplete_costs_note'))).toContain('1 order in EUR (€56.00)');
    const one = profitSummary('2025-01-01', '2025-01-31', 'net_revenue_with_incomplete_costs', {
      client,
      ...ny,
      costGaps: gaps,
    });
    expect(one[0][0]).toBe(100);
    expect(one[0][1]).toContain(`is in ${String(summary.currency)} only`);
  });
  it('an unknown net revenue with incomplete costs is an empty cell with a note, never 0', () => {
    const { client } = fakeClient({ summaryAnswer: () => ({ summary, meta: null, maxAgeSeconds: null }) });
    const gaps = () => ({
      orders: 3,
      netRevenue: null,
      ordersCounted: 9,
      otherCurrencies: [{ currency: 'EUR', orders: 1, netRevenue: null }],
    });
    const values = new Map(
      profitSummary('2025-01-01', '2025-01-31', undefined, { client, ...ny, costGaps: gaps }).map(([k, v]) => [k, v]),
    );
    expect(values.get('orders_with_incomplete_costs')).toBe(3);
    expect(values.get('net_revenue_with_incomplete_costs')).toBe('');
    expect(values.get('net_revenue_with_incomplete_costs_eur')).toBe('');
    expect(String(values.get('incomplete_costs_note'))).toContain('net_revenue_with_incomplete_costs is unknown');
    expect(String(values.get('incomplete_costs_note'))).toContain('1 order in EUR (net revenue unknown)');
    const one = profitSummary('2025-01-01', '2025-01-31', 'net_revenue_with_incomplete_costs', {
      client,
      ...ny,
      costGaps: gaps,
    });
    expect(one[0][0]).toBe('');
    expect(one[0][1]).toContain('net_revenue_with_incomplete_costs is unknown');
  });
  it('incomplete costs not counted for the period: empty cells and a note naming why, never 0 nor "run Sync now" when a sync cannot help', () => {
    const { client } = fakeClient({ summaryAnswer: () => ({ summary, meta: null, maxAgeSeconds: null }) });
    const reasons = [
      [{ notCounted: 'orders-window', since: '2025-01-15' } as const, /before 2025-01-15.*orders window/],
      [{ notCounted: 'month-too-big', month: '2025-01' } as const, /2025-01 has too many orders/],
      [{ notCounted: 'older-months', before: '2025-06' } as const, /from 2025-06 on only/],
    ] as const;
    for (const [why, said] of reasons) {
      const values = new Map(
        profitSummary('2025-01-01', '2025-01-31', undefined, { client, ...ny, costGaps: () => why }).map(([k, v]) => [
          k,
          v,
        ]),
      );
      expect(values.get('orders_with_incomplete_costs')).toBe('');
      expect(values.get('net_revenue_with_incomplete_costs')).toBe('');
      expect(String(values.get('incomplete_costs_note'))).toMatch(said);
      expect(String(values.get('incomplete_costs_note'))).not.toMatch(/run Sync now/);
      for (const metric of ['orders_with_incomplete_costs', 'net_revenue_with_incomplete_costs']) {
        const one = profitSummary('2025-01-01', '2025-01-31', metric, { client, ...ny, costGaps: () => why });
        expect(one[0][0]).toBe('');
        expect(String(one[0][1])).toMatch(said);
      }
    }
  });
  it('a period the plan window shortened says so in the cell beside the number', () => {
    const table = one('net_profit', { historyAvailableFrom: '2025-01-10', truncated: true });
    expect(table[0][0]).toBe(totals.net_profit);
    expect(table[0][1]).toContain("the plan's history starts 2025-01-10");
  });
  it('an unknown name or a range fails naming the argument and what to type, before any request', () => {
    expect(() => one('profit')).toThrow('PROFIT_SUMMARY: metric "profit" is not a metric; use e.g. "net_profit"');
    expect(() => one([['net_profit']])).toThrow('PROFIT_SUMMARY: metric must be a single metric name, not a range');
    expect(() => one(3)).toThrow('PROFIT_SUMMARY: metric must be a metric name as text');
  });
  it('PROFIT_DAILY metrics: a list or a range chooses and orders the columns after the date', () => {
    const rows = [day('2025-01-01', 5), day('2025-01-02', 7)];
    const { client } = fakeClient({
      listDaily: () => ({
        data: rows,
        hasMore: false,
        nextCursor: null,
        limit: 400,
        meta: null,
        rateLimitRemaining: null,
      }),
    });
    const table = profitDaily('2025-01-01', '2025-01-02', 'net_profit, CM3', { client, ...ny });
    expect(table[0]).toEqual(['date', 'net_profit', 'contribution_margin_cm3']);
    expect(table.slice(1).map((r) => r.slice(1))).toEqual([
      [5, totals.contribution_margin_cm3],
      [7, totals.contribution_margin_cm3],
    ]);
    const fromRange = profitDaily(
      '2025-01-01',
      '2025-01-02',
      [
        ['cm1', ''],
        ['net_margin_pct', ''],
      ],
      { client, ...ny },
    );
    expect(fromRange[0]).toEqual(['date', 'product_margin_cm1', 'net_margin_pct']);
    expect(() => profitDaily('2025-01-01', '2025-01-02', 'cm3, cm3', { client, ...ny })).toThrow(
      'PROFIT_DAILY: metrics names contribution_margin_cm3 twice',
    );
    expect(() => profitDaily('2025-01-01', '2025-01-02', 'revenue', { client, ...ny })).toThrow(
      'PROFIT_DAILY: metrics: "revenue" is not a metric',
    );
  });
});

describe("periods past the store's today are empty dates, never asked of the API", () => {
  // 20:00 on 3 November 2026 in Los Angeles is already 4 November in UTC and in Auckland.
  const now = () => Date.parse('2026-11-04T04:00:00Z');
  const zones = { timeZone: 'Pacific/Auckland', storeTimeZone: () => 'America/Los_Angeles', now };
  const days = (from: string, to: string): DailyRow[] => {
    const rows: DailyRow[] = [];
    for (let d = from; d <= to; d = new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10))
      rows.push(day(d, 1));
    return rows;
  };

  it("a day up to UTC's yesterday needs no zone: every zone has begun it", () => {
    expect(mayBeFuture('2026-11-03', now())).toBe(false);
    expect(mayBeFuture('2026-11-04', now())).toBe(true);
  });

  it("PROFIT_DAILY asks the API up to the store's today; later days are dates with empty figures", () => {
    const queries: DailyQuery[] = [];
    const { client } = fakeClient({
      listDaily: (q) => (
        queries.push(q),
        {
          data: days(q.startDate, q.endDate),
          hasMore: false,
          nextCursor: null,
          limit: 400,
          meta: null,
          rateLimitRemaining: null,
        }
      ),
    });
    const table = profitDaily('2026-11-02', '2026-11-05', 'net_profit', { client, budget: budget(), ...zones });
    expect(queries.map((q) => q.endDate)).toEqual(['2026-11-03']);
    expect(table.slice(1).map((r) => r[1])).toEqual([1, 1, '', '']);
  });

  it("PROFIT_MONTHLY: the Monthly P&L sheet's key and status words; months not begun are listed empty", () => {
    const { client } = fakeClient({
      listDaily: (q) => ({
        data: days(q.startDate, q.endDate),
        hasMore: false,
        nextCursor: null,
        limit: 400,
        meta: null,
        rateLimitRemaining: null,
      }),
    });
    const table = profitMonthly('2026-10-30', '2027-01-15', 'net_profit', { client, budget: budget(), ...zones });
    expect(table[0]).toEqual(['month', 'status', 'first_day', 'last_day', 'days', 'net_profit']);
    expect(table.slice(1).map((r) => [r[0], r[1], r[4], r[5]])).toEqual([
      ['2026-10', 'partial: 2026-10-30 to 2026-10-31 only', 2, 2],
      ['2026-11', 'partial: month in progress', 3, 3],
      ['2026-12', 'future: no figures yet', 0, ''],
      ['2027-01', 'future: no figures yet', 0, ''],
    ]);
  });

  it("a period wholly after the store's today asks nothing and says so", () => {
    const { client } = fakeClient({});
    const note = "no figures yet: 2026-11-04 is after today (2026-11-03 in the store's time zone)";
    expect(profitSummary('2026-11-04', '2026-11-04', 'net_profit', { client, budget: budget(), ...zones })).toEqual([
      ['', note],
    ]);
    expect(profitDaily('2026-11-04', '2026-11-04', 'net_profit', { client, budget: budget(), ...zones })).toEqual([
      ['date', 'net_profit'],
      [note, ''],
    ]);
  });

  it('PROFIT_SUMMARY over the month in progress says its figures run only to today, in every form', () => {
    const { client } = fakeClient({ summary: () => summary });
    const deps = { client, budget: budget(), ...zones };
    const note =
      "partial: period in progress, figures to today (2026-11-03 in the store's time zone); none yet for 2026-11-04 to 2026-11-30";
    const one = profitSummary('2026-11-01', '2026-11-30', 'net_profit', deps);
    expect(one).toEqual([[totals.net_profit, note]]);
    expect(shownSummary(one, 'value')).toEqual([[totals.net_profit]]);
    expect(profitSummary('2026-11-01', '2026-11-30', undefined, deps)).toContainEqual(['note', note]);
    expect(
      profitSummaryColumn([['2026-11-01'], ['2026-10-01']], [['2026-11-30'], ['2026-10-31']], 'net_profit', deps),
    ).toEqual([
      [totals.net_profit, note],
      [totals.net_profit, ''],
    ]);
    // A period ending today is complete so far: the number alone.
    expect(profitSummary('2026-11-01', '2026-11-03', 'net_profit', deps)).toEqual([[totals.net_profit]]);
  });
});

describe('MA_FRESHNESS', () => {
  it("labels the service's last sync of the store's data as such, not as the spreadsheet's sync", () => {
    const account = { data_availability: { last_sync_at: '2026-11-26T21:35:00Z', stale: false, history_days: 365 } };
    const table = freshnessTable(account as never);
    expect(table.map((r) => r[0])).toEqual([
      'field',
      'store_data_synced_at',
      'stale',
      'history_days',
      'history_available_from',
    ]);
    expect(table[1]![1]).toEqual(new Date('2026-11-26T21:35:00Z'));
  });
});
