/**
 * Spec 8.1: a 429 names its limit and says when it admits again (Retry-After). When that wait does
 * not fit the run (an hour or day limit), the sync pauses until then — a partial run that
 * continues by itself, with the resume time in the spreadsheet's zone — and is never an error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { compareWithTruth, sheetTable, syncUntilCaughtUp } from './sync-support';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ orders: 600, seed: 31 });
  await stack.connect();
});
afterAll(async () => {
  await stack?.close();
});

/** The next orders request is refused with a 429 naming `reason`; 50 new orders wait behind it. */
async function oneRefusalBeforeNewOrders(reason: string, retryAfter: number): Promise<void> {
  await stack.control('faults', {
    status: 429,
    reason,
    retry_after: retryAfter,
    path_prefix: '/api/v1/orders',
    count: 1,
  });
  await stack.control('orders', { count: 50 });
}

type Progress = { done: boolean; outcome: string; message: string; pausedUntil: string | null };
type SyncNowProgress = { done: boolean; phase: string; pausedUntil: string | null; pauseFor?: string };
type LastSync = { jobs: Array<{ outcome: string | null; message: string | null }> };

async function call<T>(name: string): Promise<T> {
  const result = await stack.runtime.run(name, []);
  expect(result.ok, result.error?.message).toBe(true);
  return result.value as T;
}

describe.each([
  ['day', 5 * 3600, /daily request limit/],
  ['hour', 1800, /hourly request limit/],
] as const)('429 %s with Retry-After %i s', (reason, retryAfter, words) => {
  it('pauses until Retry-After (partial, resume time in the spreadsheet zone), then the next run continues to the truth', async () => {
    await oneRefusalBeforeNewOrders(reason, retryAfter);
    const askedAt = stack.runtime.clock.now();
    const run = await stack.runtime.run('onScheduledSync', []);
    const progress = run.value as Progress;
    expect(progress.outcome).toBe('partial');
    expect(progress.done).toBe(false);
    const resumeAt = Date.parse(String(progress.pausedUntil));
    expect(Math.abs(resumeAt - (askedAt + retryAfter * 1000))).toBeLessThan(60_000);
    expect(progress.message).toMatch(words);
    expect(progress.message).toContain(`(${stack.runtime.workbook.timeZone} time)`);
    const [headers, ...rows] = sheetTable(stack, 'Sync log');
    expect(rows.at(-1)![headers.indexOf('outcome')]).toBe('partial');

    await stack.advanceClocks(retryAfter * 1000 + 1000);
    const next = (await stack.runtime.run('onScheduledSync', [])).value as Progress;
    expect(next).toMatchObject({ done: true, outcome: 'ok' });
    expect(await compareWithTruth(stack)).toEqual({ mismatches: [], missing: [], unexpected: [], duplicates: [] });
  });

  it('Sync now ends naming the limit the 429 named, never the hourly allowance, and Last sync says the same', async () => {
    await oneRefusalBeforeNewOrders(reason, retryAfter);
    const zone = `(${stack.runtime.workbook.timeZone} time)`;
    await call('startSync');
    const step = await call<SyncNowProgress>('runSyncStep');
    expect(step.pausedUntil).not.toBeNull();
    expect(step.phase).toMatch(words);
    expect(step.phase).not.toMatch(/allowance/);
    expect(step.phase).toContain(`; resumes after `);
    expect(step.phase).toContain(zone);
    expect(step.pauseFor).toBe(reason);
    const [last] = (await call<LastSync>('getSidebarState')).jobs;
    expect(last.outcome).toBe('partial');
    expect(last.message).toMatch(words);
    expect(last.message).not.toMatch(/allowance/);
    expect(last.message).toContain(zone);

    await stack.advanceClocks(retryAfter * 1000 + 1000);
    await syncUntilCaughtUp(stack);
    expect(await compareWithTruth(stack)).toEqual({ mismatches: [], missing: [], unexpected: [], duplicates: [] });
  });
});
