/**
 * The tie-out query's part that finds a key held more than once: an order id in `orders` (any
 * status, currency or day, days after today included) or an (order_id, id) in `line_items`, only
 * among this store's rows. A MERGE updates every row matching its key and never removes one ("DML
 * syntax", MERGE statement), so a copied row (an INSERT … SELECT by hand) stays until it is found.
 * No day filter: these SELECTs read every partition, but only the key columns (orders: id,
 * store_id, placed_day; line_items: order_id, id, placed_day, and orders' id and store_id for the
 * store), a few bytes a row ("Estimate and control costs": columns not selected are not read).
 * One row per copy, with its day and how many times its key is held ("Query syntax", QUALIFY).
 */
import { tablePath, type TableNames } from './merge-sql';
import type { ResultRow } from './query';
import { STORE_PARAMETER } from './store-scope';
import { LINE_ITEMS_TABLE, ORDERS_TABLE, PLACED_DAY } from './table-schemas';

/** The result columns of a held key: the order id, the line item's id (line items only), the times held. */
export const HELD_ORDER = 'held_order';
export const HELD_LINE = 'held_line';
export const HELD_TIMES = 'held_times';

/** The held columns of the day sums' SELECT (none held there), typed so the UNION's columns are. */
export const NO_HELD_KEY = [
  `CAST(NULL AS STRING) AS ${HELD_ORDER}`,
  `CAST(NULL AS STRING) AS ${HELD_LINE}`,
  `CAST(NULL AS INT64) AS ${HELD_TIMES}`,
];

/**
 * The two SELECTs (orders, line items) to add with UNION ALL to a SELECT whose first column is
 * `day` and whose other columns are `nulled` (given NULL here), then the held columns.
 */
export function heldTwiceSelects(names: TableNames, nulled: readonly string[]): string[] {
  const store = `@${STORE_PARAMETER}`;
  const orders = tablePath(names, ORDERS_TABLE.tableId);
  const blanks = nulled.map((c) => `NULL AS ${c}`).join(', ');
  const select = (order: string, line: string, key: string): string =>
    `SELECT ${PLACED_DAY} AS day, ${blanks}, ${order} AS ${HELD_ORDER}, ${line} AS ${HELD_LINE}, ` +
    `COUNT(*) OVER (PARTITION BY ${key}) AS ${HELD_TIMES}`;
  return [
    [
      select('id', 'CAST(NULL AS STRING)', 'id'),
      `FROM ${orders} WHERE store_id = ${store}`,
      'QUALIFY COUNT(*) OVER (PARTITION BY id) > 1',
    ].join('\n'),
    [
      select('order_id', 'id', 'order_id, id'),
      `FROM ${tablePath(names, LINE_ITEMS_TABLE.tableId)}`,
      `WHERE order_id IN (SELECT id FROM ${orders} WHERE store_id = ${store})`,
      'QUALIFY COUNT(*) OVER (PARTITION BY order_id, id) > 1',
    ].join('\n'),
  ];
}

/** A key held more than once: the days its copies are on and the Checks words naming it. */
export interface HeldKey {
  days: string[];
  words: string;
}

/** The tie-out query's rows parted: the day sums' rows, and the keys held more than once. */
export function heldKeysOf(rows: readonly ResultRow[]): { sums: ResultRow[]; held: HeldKey[] } {
  const sums: ResultRow[] = [];
  const byKey = new Map<string, { order: string; line: string | null; times: string; days: Set<string> }>();
  for (const row of rows) {
    const order = row[HELD_ORDER];
    if (order === null || order === undefined) {
      sums.push(row);
      continue;
    }
    const line = row[HELD_LINE] ?? null;
    const key = JSON.stringify([order, line]);
    const held = byKey.get(key) ?? { order, line, times: String(row[HELD_TIMES]), days: new Set<string>() };
    held.days.add(String(row.day));
    byKey.set(key, held);
  }
  const held = [...byKey.values()].map((h) => {
    const days = [...h.days].sort();
    const what = h.line === null ? `order ${h.order}` : `line item ${h.line} of order ${h.order}`;
    return { days, words: `${what} is held ${h.times} times in BigQuery (placed_day ${days.join(', ')})` };
  });
  return { sums, held: held.sort((a, b) => (a.words < b.words ? -1 : 1)) };
}
