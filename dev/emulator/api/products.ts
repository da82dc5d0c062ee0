import type { ProductRecord } from '../data/model.js';
import { indexAfterId, indexAfterUpdated } from '../data/store-data.js';
import type { ApiContext, ApiResult, PageInfo } from './context.js';
import { filterHash, type CursorPosition } from './cursor.js';
import { notFound } from './errors.js';
import { readCursor } from './orders.js';
import { QueryReader } from './query.js';
import { productJson } from './serialize.js';

export const PRODUCT_STATUSES = ['all', 'active', 'draft', 'archived'] as const;

/** GET /api/v1/products (spec 4.6): status defaults to all; products are not bounded by the plan window. */
export function listProducts(ctx: ApiContext): ApiResult {
  const q = new QueryReader(ctx.params, ['updated_after', 'status', 'limit', 'cursor']);
  const updatedAfter = q.timestamp('updated_after');
  const status = q.oneOf('status', PRODUCT_STATUSES, 'all');
  const limit = q.integer('limit', 1, 250, 100);
  const filters = filterHash({ updated_after: updatedAfter, status, limit });
  const position = readCursor(ctx, 'products', filters);
  const accepts = (p: ProductRecord): boolean => status === 'all' || p.status === status;

  const found: ProductRecord[] = [];
  const list = updatedAfter !== null ? ctx.data.productsByUpdated : ctx.data.productsById;
  let i = 0;
  if (updatedAfter !== null) {
    i = indexAfterUpdated(list, updatedAfter, null);
    if (position?.by === 'updated') i = Math.max(i, indexAfterUpdated(list, position.updatedMs, position.id));
  } else if (position?.by === 'id') {
    i = indexAfterId(list, position.id);
  }
  for (; i < list.length && found.length <= limit; i++) if (accepts(list[i]!)) found.push(list[i]!);

  const hasMore = found.length > limit;
  const rows = hasMore ? found.slice(0, limit) : found;
  const last = rows[rows.length - 1];
  const next: CursorPosition | null =
    !hasMore || !last
      ? null
      : updatedAfter !== null
        ? { by: 'updated', updatedMs: last.updatedMs, id: last.id }
        : { by: 'id', id: last.id };
  const page: PageInfo = {
    has_more: hasMore,
    next_cursor: next ? ctx.cursors.encode('products', ctx.data.store.id, filters, next) : null,
    limit,
  };
  return { body: { success: true, data: rows.map(productJson), page } };
}

/** GET /api/v1/products/{id} (spec 4.7): by id or external:<id>. */
export function getProduct(ctx: ApiContext): ApiResult {
  new QueryReader(ctx.params, []);
  const ref = ctx.recordId ?? '';
  const product = ctx.data.findProduct(ref);
  if (!product) throw notFound(`product ${ref}`);
  return { body: { success: true, data: productJson(product) } };
}
