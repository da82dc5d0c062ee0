/**
 * The fill pass: columns added to Orders or Line items after their rows were written (the user
 * chose more columns) are filled for every existing row by reading every order once, oldest change
 * first from its own watermark, as the reconciliation pass does. It runs after the incremental jobs
 * of a run, in what is left of the budget, so new orders never wait for it; a page's cells are
 * written before its checkpoint moves.
 */
import type { Order } from '../api/types';
import type { Page } from '../api';
import { columnIndex, LINE_ITEMS, ORDERS } from '../sheets/schema';
import { isCursorRejected, laterOf, PAGE_LIMIT, updatedAfterFor, type JobContext, type JobResult } from './job-context';
import { orderWriter } from './orders-job';
import type { ColumnFill } from '../state/columns-state';

export function fillDue(ctx: JobContext): boolean {
  return ctx.state.get('columns').fill !== null;
}

function positions(fill: ColumnFill): { orders: number[]; lineItems: number[] } {
  const known = (schema: typeof ORDERS, headers: readonly string[] = []): number[] =>
    headers.filter((h) => schema.columns.some((c) => c.header === h)).map((h) => columnIndex(schema, h));
  return { orders: known(ORDERS, fill.columns.Orders), lineItems: known(LINE_ITEMS, fill.columns['Line items']) };
}

export function runColumnFill(ctx: JobContext): JobResult {
  const createdAfter = ctx.state.get('orders').createdAfter;
  let cursor: string | null = null;
  let updatedAfter = '';
  let restarts = 0;
  let startedAt: number | null = null;
  let writer: ReturnType<typeof orderWriter> | null = null;
  while (ctx.budget.canStartStep()) {
    const fill = ctx.state.get('columns').fill;
    if (fill === null) break;
    if (fill.startedAt !== startedAt || writer === null) {
      // The first page of this execution, or a column was added while the pass ran (it starts over, so every row gets it).
      startedAt = fill.startedAt;
      writer = orderWriter(ctx, false, false, positions(fill));
      cursor = null;
      updatedAfter = updatedAfterFor(fill.watermark);
    }
    let page: Page<Order>;
    try {
      page = ctx.api.listOrders({
        status: 'all',
        limit: PAGE_LIMIT,
        updatedAfter,
        createdAfter: createdAfter ?? undefined,
        cursor,
      });
    } catch (e) {
      if (!isCursorRejected(e) || cursor === null || restarts >= 2) throw e;
      restarts++;
      cursor = null;
      updatedAfter = updatedAfterFor(fill.watermark);
      continue;
    }
    const maxUpdatedAt = writer.write(page.data);
    const stored = ctx.state.reload('columns');
    if (!stored.fill || stored.fill.startedAt !== fill.startedAt) continue;
    const read = stored.fill.orders + page.data.length;
    const more = page.hasMore && page.nextCursor !== null;
    ctx.state.save('columns', {
      ...stored,
      fill: more ? { ...stored.fill, watermark: laterOf(stored.fill.watermark, maxUpdatedAt), orders: read } : null,
    });
    if (!more)
      return {
        job: 'orders',
        caughtUp: true,
        message: `The columns you added are filled for every order (${read} read).`,
      };
    cursor = page.nextCursor;
  }
  const fill = ctx.state.get('columns').fill;
  if (fill === null) return { job: 'orders', caughtUp: true, message: '' };
  return {
    job: 'orders',
    caughtUp: false,
    message: `Filling the columns you added: ${fill.orders} orders so far; the next run continues.`,
  };
}
