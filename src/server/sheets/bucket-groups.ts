/**
 * The buckets of a row index written whole: every order's Orders row and Line items rows, grouped
 * by bucket, from the key indexes read whole.
 */
import type { KeyIndex } from './key-index';
import { BUCKETS, bucketOf, type OrderRows } from './row-index-buckets';

/** Every order's rows by bucket, from key indexes read whole. */
export function groups(orders: KeyIndex, lines: KeyIndex): Map<number, Map<string, OrderRows>> {
  const out = new Map<number, Map<string, OrderRows>>();
  const rowsOf = (id: string): OrderRows => {
    const bucket = bucketOf(id, BUCKETS);
    let held = out.get(bucket);
    if (!held) out.set(bucket, (held = new Map()));
    let rows = held.get(id);
    if (!rows) held.set(id, (rows = { order: 0, lines: [] }));
    return rows;
  };
  for (const [id, entry] of orders.entries()) rowsOf(id).order = entry.row;
  for (const [parent, rows] of lines.rowsByParent()) rowsOf(parent).lines.push(...rows.sort((a, b) => a - b));
  return out;
}
