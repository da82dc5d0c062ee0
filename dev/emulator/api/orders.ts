import type { OrderRecord } from '../data/model.js';
import { REVENUE_STATUSES } from '../data/model.js';
import { indexAfterId, indexAfterUpdated, indexCreatedFrom } from '../data/store-data.js';
import { endOfLocalDay, startOfLocalDay } from '../timezone.js';
import type { ApiContext, ApiResult, HistoryMeta, PageInfo } from './context.js';
import { filterHash, type CursorPosition } from './cursor.js';
import { ApiError, invalidParameter, notFound } from './errors.js';
import { QueryReader } from './query.js';
import { orderJson } from './serialize.js';

const PARAMS = [
  'updated_after',
  'created_after',
  'created_before',
  'status',
  'sales_channel',
  'limit',
  'cursor',
] as const;

function isRevenueBearing(order: OrderRecord): boolean {
  return order.canceledMs === null && REVENUE_STATUSES.includes(order.financialStatus);
}

/** GET /api/v1/orders (spec 4.4): keyset pages by id, or by (updated_at, id) with updated_after. */
export function listOrders(ctx: ApiContext): ApiResult {
  const q = new QueryReader(ctx.params, PARAMS);
  const updatedAfter = q.timestamp('updated_after');
  const createdAfter = q.date('created_after');
  const createdBefore = q.date('created_before');
  const status = q.oneOf('status', ['default', 'all'], 'default');
  const channel = ctx.params.has('sales_channel') ? q.oneOf('sales_channel', ['d2c', 'b2b'], 'd2c') : null;
  const limit = q.integer('limit', 1, 250, 100);
  if (createdAfter && createdBefore && createdBefore < createdAfter)
    throw invalidParameter('created_before', 'must not be before created_after');

  const store = ctx.data.store;
  const filters = filterHash({
    updated_after: updatedAfter,
    created_after: createdAfter,
    created_before: createdBefore,
    status,
    sales_channel: channel,
    limit,
  });
  const position = readCursor(ctx, 'orders', filters);

  const window = ctx.state.historyWindow(store);
  const fromMs = Math.max(createdAfter ? startOfLocalDay(createdAfter, store.timezone) : -Infinity, window.fromMs);
  const toMs = createdBefore ? endOfLocalDay(createdBefore, store.timezone) : Infinity;
  const accepts = (o: OrderRecord): boolean =>
    o.createdMs >= fromMs &&
    o.createdMs <= toMs &&
    (status === 'all' || isRevenueBearing(o)) &&
    (channel === null || o.salesChannel === channel);

  const found: OrderRecord[] = [];
  if (updatedAfter !== null) {
    const list = ctx.data.ordersByUpdated;
    let i = indexAfterUpdated(list, updatedAfter, null);
    if (position?.by === 'updated') i = Math.max(i, indexAfterUpdated(list, position.updatedMs, position.id));
    for (; i < list.length && found.length <= limit; i++) if (accepts(list[i]!)) found.push(list[i]!);
  } else {
    const list = ctx.data.ordersById;
    let i = Number.isFinite(fromMs) ? indexCreatedFrom(list, fromMs) : 0;
    if (position?.by === 'id') i = Math.max(i, indexAfterId(list, position.id));
    for (; i < list.length && found.length <= limit && list[i]!.createdMs <= toMs; i++)
      if (accepts(list[i]!)) found.push(list[i]!);
  }

  const hasMore = found.length > limit;
  const pageRows = hasMore ? found.slice(0, limit) : found;
  const last = pageRows[pageRows.length - 1];
  const next: CursorPosition | null =
    !hasMore || !last
      ? null
      : updatedAfter !== null
        ? { by: 'updated', updatedMs: last.updatedMs, id: last.id }
        : { by: 'id', id: last.id };
  const page: PageInfo = {
    has_more: hasMore,
    next_cursor: next ? ctx.cursors.encode('orders', store.id, filters, next) : null,
    limit,
  };
  const meta: HistoryMeta = {
    history_available_from: window.from,
    truncated: window.from !== null && (createdAfter === null || createdAfter < window.from),
  };
  return { body: { success: true, data: pageRows.map((o) => orderJson(o, store.taxTreatedAsCost)), page, meta } };
}

/** GET /api/v1/orders/{id} (spec 4.5): by id or external:<id>; 404 beyond the plan window. */
export function getOrder(ctx: ApiContext): ApiResult {
  new QueryReader(ctx.params, []);
  const ref = ctx.recordId ?? '';
  const order = ctx.data.findOrder(ref);
  if (!order || order.createdMs < ctx.state.historyWindow(ctx.data.store).fromMs) throw notFound(`order ${ref}`);
  return { body: { success: true, data: orderJson(order, ctx.data.store.taxTreatedAsCost) } };
}

export function readCursor(ctx: ApiContext, endpoint: string, filters: string): CursorPosition | null {
  const cursor = ctx.params.get('cursor');
  if (cursor === null) return null;
  const check = ctx.cursors.decode(cursor, endpoint, ctx.data.store.id, filters);
  if (!check.ok) throw new ApiError(400, check.code, check.message);
  return check.position;
}
