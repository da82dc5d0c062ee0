/**
 * Spec 8.1: RateLimit-Remaining reports the hourly budget. The client stops starting pages while a
 * reserve of 20 is left (the sync records "resumes at …"), shares that with later executions, and
 * keeps single reads working for the sidebar and formulas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';

let stack: Stack;
let today: string;

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${stack.apiUrl}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Uses up the store's hourly budget from another merchant user of the same store until `left` remain. */
async function burnHourlyBudget(storeId: string, left: number): Promise<void> {
  const token = (await post('/_emulator/tokens', { store: storeId, user: 'burner@example.com' })).access_token as string;
  let remaining = Infinity;
  while (remaining > left) {
    for (let i = 0; i < 55 && remaining > left; i++) {
      const res = await fetch(`${stack.apiUrl}/api/v1/stores`, { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      remaining = Number(res.headers.get('RateLimit-Remaining'));
    }
    await post('/_emulator/clock', { advance_seconds: 61 }); // past the 60/minute burst window, well inside the hour
  }
}

beforeAll(async () => {
  stack = await startStack({ orders: 120, seed: 4, plan: 'plus' });
  await stack.connect();
  const store = (await (await fetch(`${stack.apiUrl}/_emulator/truth/store`)).json()) as { today: string; store: { id: string } };
  today = store.today;
  await burnHourlyBudget(store.store.id, 20);
});

afterAll(async () => {
  await stack?.close();
});

describe('spec 8.1: a reserve of the hourly budget is kept', () => {
  it('a paged read stops before the next page once fewer than 20 requests remain, saying when it resumes', async () => {
    const result = await stack.runtime.run('PROFIT_DAILY', [addDays(today, -420), addDays(today, -1)], { authMode: 'CUSTOM_FUNCTION' });
    expect(result.ok).toBe(false);
    expect(result.error?.message).toMatch(/^PROFIT_DAILY: The hourly request allowance is nearly used up\. It resumes after \d{2}:\d{2}( on \d{4}-\d{2}-\d{2})? \([A-Za-z_/]+ time\)\./);
    expect(result.counts.requests.filter((r) => r.url.includes('/profitability/daily'))).toHaveLength(1);
  });

  it('the next execution knows it without spending a request', async () => {
    const result = await stack.runtime.run('PROFIT_DAILY', [addDays(today, -10), addDays(today, -1)], { authMode: 'CUSTOM_FUNCTION' });
    expect(result.error?.message).toMatch(/hourly request allowance is nearly used up/);
    expect(result.counts.urlFetches).toBe(0);
  });

  it('single reads (a summary formula, the connection check) still work from the reserve', async () => {
    const summary = await stack.runtime.run('PROFIT_SUMMARY', [addDays(today, -30), addDays(today, -1)], { authMode: 'CUSTOM_FUNCTION' });
    expect(summary.error, JSON.stringify(summary.error)).toBeUndefined();
    const checked = await stack.runtime.run('checkApiConnection', []);
    const value = checked.value as { ok: boolean; rateLimitRemaining: number };
    expect(value.ok).toBe(true);
    expect(value.rateLimitRemaining).toBeLessThan(20);
  });
});
