/**
 * Spec 8.1: RateLimit-Remaining reports the hourly budget. The sync stops starting pages while a
 * reserve of 20 is left (it pauses, saying when it resumes), shares that with later executions, and
 * leaves the reserve to what it protects: the sidebar's reads and every formula, paged or not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { burnHourlyBudget } from './sync-support';

let stack: Stack;
let today: string;

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

beforeAll(async () => {
  stack = await startStack({ orders: 120, seed: 4, plan: 'plus' });
  await stack.connect();
  const store = (await (await fetch(`${stack.apiUrl}/_emulator/truth/store`)).json()) as {
    today: string;
    store: { id: string };
  };
  today = store.today;
  await burnHourlyBudget(stack, store.store.id, 20);
});

afterAll(async () => {
  await stack?.close();
});

const PAGED = ['/api/v1/orders?', '/api/v1/products?', '/api/v1/profitability/daily?'];
const pagedReads = (requests: { url: string }[]): number =>
  requests.filter((r) => PAGED.some((p) => r.url.includes(p))).length;

describe('spec 8.1: a reserve of the hourly budget is kept for the sidebar and formulas', () => {
  it('the sync stops before its next page once fewer than 20 requests remain: paused, saying when it resumes', async () => {
    const result = await stack.runtime.run('onScheduledSync', []);
    expect(result.ok, result.error?.message).toBe(true);
    const value = result.value as { outcome: string; message: string };
    expect(value.outcome).toBe('partial');
    expect(value.message).toMatch(/hourly request allowance/);
    expect(value.message).toMatch(/resumes after/);
    expect(pagedReads(result.counts.requests)).toBeLessThanOrEqual(1);
  });

  it('the next sync knows it without spending a page request', async () => {
    const result = await stack.runtime.run('onScheduledSync', []);
    expect((result.value as { outcome: string }).outcome).toBe('partial');
    expect(pagedReads(result.counts.requests)).toBe(0);
  });

  it('formulas are never blocked by the reserve that protects them: a two-page PROFIT_DAILY answers', async () => {
    const result = await stack.runtime.run('PROFIT_DAILY', [addDays(today, -420), addDays(today, -1)], {
      authMode: 'CUSTOM_FUNCTION',
    });
    expect(result.error, JSON.stringify(result.error)).toBeUndefined();
    const rows = result.value as unknown[][];
    expect(rows.length).toBe(421); // header + 420 days
    expect(result.counts.requests.filter((r) => r.url.includes('/profitability/daily'))).toHaveLength(2);
  });

  it('single reads (a summary formula, the connection check) still work from the reserve', async () => {
    const summary = await stack.runtime.run('PROFIT_SUMMARY', [addDays(today, -30), addDays(today, -1)], {
      authMode: 'CUSTOM_FUNCTION',
    });
    expect(summary.error, JSON.stringify(summary.error)).toBeUndefined();
    const checked = await stack.runtime.run('checkApiConnection', []);
    const value = checked.value as { ok: boolean; rateLimitRemaining: number };
    expect(value.ok).toBe(true);
    expect(value.rateLimitRemaining).toBeLessThan(20);
  });

  it('Last sync and Sync now name the reserve as the cause, not a limit of the service', async () => {
    const state = await stack.runtime.run('getSidebarState', []);
    const [last] = (state.value as { jobs: Array<{ outcome: string; message: string | null }> }).jobs;
    expect(last.outcome).toBe('partial');
    expect(last.message).toMatch(
      /^Paused to keep the hourly request allowance \(fewer than 20 requests left\); resumes after .+ time\)\.$/,
    );
    await stack.runtime.run('startSync', []);
    const step = (await stack.runtime.run('runSyncStep', [])).value as { phase: string; pauseFor?: string };
    expect(step.phase).toMatch(/^Paused to keep the hourly request allowance \(fewer than 20 requests left\); /);
    expect(step.pauseFor).toBe('reserve');
  });
});
