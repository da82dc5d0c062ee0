/**
 * The custom functions in the built bundle, run by the local runtime as Sheets would
 * (AuthMode.CUSTOM_FUNCTION, 30 s), against the emulator over real HTTP, compared with the
 * emulator's own truth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { ExecutionResult } from '../../dev/gas-runtime/index';
import { PROFIT_TOTALS_FIELDS } from '../../src/server/api/types';

let stack: Stack;
let today: string;

const run = (name: string, args: unknown[]): Promise<ExecutionResult> =>
  stack.runtime.run(name, args, { authMode: 'CUSTOM_FUNCTION' });

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(`${stack.apiUrl}${path}`);
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

async function emulatorStats(): Promise<{ by_endpoint: Record<string, { total: number }>; token_requests: number }> {
  return getJson('/_emulator/stats');
}

type TruthDay = Record<string, number | string> & { date: string };
const truthDaily = async (start: string, end: string): Promise<TruthDay[]> =>
  (await getJson<{ data: TruthDay[] }>(`/_emulator/truth/daily?start_date=${start}&end_date=${end}`)).data;

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function rowsOf(result: ExecutionResult): Array<Array<string | number | boolean>> {
  expect(result.error, JSON.stringify(result.error)).toBeUndefined();
  expect(result.ok).toBe(true);
  return result.value as Array<Array<string | number | boolean>>;
}

beforeAll(async () => {
  stack = await startStack({ orders: 600, seed: 21, plan: 'plus' });
  await stack.connect();
  today = (await getJson<{ today: string }>('/_emulator/truth/store')).today;
});

afterAll(async () => {
  await stack?.close();
});

describe('PROFIT_SUMMARY equals the emulator truth', () => {
  it('every totals field equals the sum of the truth daily rows over the period', async () => {
    const start = addDays(today, -60);
    const end = addDays(today, -31);
    const table = rowsOf(await run('PROFIT_SUMMARY', [start, end]));
    expect(table[0]).toEqual(['field', 'value']);
    const values = new Map(table.slice(1).map(([k, v]) => [k, v]));
    expect(values.get('period_start')).toBe(start);
    expect(values.get('period_end')).toBe(end);
    expect(values.get('period_days')).toBe(30);
    const days = await truthDaily(start, end);
    expect(days).toHaveLength(30);
    for (const field of PROFIT_TOTALS_FIELDS) {
      const truth = days.reduce((sum, d) => sum + Number(d[field]), 0);
      expect(Math.abs(Number(values.get(field)) - truth), field).toBeLessThan(0.01 * days.length + 1e-9);
    }
    expect(Number(values.get('net_revenue'))).toBeGreaterThan(0);
  });

  it('a second call with the same arguments makes no request (Cache-Control max-age)', async () => {
    const args = [addDays(today, -90), addDays(today, -61)];
    const first = await run('PROFIT_SUMMARY', args);
    expect(first.counts.requests.filter((r) => r.url.includes('/profitability/summary'))).toHaveLength(1);
    const before = await emulatorStats();
    const second = await run('PROFIT_SUMMARY', args);
    expect(rowsOf(second)).toEqual(rowsOf(first));
    expect(second.counts.requests).toEqual([]);
    const after = await emulatorStats();
    expect(after.by_endpoint['GET /api/v1/profitability/summary']?.total).toBe(
      before.by_endpoint['GET /api/v1/profitability/summary']?.total,
    );
  });

  it('Date cells are read in the spreadsheet time zone', async () => {
    const timeZone = stack.runtime.workbook.timeZone;
    const start = addDays(today, -20);
    // 23:30 local on `start`, whatever the zone: in UTC this is often the next day.
    const localLate = zonedInstant(start, '23:30', timeZone);
    const table = rowsOf(
      await run('PROFIT_SUMMARY', [localLate, new Date(zonedInstant(addDays(start, 2), '00:15', timeZone))]),
    );
    const values = new Map(table.map(([k, v]) => [k, v]));
    expect(values.get('period_start')).toBe(start);
    expect(values.get('period_end')).toBe(addDays(start, 2));
  });

  it('bad arguments fail with a clear error and no request', async () => {
    const result = await run('PROFIT_SUMMARY', ['last month', today]);
    expect(result.ok).toBe(false);
    expect(result.error?.message).toContain('PROFIT_SUMMARY: start must be a date or YYYY-MM-DD');
    expect(result.counts.urlFetches).toBe(0);
  });
});

describe('PROFIT_DAILY equals the emulator truth, following next_cursor', () => {
  it('header of field names, one row per day oldest first, same figures as the truth', async () => {
    const start = addDays(today, -29);
    const end = addDays(today, -1);
    const table = rowsOf(await run('PROFIT_DAILY', [start, end]));
    expect(table[0]).toEqual(['date', ...PROFIT_TOTALS_FIELDS]);
    const truth = await truthDaily(start, end);
    expect(table.slice(1).map((r) => dayShown(r[0], stack.runtime.workbook.timeZone))).toEqual(
      truth.map((d) => d.date),
    );
    for (let i = 0; i < truth.length; i++) {
      PROFIT_TOTALS_FIELDS.forEach((field, col) =>
        expect(table[i + 1][col + 1], `${truth[i].date} ${field}`).toBeCloseTo(Number(truth[i][field]), 6),
      );
    }
  });

  it('a range longer than one page (400 days) is read over several sequential pages', async () => {
    const start = addDays(today, -420);
    const end = addDays(today, -1);
    const result = await run('PROFIT_DAILY', [start, end]);
    const table = rowsOf(result);
    const pages = result.counts.requests.filter((r) => r.url.includes('/profitability/daily'));
    expect(pages.length).toBe(2);
    expect(pages[1].url).toContain('cursor=');
    expect(table.length - 1).toBe(420);
    const dates = table.slice(1).map((r) => dayShown(r[0], stack.runtime.workbook.timeZone));
    expect([...dates].sort()).toEqual(dates);
  });

  it('the date column holds real dates: midnight of the API day in the SPREADSHEET zone, even one far from the store', async () => {
    const store = (await getJson<{ store: { timezone: string } }>('/_emulator/truth/store')).store.timezone;
    const workbook = stack.runtime.workbook as { timeZone: string };
    const original = workbook.timeZone;
    for (const zone of ['Pacific/Auckland', 'America/Los_Angeles']) {
      workbook.timeZone = zone;
      try {
        const start = addDays(today, -9);
        const end = addDays(today, -1);
        const table = rowsOf(await run('PROFIT_DAILY', [start, end]));
        expect(table[0][0]).toBe('date');
        const truth = await truthDaily(start, end);
        const dates = table.slice(1).map((r) => r[0]);
        for (const d of dates) expect(Object.prototype.toString.call(d), `${zone}: ${String(d)}`).toBe('[object Date]');
        expect(
          dates.map((d) => dayShown(d, zone)),
          `${zone} vs the store's ${store}`,
        ).toEqual(truth.map((d) => d.date));
        expect(new Set(dates.map((d) => timeShown(d, zone)))).toEqual(new Set(['00:00:00']));
      } finally {
        workbook.timeZone = original;
      }
    }
  });
});

/** The calendar day a Date cell shows in a spreadsheet of that time zone (text stays as it is). */
function dayShown(value: unknown, timeZone: string): string {
  return value instanceof Date ? value.toLocaleDateString('en-CA', { timeZone }) : String(value);
}

