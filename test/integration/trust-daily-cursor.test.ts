/**
 * Spec 4.4 rule 3, section 7: the daily job meets a refused cursor as the orders
 * job does — it restarts the range without the cursor from the last day written, instead of
 * failing the run. Proven on a store whose daily history needs three pages of 400 days.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { compareWithTruth, sheetTable } from './sync-support';

type Json = Record<string, unknown>;
const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
const DAILY_ENDPOINT = 'GET /api/v1/profitability/daily';

let stack: Stack | undefined;

afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

async function dailyStatuses(s: Stack): Promise<Record<string, number>> {
  const stats = (await s.control('stats')) as { by_endpoint: Record<string, { by_status: Record<string, number> }> };
  return stats.by_endpoint[DAILY_ENDPOINT]?.by_status ?? {};
}

describe('the daily job and a refused cursor [spec 4.4 rule 3]', () => {
  for (const body of ['invalid_cursor', 'cursor_filter_mismatch'] as const) {
    it(`${body}: the run goes on from the last day written and every day of the plan's history reaches the sheet`, async () => {
      const s = (stack = await startStack({ orders: 150, seed: 9, plan: 'plus', days: 1000 }));
      await s.connect();
      // The first page is read with no cursor; the first request that sends one is refused.
      await s.control('faults', { body, count: 1, path_prefix: '/api/v1/profitability/daily' });
      for (let n = 0; n < 10; n++) {
        const r = await s.runtime.run('onScheduledSync', []);
        expect(r.ok, r.error?.message).toBe(true);
        const value = r.value as { done?: boolean; outcome?: string; message?: string };
        expect(value.outcome, value.message).not.toBe('error');
        if (value.done) break;
      }
      const statuses = await dailyStatuses(s);
      expect(statuses['400'], 'the refused cursor was met').toBe(1);

      const store = (await s.truth('store')) as Json;
      const [, ...days] = sheetTable(s, 'Daily P&L');
      const first = String(days.map((d) => String(d[0])).sort()[0]);
      expect(
        first <= String(store.first_order_date),
        `history from ${first}, first order ${String(store.first_order_date)}`,
      ).toBe(true);
      const truth = (
        (await s.control(`truth/daily?start_date=${first}&end_date=${String(store.today)}`)) as { data: Json[] }
      ).data;
      expect(truth.length).toBeGreaterThan(800);
      expect(days.length).toBe(truth.length);
      expect(await compareWithTruth(s)).toEqual(EXACT);
    }, 180_000);
  }
});
