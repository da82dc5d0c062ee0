/**
 * The client inside the built bundle, run by the local runtime against the emulator over real
 * HTTP: faults injected with POST /_emulator/faults are retried, 429s are waited out or turned
 * into a resume time, invalid_token costs exactly one refresh, requests stay within the limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { ExecutionResult } from '../../dev/gas-runtime/index';

let stack: Stack;
let today: string;
let rangeSeq = 0;

type Check =
  | {
      ok: true;
      storeId: string;
      storeName: string;
      rateLimitRemaining: number | null;
      stats: { requests: number; retries: number; rateLimitWaits: number; cacheHits: number };
    }
  | {
      ok: false;
      code: string;
      userMessage: string;
      action: string;
      retryAt: string | null;
      stats: { requests: number; retries: number; rateLimitWaits: number };
    };

async function post(path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${stack.apiUrl}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(`${stack.apiUrl}${path}`);
  return (await res.json()) as T;
}

const fault = (body: Record<string, unknown>) => post('/_emulator/faults', body);
const check = async (): Promise<{ result: ExecutionResult; value: Check }> => {
  const result = await stack.runtime.run('checkApiConnection', []);
  expect(result.error, JSON.stringify(result.error)).toBeUndefined();
  return { result, value: result.value as Check };
};
const statuses = (result: ExecutionResult, fragment: string) =>
  result.counts.requests.filter((r) => r.url.includes(fragment)).map((r) => r.status);

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A summary period no other test used, so the document cache cannot answer it. */
function freshRange(): [string, string] {
  rangeSeq += 1;
  return [addDays(today, -300 + rangeSeq), addDays(today, -250 + rangeSeq)];
}

const summary = (args: [string, string]) => stack.runtime.run('PROFIT_SUMMARY', args, { authMode: 'CUSTOM_FUNCTION' });

beforeAll(async () => {
  stack = await startStack({ orders: 300, seed: 9, plan: 'plus' });
  await stack.connect();
  today = (await getJson<{ today: string }>('/_emulator/truth/store')).today;
});

afterAll(async () => {
  await stack?.close();
});

describe('spec 7: 500, 502, HTML and truncated answers are retried with backoff and succeed', () => {
  it.each([
    ['500 JSON', { status: 500 }, [500, 500, 200]],
    ['502 HTML page', { status: 502, body: 'html' }, [502, 502, 200]],
    ['500 HTML page', { status: 500, body: 'html' }, [500, 500, 200]],
    ['200 truncated JSON', { status: 200, body: 'truncated' }, [200, 200, 200]],
  ])('%s', async (_name, spec, expected) => {
    await fault({ ...spec, count: 2, path_prefix: '/api/v1/profitability/summary' });
    const result = await summary(freshRange());
    expect(result.error, JSON.stringify(result.error)).toBeUndefined();
    expect(statuses(result, '/profitability/summary')).toEqual(expected);
    const table = result.value as unknown[][];
    expect(table[0]).toEqual(['field', 'value']);
    // the retries were slept out with Utilities.sleep, not busy-waited
    expect(result.counts.byMethod['Utilities.sleep']).toBe(2);
  });

  it('a fault that never clears surfaces as a typed message after the capped retries', async () => {
    await fault({ status: 500, count: 5, path_prefix: '/api/v1/profitability/summary' });
    const result = await summary(freshRange());
    expect(result.ok).toBe(false);
    expect(result.error?.message).toMatch(/^PROFIT_SUMMARY: Merchant Analytics had a temporary problem/);
    expect(statuses(result, '/profitability/summary')).toEqual([500, 500, 500, 500, 500]);
  });
});

