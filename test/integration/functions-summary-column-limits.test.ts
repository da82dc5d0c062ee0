/**
 * What one PROFIT_SUMMARY column may spend: the service allows 60 requests a minute per store
 * (spec 8.1, burst) and Google gives a custom function 30 s
 * (developers.google.com/apps-script/guides/sheets/functions). A column of many periods answers the
 * rows it reached with the emulator's figures and the others with a reason that says what to do —
 * never one error for the whole column, never "Exceeded maximum execution time". A cell does not
 * recalculate by itself, so a throttled answer names Refresh formulas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { UrlFetchApp } from '../../dev/gas-runtime/services/url-fetch';
import { addDays } from '../../src/server/platform/calendar';
import { syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
let stack: Stack;
let today: string;
let storeId: string;

/** The emulator's net profit of each day in [start, end]. */
async function truthByDay(start: string, end: string): Promise<Map<string, number>> {
  const res = await fetch(`${stack.apiUrl}/_emulator/truth/daily?start_date=${start}&end_date=${end}`);
  expect(res.status).toBe(200);
  const days = ((await res.json()) as { data: Array<{ date: string; net_profit: number }> }).data;
  return new Map(days.map((d) => [d.date, Number(d.net_profit)]));
}

/** One-day periods, oldest first, ending `back` days before the store's today. */
const dayColumn = (count: number, back: number): string[] =>
  Array.from({ length: count }, (_, i) => addDays(today, -back - count + 1 + i));

async function column(days: readonly string[]) {
  const col = days.map((d) => [d]);
  return stack.runtime.run('PROFIT_SUMMARY', [col, col, 'net_profit'], { authMode: 'CUSTOM_FUNCTION' });
}

const summaryRequests = (r: { counts: { requests: Array<{ url: string }> } }): number =>
  r.counts.requests.filter((q) => q.url.includes('/profitability/summary')).length;

/** Uses the store's burst minute (spec 8.1: per store, per application) until `left` requests remain in it. */
async function burnBurst(left: number): Promise<void> {
  const { access_token: token } = (await stack.control('tokens', { store: storeId, user: 'burner@example.com' })) as {
    access_token: string;
  };
  for (let i = 0; i < 60 - left; i++) {
    const res = await fetch(`${stack.apiUrl}/api/v1/stores`, { headers: { Authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    expect(res.status).toBe(200);
  }
}

/** Every numeric row equals the emulator's figure for its day; returns how many rows were numeric. */
async function expectFiguresOfTruth(days: readonly string[], rows: Array<[number | string, string]>): Promise<number> {
  const truth = await truthByDay(days[0]!, days[days.length - 1]!);
  let numeric = 0;
  rows.forEach(([value, reason], i) => {
    if (typeof value !== 'number') return;
    numeric++;
    expect(Math.abs(value - (truth.get(days[i]!) ?? 0)), days[i]).toBeLessThan(0.01);
    expect(reason, days[i]).toBe('');
  });
  return numeric;
}

beforeAll(async () => {
  stack = await startStack({ orders: 200, seed: 7, plan: 'plus' });
  await stack.connect();
  const store = (await stack.truth('store')) as { store: Json; today: string };
  today = String(store.today);
  storeId = String(store.store.id);
  await syncUntilCaughtUp(stack);
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

describe('PROFIT_SUMMARY column: what one cell may spend', () => {
  it('90 distinct periods: asks at most 40, answers them with the figures, and the rows past the cap say to split the column', async () => {
    await stack.advanceClocks(61_000); // a burst minute of its own
    const days = dayColumn(90, 1);
    const r = await column(days);
    expect(r.error?.message).toBeUndefined();
    const rows = r.value as Array<[number | string, string]>;
    expect(rows).toHaveLength(90);
    expect(summaryRequests(r)).toBeLessThanOrEqual(40);
    expect(await expectFiguresOfTruth(days.slice(0, 40), rows.slice(0, 40))).toBe(40);
    for (const [value, reason] of rows.slice(40)) {
      expect(value).toBe('');
      expect(reason).toMatch(/at most 40 different periods.*split the column/);
    }
  });

  it('throttled partway: the rows answered keep their figures, the rest say when and to use Refresh formulas; after the minute every row answers', async () => {
    await stack.advanceClocks(61_000);
    await burnBurst(8);
    const days = dayColumn(30, 200);
    const r = await column(days);
    expect(r.error?.message, 'one error for the whole column').toBeUndefined();
    const rows = r.value as Array<[number | string, string]>;
    const answered = await expectFiguresOfTruth(days, rows);
    expect(answered).toBeGreaterThan(0);
    expect(answered).toBeLessThan(30);
    for (const [value, reason] of rows.slice(answered)) {
      expect(value).toBe('');
      expect(reason).toMatch(/slow down.*Extensions → Merchant Analytics → Refresh formulas/);
    }

    await stack.advanceClocks(61_000);
    const again = await column(days);
    expect(again.error?.message).toBeUndefined();
    expect(await expectFiguresOfTruth(days, again.value as Array<[number | string, string]>)).toBe(30);
  });

  it('a one-cell formula refused by the burst limit says to use Refresh formulas after the time given', async () => {
    await stack.advanceClocks(61_000);
    await burnBurst(0);
    const day = addDays(today, -300);
    const r = await stack.runtime.run('PROFIT_SUMMARY', [day, day, 'net_profit'], { authMode: 'CUSTOM_FUNCTION' });
    expect(r.ok).toBe(false);
    expect(r.error?.message).toMatch(
      /^PROFIT_SUMMARY: Merchant Analytics asked us to slow down \(burst limit\)\. It resumes after .+ A formula does not recalculate by itself: then choose Extensions → Merchant Analytics → Refresh formulas\.$/,
    );
  });

  it('with a 1 s round trip, 35 periods stop asking before the 30 s limit: the rows reached show figures, the others say why', async () => {
    await stack.advanceClocks(61_000);
    const original = UrlFetchApp.prototype.fetch;
    // Each request takes a modelled second on the runtime's clock (no real wait: deterministic).
    UrlFetchApp.prototype.fetch = function (this: UrlFetchApp, url: unknown, params?: unknown) {
      stack.runtime.clock.advance(1_000);
      return original.call(this, url, params);
    } as typeof original;
    try {
      const days = dayColumn(35, 400);
      const r = await column(days);
      expect(r.error?.message).toBeUndefined();
      expect(r.timedOut).toBeFalsy();
      const rows = r.value as Array<[number | string, string]>;
      const answered = await expectFiguresOfTruth(days, rows);
      expect(answered).toBeGreaterThan(0);
      expect(answered).toBeLessThan(35);
      for (const [value, reason] of rows.slice(answered)) {
        expect(value).toBe('');
        expect(reason).toMatch(/30 seconds Google gives it; split the column/);
      }
    } finally {
      UrlFetchApp.prototype.fetch = original;
    }
  });
});
