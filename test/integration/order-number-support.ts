/** What the order number index's tests share: a store synced with its row index in use, an hourly run, a PROFIT_ORDER answer. */
import { expect } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { scheduledRun, syncUntilCaughtUp } from './sync-support';

const HOUR_MS = 3_600_000;

/** An hour later, the scheduled run: it succeeds and is done. */
export async function hourly(stack: Stack): Promise<void> {
  await stack.advanceClocks(HOUR_MS);
  const r = await scheduledRun(stack);
  expect(r.ok, r.error?.message).toBe(true);
  expect((r.value as { done: boolean }).done).toBe(true);
}

/** A store of `orders` orders, connected and caught up, then an hourly run with nothing changed: the row index is in use from here. */
export async function indexedStore(orders: number, seed: number): Promise<Stack> {
  const stack = await startStack({ orders, seed });
  await stack.connect();
  await syncUntilCaughtUp(stack);
  await hourly(stack);
  return stack;
}

/** The id PROFIT_ORDER gave, or its error message. */
export async function answerOf(stack: Stack, number: unknown): Promise<string> {
  const r = await stack.runtime.run('PROFIT_ORDER', [number], { authMode: 'CUSTOM_FUNCTION' });
  if (r.error) return `error: ${r.error.message}`;
  return String(new Map((r.value as unknown[][]).slice(1).map(([k, v]) => [String(k), v])).get('id'));
}
