/** The Orders sheet's rows summed by placement day for the tie-out, in whole cents per figure. */
import { ORDERS, TIEOUT_COMPARED, columnIndex } from '../sheets/schema';
import { inconsistentRatios } from './order-ratios';
import { emptyCents, toCents, type TieoutFigure } from './tieout-figures';

/**
 * Orders with disagreeing margin percentages listed a day ("id (columns)", some 60 bytes each); the
 * rest are counted. Every listed one is kept in the document store (500 KB in all): 10,005 such
 * orders in a half month listed whole took 570 KB, three a day over a year and more take 80 KB at most.
 */
export const LISTED_A_DAY = 3;

export interface OrderDay {
  day: string;
  count: number;
  /** Cents per figure; null when an order's amount could not be read. */
  cents: Record<TieoutFigure, number | null>;
  /** Orders in another currency than the store's (not summed). */
  otherCurrency: number;
  /** Orders whose margin percentages disagree with their own figures (inconsistentRatios): "id (column)". */
  inconsistent: string[];
  /** More such orders, counted but not listed (the kept day sums list a few a day: order-day-sums). */
  unlisted?: number;
}

const COL = {
  id: columnIndex(ORDERS, 'id'),
  status: columnIndex(ORDERS, 'status'),
  placed: columnIndex(ORDERS, 'placed_date'),
  currency: columnIndex(ORDERS, 'currency'),
};
const ORDER_COLUMNS = TIEOUT_COMPARED.map((f) => [f.figure, columnIndex(ORDERS, f.orders)] as const);

/** Orders summed by placement day: active orders only (cancelled and gone are not revenue). */
export function sumOrdersByDay(
  rows: ReadonlyArray<ReadonlyArray<unknown>>,
  dayOf: (cell: unknown) => string | null,
  storeCurrency: string | null,
): Map<string, OrderDay> {
  const byDay = new Map<string, OrderDay>();
  for (const row of rows) {
    if (row[COL.status] !== 'active') continue;
    const day = dayOf(row[COL.placed]);
    if (day === null) continue;
    let acc = byDay.get(day);
    if (!acc) byDay.set(day, (acc = { day, count: 0, cents: emptyCents(), otherCurrency: 0, inconsistent: [] }));
    const currency = row[COL.currency];
    if (storeCurrency !== null && typeof currency === 'string' && currency !== '' && currency !== storeCurrency) {
      acc.otherCurrency++;
      continue;
    }
    acc.count++;
    const ratios = inconsistentRatios(row);
    if (ratios.length > 0) acc.inconsistent.push(`${String(row[COL.id])} (${ratios.join(', ')})`);
    for (const [figure, i] of ORDER_COLUMNS) {
      const v = row[i];
      const sum = acc.cents[figure];
      acc.cents[figure] = typeof v === 'number' && Number.isFinite(v) && sum !== null ? sum + toCents(v) : null;
    }
  }
  return byDay;
}
