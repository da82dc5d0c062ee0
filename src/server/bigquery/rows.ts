/**
 * An order and its line items as rows of the BigQuery tables, one JSON object a line for a load
 * job (NEWLINE_DELIMITED_JSON). Every value matches its column's type or the order is not
 * written (a typed column cannot keep a wrong value as text the way a cell does): money as a
 * decimal string, exact where a JSON number would pass through a double ("Loading JSON data":
 * NUMERIC from a JSON string), instants as UTC RFC 3339, days as YYYY-MM-DD.
 */
import type { LineItem, Order } from '../api/types';
import { placedDateOf } from '../platform/calendar';
import { costStatusOf, lineCostStatuses } from '../sheets/cost-status';
import { valueAt } from '../sheets/rows';
import type { ColumnKind } from '../sheets/schema';
import { lastOccurrences, orderStatus } from '../sync/order-page';
import { LINE_ITEMS_TABLE, ORDERS_TABLE, PLACED_DAY, type WarehouseTable } from './table-schemas';

export type WarehouseRow = Record<string, string | number | boolean | null>;

export interface OrderRows {
  order: WarehouseRow;
  lineItems: WarehouseRow[];
  placedDay: string;
}

/** NUMERIC keeps 9 decimal digits ("Data types", NUMERIC: precision 38, scale 9). */
const NUMERIC_SCALE = 9;

/** TIMESTAMP's range, 0001-01-01 00:00:00 to 9999-12-31 23:59:59.999999 UTC ("Data types", Timestamp type). */
const TIMESTAMP_MIN_MS = -62135596800000;
const TIMESTAMP_MAX_MS = 253402300799999;

export function decimalText(value: number): string {
  const text = String(value);
  if (!/e/i.test(text) && (text.split('.')[1] ?? '').length <= NUMERIC_SCALE) return text;
  // toFixed gives exponent notation from 1e21 on, which NUMERIC refuses; such a double is a whole number.
  if (Math.abs(value) >= 1e21) return BigInt(value).toString();
  return value.toFixed(NUMERIC_SCALE).replace(/\.?0+$/, '');
}

/** A value as its column's type; throws naming the column when it is not one. */
function typed(value: unknown, kind: ColumnKind, name: string): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  const wrong = (): never => {
    throw new Error(`${name} is not ${kind === 'amount' ? 'an amount' : `a ${kind}`}`);
  };
  switch (kind) {
    case 'text':
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      return JSON.stringify(value);
    case 'amount':
      if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) >= 1e29) return wrong();
      return decimalText(value);
    case 'int':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) return wrong();
      return value;
    case 'number':
    case 'pct':
      if (typeof value !== 'number' || !Number.isFinite(value)) return wrong();
      return value;
    case 'bool':
      if (typeof value !== 'boolean') return wrong();
      return value;
    case 'timestamp': {
      const ms = typeof value === 'string' ? Date.parse(value) : NaN;
      if (Number.isNaN(ms) || ms < TIMESTAMP_MIN_MS || ms > TIMESTAMP_MAX_MS) return wrong();
      return new Date(ms).toISOString();
    }
    case 'date':
      if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return wrong();
      return value;
  }
}

function rowOf(table: WarehouseTable, record: unknown, derived: Readonly<Record<string, unknown>>): WarehouseRow {
  const row: WarehouseRow = {};
  for (const { spec, field } of table.columns) {
    const raw = Object.prototype.hasOwnProperty.call(derived, field.name)
      ? derived[field.name]
      : spec.path
        ? valueAt(record, spec.path)
        : null;
    row[field.name] = typed(raw, spec.kind, field.name);
  }
  return row;
}

/** The rows of one order (already checked by recordProblem); throws when a value does not fit its column. */
export function orderRows(order: Order, storeTimeZone: string, syncedAt: number): OrderRows {
  const placedDay = placedDateOf(order.created_at, storeTimeZone);
  if (placedDay === null) throw new Error('created_at is not a time');
  const status = orderStatus(order);
  const synced = new Date(syncedAt).toISOString();
  const orderRow = rowOf(ORDERS_TABLE, order, {
    status,
    [PLACED_DAY]: placedDay,
    gone_at: null,
    synced_at: synced,
    cost_status: costStatusOf(order.economics?.cogs_source, order.economics?.cogs_coverage_pct),
  });
  const items: readonly LineItem[] = Array.isArray(order.line_items) ? lastOccurrences(order.line_items) : [];
  if (items.some((item) => item === null || typeof item !== 'object' || typeof item.id !== 'string' || item.id === ''))
    throw new Error('a line item without an id');
  const costs = lineCostStatuses(order.economics?.cogs_source, order.economics?.cogs_coverage_pct, items);
  const lineItems = items.map((item, i) => ({
    ...rowOf(LINE_ITEMS_TABLE, item, {
      order_id: order.id,
      sync_status: status,
      synced_at: synced,
      cost_status: costs[i] ?? null,
    }),
    [PLACED_DAY]: placedDay,
  }));
  return { order: orderRow, lineItems, placedDay };
}
