import type { Stack } from '../../dev/harness/index';

/** How many rows the Orders and Line items sheets must hold: the emulator's truth, counted. */
export async function truthRowCounts(stack: Stack): Promise<{ orders: number; lineItems: number }> {
  const orders = ((await stack.truth('orders')) as { data: Array<{ line_items?: unknown[] }> }).data;
  return { orders: orders.length, lineItems: orders.reduce((n, o) => n + (o.line_items?.length ?? 0), 0) };
}
