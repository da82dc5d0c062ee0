/**
 * Hourly runs ended part-way (as Google ends an execution at its time limit: killAtServiceCall)
 * while new orders and changes arrive: after each, PROFIT_ORDER by number gives the truth's order
 * or an error, never another order; once a run completes, every number sampled, old and new,
 * finds its order. The clocks move 1 minute a run: the access token keeps more than the 45 minutes
 * below which a scheduled run renews it (PROACTIVE_REFRESH_BELOW_MS), so no kill lands between a
 * refresh token's rotation and its storing (a lost connection known apart, token-renewal-*.test.ts).
 * 1,500 orders.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { scheduledRun, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
let stack: Stack;

const truthOrders = async (): Promise<Json[]> => ((await stack.truth('orders')) as { data: Json[] }).data;

/** The id PROFIT_ORDER gave for a number, or its error message. */
async function answer(number: unknown): Promise<string> {
  const r = await stack.runtime.run('PROFIT_ORDER', [number], { authMode: 'CUSTOM_FUNCTION' });
  if (r.error) return `error: ${r.error.message}`;
  return String(new Map((r.value as unknown[][]).slice(1).map(([k, v]) => [String(k), v])).get('id'));
}

beforeAll(async () => {
  stack = await startStack({ orders: 1_500, seed: 37 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
}, 240_000);

afterAll(async () => {
  await stack?.close();
});

describe('hourly runs killed part-way', () => {
  it('never give another order by number, and a completed run leaves every number found', async () => {
    // A complete run past the access token's hour first: a fresh token for the kills that follow.
    await stack.advanceClocks(61 * 60_000);
    const first = await scheduledRun(stack);
    expect(first.ok, first.error?.message).toBe(true);
    const wrong: string[] = [];
    for (let k = 2; k <= 26; k += 2) {
      await stack.control('orders', { count: 3 });
      await stack.advanceClocks(60_000);
      await stack.runtime.run('onScheduledSync', [], { killAtServiceCall: k });
      await stack.runtime.run('refreshFormulasFromMenu', []);
      const all = await truthOrders();
      for (const o of [...all.slice(-4), ...all.filter((_, i) => i % 151 === k % 151)]) {
        const got = await answer(o.order_number);
        if (!got.startsWith('error: ') && got !== o.id)
          wrong.push(`kill at ${k}: ${String(o.order_number)} gave ${got}, truth ${String(o.id)}`);
      }
    }
    await stack.advanceClocks(4 * 60_000);
    const r = await scheduledRun(stack);
    expect(r.ok, r.error?.message).toBe(true);
    const missed: string[] = [];
    for (const o of (await truthOrders()).filter((_, i, a) => i % 97 === 0 || i >= a.length - 40)) {
      const got = await answer(o.order_number);
      if (got !== o.id) missed.push(`${String(o.order_number)}: ${got.slice(0, 120)}`);
    }
    expect({ wrong, missed }).toEqual({ wrong: [], missed: [] });
  });
});