function timeShown(value: unknown, timeZone: string): string {
  return value instanceof Date ? value.toLocaleTimeString('en-GB', { timeZone, hourCycle: 'h23' }) : String(value);
}

describe('PROFIT_ORDER', () => {
  it('returns the order economics the emulator holds, by service id or platform number', async () => {
    const orders = (
      await getJson<{ data: Array<{ id: string; external_order_id: string; economics: Record<string, number> }> }>(
        '/_emulator/truth/orders',
      )
    ).data;
    const order = orders[orders.length - 1];
    for (const ref of [order.id, Number(order.external_order_id)]) {
      const values = new Map(rowsOf(await run('PROFIT_ORDER', [ref])).map(([k, v]) => [k, v]));
      expect(values.get('id')).toBe(order.id);
      expect(values.get('net_profit')).toBe(order.economics.net_profit);
      expect(values.get('cogs')).toBe(order.economics.cogs);
    }
  });

  it('an unknown order says so', async () => {
    const result = await run('PROFIT_ORDER', ['ord_nope']);
    expect(result.error?.message).toMatch(/^PROFIT_ORDER: No such record in this store/);
  });
});

describe('a custom function never refreshes: an expired token makes no token request', () => {
  it('says how to fix it and sends nothing', async () => {
    const stats = await emulatorStats();
    stack.runtime.clock.advance(2 * 3600_000); // the stored access token is now expired
    const result = await run('PROFIT_SUMMARY', [addDays(today, -200), addDays(today, -190)]);
    expect(result.ok).toBe(false);
    expect(result.error?.message).toMatch(/^PROFIT_SUMMARY: .*(sidebar|Sync now)/);
    expect(result.counts.urlFetches).toBe(0);
    expect((await emulatorStats()).token_requests).toBe(stats.token_requests);
  });
});

/** The instant at `time` local wall-clock on `date` in `timeZone`. */
function zonedInstant(date: string, time: string, timeZone: string): Date {
  const guess = new Date(`${date}T${time}:00Z`);
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(guess);
  const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
  return new Date(guess.getTime() - (asUtc - guess.getTime()));
}
