/**
 * A scheduled run squeezed to a chosen budget: the user's trigger allowance (trigger-allowance.ts)
 * is set so that `budgetMs` of the daily share is left, and one 429 early in the run (the API's
 * per-minute limit, spec 8.1) pushes the run's jobs past the 15 s a scheduled run needs at least,
 * where a walk of budgets can reach what follows them. The runtime's clock is modelled time only,
 * so a run's timeline repeats to the millisecond.
 */
import { expect } from 'vitest';
import type { ExecutionResult } from '../../dev/gas-runtime/index';
import type { Stack } from '../../dev/harness/index';

/** Google's daily share the add-on gives scheduled runs (trigger-allowance.ts DAILY_SHARE_MS). */
export const DAILY_SHARE_MS = 30 * 60_000;

export async function scheduledRunWithin(
  stack: Stack,
  trigger: string,
  budgetMs: number,
  retryAfterSeconds = 10,
): Promise<ExecutionResult> {
  const now = stack.runtime.clock.now();
  stack.runtime.properties.user.set(
    'scheduledRuntime',
    JSON.stringify({ runs: [[now - 3_600_000, DAILY_SHARE_MS - budgetMs]], skipNotedAt: null }),
  );
  await stack.control('faults', {
    status: 429,
    reason: 'burst',
    retry_after: retryAfterSeconds,
    path_prefix: '/api/v1/orders',
    count: 1,
  });
  const run = await stack.runtime.fireTrigger(trigger);
  expect(run.ok, run.error?.message).toBe(true);
  return run;
}

export const runValue = (run: ExecutionResult): { done?: boolean; outcome?: string; message?: string } =>
  run.value as { done?: boolean; outcome?: string; message?: string };
