/**
 * PROFIT_ORDER("#…") never gives an order the store no longer shows under that number. The spec
 * gives order_number as a "display number", a string (spec 2.1), with no promise that it never
 * moves; the order number index keeps an entry per number it met and lookups are cached six hours,
 * so the cell checks the order it reads against the number asked (found by an outside review: a
 * renumbered order's old number, and a number moved to another order, gave the first order).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionResult } from '../../dev/gas-runtime/index';
import { startStack, type Stack } from '../../dev/harness/index';
import { scheduledRun, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
const HOUR_MS = 3_600_000;
let stack: Stack;

const run = (args: unknown[]): Promise<ExecutionResult> =>
  stack.runtime.run('PROFIT_ORDER', args, { authMode: 'CUSTOM_FUNCTION' });
const truthOrders = async (): Promise<Json[]> => ((await stack.truth('orders')) as { data: Json[] }).data;

/** The id PROFIT_ORDER gave, or its error message. */
function answer(r: ExecutionResult): string {
  if (r.error) return `error: ${r.error.message}`;
  const fields = new Map((r.value as unknown[][]).slice(1).map(([k, v]) => [String(k), v]));
  return String(fields.get('id'));
}

async function hourly(): Promise<void> {
  await stack.advanceClocks(HOUR_MS);
  const r = await scheduledRun(stack);
  expect(r.ok, r.error?.message).toBe(true);
  expect((r.value as { done: boolean }).done).toBe(true);
}

beforeAll(async () => {
  stack = await startStack({ orders: 600, seed: 29 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
  await hourly();
}, 240_000);

afterAll(async () => {
  await stack?.close();
});

describe('PROFIT_ORDER by a number the store moved', () => {
  it('an order renumbered at the store: its old number no longer gives it, and the cell says what it is now', async () => {
    const [order] = (await truthOrders()).slice(20, 21);
    const old = String(order.order_number);
    expect(answer(await run([old]))).toBe(order.id);
    await stack.control(`orders/${String(order.id)}/patch`, { order_number: '#R-9001' });
    await hourly();
    expect(answer(await run(['#R-9001']))).toBe(order.id);
    expect(answer(await run([old]))).toMatch(/^error: PROFIT_ORDER: .*now shows that order as #R-9001/);
  });

  it('an order renumbered, its old number never looked up before: the old number no longer gives it', async () => {
    const [order] = (await truthOrders()).slice(40, 41);
    const old = String(order.order_number);
    await stack.control(`orders/${String(order.id)}/patch`, { order_number: '#R-9003' });
    await hourly();
    expect(answer(await run([old]))).toMatch(/^error: PROFIT_ORDER: .*#R-9003/);
  });

  it('a number given to another order (the first renumbered): the number gives the order that shows it now', async () => {
    const [first, second] = (await truthOrders()).slice(30, 32);
    const number = String(first.order_number);
    // Looked up once (kept in the document cache), then the store moves the number.
    expect(answer(await run([number]))).toBe(first.id);
    await stack.control(`orders/${String(first.id)}/patch`, { order_number: '#R-9002' });
    await stack.control(`orders/${String(second.id)}/patch`, { order_number: number });
    await hourly();
    expect(answer(await run([number]))).toBe(second.id);
  });
});