describe('spec 8.1: 429 Retry-After', () => {
  it('waits when Retry-After fits the budget, then succeeds', async () => {
    await fault({ status: 429, count: 1, path_prefix: '/api/v1/account', reason: 'burst', retry_after: 3 });
    const { result, value } = await check();
    expect(value.ok).toBe(true);
    expect(value.stats.rateLimitWaits).toBe(1);
    expect(statuses(result, '/api/v1/account')).toEqual([429, 200]);
    expect(result.counts.byMethod['Utilities.sleep']).toBe(1);
  });

  it('in a custom function (30 s) a 40 s Retry-After is not waited: the message says when it resumes', async () => {
    await fault({
      status: 429,
      count: 1,
      path_prefix: '/api/v1/profitability/summary',
      reason: 'burst',
      retry_after: 40,
    });
    const result = await summary(freshRange());
    expect(result.ok).toBe(false);
    expect(result.error?.message).toMatch(
      /^PROFIT_SUMMARY: .*resumes after \d{2}:\d{2}( on \d{4}-\d{2}-\d{2})? \([A-Za-z_/]+ time\)/,
    );
    expect(result.error?.message).not.toMatch(/\d{2}:\d{2}:\d{2}(\.\d+)?Z/);
    expect(statuses(result, '/profitability/summary')).toEqual([429]);
    expect(result.counts.byMethod['Utilities.sleep'] ?? 0).toBe(0);
  });

  it('an hourly limit is never waited long: the caller gets retryAt to record', async () => {
    await fault({ status: 429, count: 1, path_prefix: '/api/v1/account', reason: 'hour', retry_after: 1800 });
    const { result, value } = await check();
    expect(value.ok).toBe(false);
    if (value.ok) return;
    expect(value.code).toBe('rate_limited');
    expect(value.action).toBe('wait');
    const resumeIn = Date.parse(value.retryAt!) - result.endedAt;
    expect(resumeIn).toBeGreaterThan(1790_000);
    expect(resumeIn).toBeLessThanOrEqual(1800_000);
    expect(result.counts.byMethod['Utilities.sleep'] ?? 0).toBe(0);
  });
});

describe('spec 5.8: invalid_token -> exactly one refresh and one retry', () => {
  it('an access token the service expired is refreshed once, and the request repeated', async () => {
    const before = await getJson<{ token_requests: number }>('/_emulator/stats');
    await post('/_emulator/clock', { advance_seconds: 3601 }); // the service now rejects the stored token
    const { result, value } = await check();
    expect(value.ok).toBe(true);
    expect(
      result.counts.requests.map((r) => `${r.method.toUpperCase()} ${new URL(r.url).pathname} ${r.status}`),
    ).toEqual(['GET /api/v1/account 401', 'POST /api/auth/oauth2/token 200', 'GET /api/v1/account 200']);
    const after = await getJson<{ token_requests: number }>('/_emulator/stats');
    expect(after.token_requests - before.token_requests).toBe(1);
    // the new token works without another refresh
    const again = await check();
    expect(statuses(again.result, '/oauth2/token')).toEqual([]);
    expect(again.value.ok).toBe(true);
  });

  it('bearer tokens never appear in request URLs or results', async () => {
    const issued = await getJson<{ access_tokens?: string[]; refresh_tokens?: string[] } | string[]>(
      '/_emulator/issued-tokens',
    );
    const values = Array.isArray(issued) ? issued : [...(issued.access_tokens ?? []), ...(issued.refresh_tokens ?? [])];
    expect(values.length).toBeGreaterThan(0);
    const { result } = await check();
    const visible = JSON.stringify([result.counts.requests, result.value, result.logs]);
    for (const token of values) expect(visible).not.toContain(token);
  });
});

describe('spec 8.1: at most 2 requests in flight', () => {
  it('four formulas recalculating at once all succeed; the client never uses fetchAll', async () => {
    const runs = await Promise.all([0, 1, 2, 3].map(() => summary(freshRange())));
    for (const r of runs) expect(r.error, JSON.stringify(r.error)).toBeUndefined();
    for (const r of runs) expect(r.counts.byMethod['UrlFetchApp.fetchAll'] ?? 0).toBe(0);
  });
});
