/**
 * The BigQuery tables the add-on creates, from the same column catalog the Orders and Line items
 * sheets are built from (sheets/schema.ts): one column per sheet column, by its header, typed by
 * its kind. Money is NUMERIC (exact decimal; "Data types", Decimal types) and instants TIMESTAMP.
 * Both tables carry placed_day, the order's day in the store's time zone (the Daily P&L's day),
 * as the DATE they are partitioned on ("Introduction to partitioned tables", time-unit column
 * partitioning): REQUIRED, so no order hides in a __NULL__ partition from every day's query.
 */
import { LINE_ITEMS, ORDERS, type ColumnKind, type ColumnSpec } from '../sheets/schema';

export interface FieldSchema {
  name: string;
  type: 'STRING' | 'INT64' | 'NUMERIC' | 'FLOAT64' | 'BOOL' | 'TIMESTAMP' | 'DATE';
  mode: 'REQUIRED' | 'NULLABLE';
  description?: string;
}

export interface WarehouseTable {
  /** The table's name in the dataset. */
  tableId: string;
  /** Where its row's value comes from: the sheet column's header (placed_day: the order's store day). */
  fields: FieldSchema[];
  /** The columns a MERGE matches rows on. */
  key: string[];
  clustering: string[];
  /** The sheet columns, in catalog order, each with its field. */
  columns: ReadonlyArray<{ spec: ColumnSpec; field: FieldSchema }>;
}

export const PLACED_DAY = 'placed_day';

const TYPE_OF_KIND: Record<ColumnKind, FieldSchema['type']> = {
  text: 'STRING',
  int: 'INT64',
  number: 'FLOAT64',
  amount: 'NUMERIC',
  // The API's percentage points (0–100), as the API gives them: a ratio, not money.
  pct: 'FLOAT64',
  bool: 'BOOL',
  timestamp: 'TIMESTAMP',
  date: 'DATE',
};

/** The Orders sheet's placed_date is the table's partition column, placed_day. */
const RENAMED: Readonly<Record<string, string>> = { placed_date: PLACED_DAY };

function columnsOf(
  catalog: readonly ColumnSpec[],
  required: readonly string[],
): Array<{ spec: ColumnSpec; field: FieldSchema }> {
  return catalog.map((spec) => {
    const name = RENAMED[spec.header] ?? spec.header;
    const field: FieldSchema = {
      name,
      type: TYPE_OF_KIND[spec.kind],
      mode: required.indexOf(name) >= 0 ? 'REQUIRED' : 'NULLABLE',
    };
    if (spec.note) field.description = spec.note.slice(0, 1024);
    return { spec, field };
  });
}

const orderColumns = columnsOf(ORDERS.columns, ['id', PLACED_DAY]);
// Line items' order_number is a sheet reader's convenience: a warehouse joins orders on order_id.
const lineColumns = columnsOf(
  LINE_ITEMS.columns.filter((c) => c.header !== 'order_number'),
  ['id', 'order_id'],
);
const lineDay: FieldSchema = {
  name: PLACED_DAY,
  type: 'DATE',
  mode: 'REQUIRED',
  description: "Its order's placement date in the store's time zone (the Daily P&L's day).",
};

/** Clustered by id first (the MERGE's join, order lookups), then status (incomplete-cost and refund counts). */
export const ORDERS_TABLE: WarehouseTable = {
  tableId: 'orders',
  fields: orderColumns.map((c) => c.field),
  key: ['id'],
  clustering: ['id', 'status'],
  columns: orderColumns,
};

/** Clustered by order_id, id: an order's line items together (the MERGE and the removed line items). */
export const LINE_ITEMS_TABLE: WarehouseTable = {
  tableId: 'line_items',
  fields: [...lineColumns.map((c) => c.field), lineDay],
  key: ['order_id', 'id'],
  clustering: ['order_id', 'id'],
  columns: lineColumns,
};

export const WAREHOUSE_TABLES: readonly WarehouseTable[] = [ORDERS_TABLE, LINE_ITEMS_TABLE];

/** The schema resource of tables.insert and a load's configuration. */
export function schemaResource(table: WarehouseTable): { fields: FieldSchema[] } {
  return { fields: table.fields.map((f) => ({ ...f })) };
}
