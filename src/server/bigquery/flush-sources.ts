/**
 * Where a flush's MERGEs read its rows from (order-writer.ts): the stage tables after a load job,
 * or, for a small flush, query parameters (row-parameters.ts).
 */
import { idsParameter, rowsParameter } from './row-parameters';
import type { OrderRows } from './rows';
import { LINE_ITEMS_TABLE, ORDERS_TABLE } from './table-schemas';

export type Parameter = GoogleAppsScript.BigQuery.Schema.QueryParameter;

/** Where a flush's MERGEs read its rows from: the stage tables after a load, or query parameters. */
export interface FlushSources {
  orders: string;
  lines: string;
  /** A SELECT of the flushed orders' ids. */
  orderIds: string;
  orderParameters: Parameter[];
  lineParameters: Parameter[];
}

/**
 * A small flush's rows as query parameters (row-parameters.ts): no load job and no wait for one
 * before the MERGEs, which read them with UNNEST.
 */
export function inlineSources(orders: readonly OrderRows[]): FlushSources {
  const orderIds = idsParameter(
    'order_ids',
    orders.map((o) => String(o.order.id)),
  );
  return {
    orders: '(SELECT * FROM UNNEST(@orders))',
    lines: '(SELECT * FROM UNNEST(@line_items))',
    orderIds: 'SELECT id FROM UNNEST(@order_ids)',
    orderParameters: [
      rowsParameter(
        'orders',
        ORDERS_TABLE,
        orders.map((o) => o.order),
      ),
    ],
    lineParameters: orders.some((o) => o.lineItems.length > 0)
      ? [
          rowsParameter(
            'line_items',
            LINE_ITEMS_TABLE,
            orders.flatMap((o) => o.lineItems),
          ),
          orderIds,
        ]
      : [orderIds],
  };
}
