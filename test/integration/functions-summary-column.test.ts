/**
 * PROFIT_SUMMARY over a column of periods (the custom functions guide, "Optimization": pass a range,
 * return a two-dimensional array, instead of one slow call per cell). One execution answers every
 * row; each row is its own period and equals the emulator's truth; a row without a figure is a blank
 * with the reason beside it; the service is asked once per distinct period at most.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';

let stack: Stack;
let today: string;

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(`${stack.apiUrl}${path}`);
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

async function truthNetProfit(start: string, end: string): Promise<number> {
  const days = (
    await getJson<{ data: Array<{ net_profit: number }> }>(`/_emulator/truth/daily?start_date=${start}&end_date=${end}`)
  ).data;
  return days.reduce((sum, d) => sum + Number(d.net_profit), 0);
}

beforeAll(async () => {
  stack = await startStack({ orders: 300, seed: 61, plan: 'plus' });
  await stack.connect();
  today = (await getJson<{ today: string }>('/_emulator/truth/store')).today;
});

afterAll(async () => {
  await stack?.close();
});

describe('PROFIT_SUMMARY with a column of starts and a column of ends', () => {
  it('answers every row in one execution, each its own period, blanks with their reason, one request per distinct period', async () => {
    const periods: Array<[string, string]> = [
      [addDays(today, -40), addDays(today, -11)],
      [addDays(today, -70), addDays(today, -41)],
      [addDays(today, -100), addDays(today, -71)],
      [addDays(today, -40), addDays(today, -11)],
      ['', ''],
      [addDays(today, -5), addDays(today, -20)],
      [addDays(today, 10), addDays(today, 20)],
    ];
    const r = await stack.runtime.run(
      'PROFIT_SUMMARY',
      [periods.map(([s]) => [s]), periods.map(([, e]) => [e]), 'net_profit'],
      { authMode: 'CUSTOM_FUNCTION' },
    );
    expect(r.ok, r.error?.message).toBe(true);
    const rows = r.value as Array<[number | string, string]>;
    expect(rows).toHaveLength(periods.length);
    for (const row of rows) expect(row).toHaveLength(2);

    for (const i of [0, 1, 2]) {
      const [start, end] = periods[i];
      const truth = await truthNetProfit(start, end);
      expect(typeof rows[i][0], `row ${i + 1}`).toBe('number');
      expect(Math.abs((rows[i][0] as number) - truth), `row ${i + 1}`).toBeLessThan(0.01 * 30);
      expect(rows[i][1], `row ${i + 1}`).toBe('');
    }
    expect(rows[3]).toEqual(rows[0]);
    expect(rows[4]).toEqual(['', '']);
    expect(rows[5][0]).toBe('');
    expect(rows[5][1]).toMatch(/start \(\d{4}-\d{2}-\d{2}\) must not be after end/);
    expect(rows[6][0]).toBe('');
    expect(rows[6][1]).not.toBe('');

    const summaries = r.counts.requests.filter((q) => q.url.includes('/profitability/summary'));
    expect(summaries).toHaveLength(3);
  });

  it('without a metric it says to give one (a table per row would not fit a column)', async () => {
    const r = await stack.runtime.run('PROFIT_SUMMARY', [[[addDays(today, -10)]], [[addDays(today, -1)]]], {
      authMode: 'CUSTOM_FUNCTION',
    });
    expect(r.ok).toBe(false);
    expect(r.error?.message).toBe('PROFIT_SUMMARY: with a range of periods, give one metric, e.g. "net_profit"');
  });
});
