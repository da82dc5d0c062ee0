/**
 * The fill pass: columns added to Orders or Line items after their rows were written (the user
 * chose more columns) are filled for every existing row by reading every order once, oldest change
 * first from its own watermark, as the reconciliation pass does. It runs after the incremental jobs
 * of a run, in what is left of the budget, so new orders never wait for it; a page's cells are
 * written before its checkpoint moves.
 */
import type { Order } from '../api/types';
import { columnIndex, LINE_ITEMS, ORDERS } from '../sheets/schema';
import { laterOf, listChangedOrders, updatedAfterFor, type JobContext, type JobResult } from './job-context';
import { pageThrough, type Feed } from './feed';
import { orderWriter, type OrderWriter } from './order-writer';
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
  const end = { read: null as number | null };
  pageThrough(ctx.budget, fillFeed(ctx, end));
  if (end.read !== null)
    return {
      job: 'orders',
      caughtUp: true,
      message: `The columns you added are filled for every order (${end.read} read).`,
    };
  const fill = ctx.state.get('columns').fill;
  if (fill === null) return { job: 'orders', caughtUp: true, message: '' };
  return {
    job: 'orders',
    caughtUp: false,
    message: `Filling the columns you added: ${fill.orders} orders so far; the next run continues.`,
  };
}

/** Its checkpoint is the fill's own watermark; a fill started again (a column added meanwhile) begins afresh. */
/** `end.read`: the orders read in all, once the pass reached its end. */
function fillFeed(ctx: JobContext, end: { read: number | null }): Feed<Order> {
  const createdAfter = ctx.state.get('orders').createdAfter;
  let updatedAfter = '';
  let startedAt: number | null = null;
  let writer: OrderWriter | null = null;
  return {
    beforePage() {
      const fill = ctx.state.get('columns').fill;
      if (fill === null) return 'stop';
      if (fill.startedAt === startedAt && writer !== null) return 'go';
      // The first page of this execution, or a column was added while the pass ran (it starts over, so every row gets it).
      startedAt = fill.startedAt;
      writer = orderWriter(ctx, false, false, positions(fill));
      updatedAfter = updatedAfterFor(fill.watermark);
      return 'fresh';
    },
    list: (cursor) => listChangedOrders(ctx, updatedAfter, createdAfter, cursor),
    take(page, { last }) {
      const maxUpdatedAt = writer!.write(page.data);
      const stored = ctx.state.reload('columns');
      if (!stored.fill || stored.fill.startedAt !== startedAt) return 'fresh';
      const read = stored.fill.orders + page.data.length;
      ctx.state.save('columns', {
        ...stored,
        fill: last ? null : { ...stored.fill, watermark: laterOf(stored.fill.watermark, maxUpdatedAt), orders: read },
      });
      if (!last) return 'next';
      end.read = read;
      return 'done';
    },
    fromCheckpoint() {
      updatedAfter = updatedAfterFor(ctx.state.get('columns').fill?.watermark ?? null);
    },
  };
}
