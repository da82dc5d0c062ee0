/**
 * The at-close figures of some orders of indexed closes (close-index.ts), in two reads whatever
 * the months: the blocks of the id column the orders fall into, then the rows of those found.
 */
import { a1Range } from '../sheets/a1';
import { CLOSE_ORDER_COLUMNS, readCloseOrders, type OrderFigures } from './close-orders';
import { blockOf, blockRows, type CloseIndex } from './close-index';
import { CLOSE_ORDERS_HEADER_ROW } from './close-sheet';

export interface CloseLookup {
  month: string;
  title: string;
  index: CloseIndex;
  ids: readonly string[];
}

const FIRST_ROW = CLOSE_ORDERS_HEADER_ROW + 1;

/** Per month, the named orders the close holds (an order it does not hold is absent). */
export function lookUpCloseOrders(
  readRanges: (ranges: readonly string[]) => unknown[][][],
  lookups: readonly CloseLookup[],
): Map<string, Map<string, OrderFigures>> {
  const blocks: Array<{ lookup: CloseLookup; rows: [number, number] }> = [];
  for (const lookup of lookups) {
    const seen = new Set<number>();
    for (const id of lookup.ids) {
      const b = blockOf(lookup.index, id);
      if (b < 0 || seen.has(b)) continue;
      seen.add(b);
      blocks.push({ lookup, rows: blockRows(lookup.index, b, FIRST_ROW) });
    }
  }
  const idReads = readRanges(blocks.map((b) => a1Range(b.lookup.title, b.rows[0], 1, b.rows[1], 1)));
  const found: Array<{ lookup: CloseLookup; row: number }> = [];
  blocks.forEach((b, i) => {
    const wanted = new Set(b.lookup.ids);
    (idReads[i] ?? []).forEach((cells, r) => {
      if (typeof cells[0] === 'string' && wanted.has(cells[0])) found.push({ lookup: b.lookup, row: b.rows[0] + r });
    });
  });
  const rowReads = readRanges(found.map((f) => a1Range(f.lookup.title, f.row, 1, f.row, CLOSE_ORDER_COLUMNS.length)));
  const out = new Map<string, Map<string, OrderFigures>>(lookups.map((l) => [l.month, new Map()]));
  found.forEach((f, i) => {
    for (const order of readCloseOrders([[...CLOSE_ORDER_COLUMNS], ...(rowReads[i] ?? [])]))
      out.get(f.lookup.month)!.set(order.id, order);
  });
  return out;
}
