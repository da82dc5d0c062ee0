/**
 * How many orders, and how much of their net revenue, carry incomplete costs: the orders the
 * Orders sheet marks incomplete or unknown in cost_status, where cogs is too low and profit is
 * overstated. Counted from the sheet's own API columns (cogs_source, cogs_coverage_pct), so rows
 * written before cost_status existed count too; only active orders, as the P&L counts them
 * (cancelled and gone ones are left out). Pure.
 */
import { costStatusOf } from '../sheets/cost-status';
import { serialToDate } from '../sheets/cells';
import { columnIndex, ORDERS } from '../sheets/schema';

export interface CostGaps {
  /** Active orders whose cost is incomplete or unknown. */
  orders: number;
  /** Their net_revenue, summed in cents (the API's figures, unchanged). */
  netRevenue: number;
  /** Active orders counted in all. */
  ordersCounted: number;
}

/** The fields of one Orders row the count needs; placedDay as YYYY-MM-DD (store calendar day). */
export interface CostGapRow {
  status: unknown;
  placedDay: string | null;
  netRevenue: unknown;
  source: unknown;
  coverage: unknown;
}

const STATUS = columnIndex(ORDERS, 'status');
const PLACED = columnIndex(ORDERS, 'placed_date');
const NET_REVENUE = columnIndex(ORDERS, 'net_revenue');
const SOURCE = columnIndex(ORDERS, 'cogs_source');
const COVERAGE = columnIndex(ORDERS, 'cogs_coverage_pct');

/** Orders rows as read unformatted (dates as serial numbers), e.g. ManagedWorkbook.readTable. */
export function gapRowsOfTable(rows: readonly unknown[][]): CostGapRow[] {
  return rows.map((row) => {
    const placed = row ? row[PLACED] : null;
    return {
      status: row ? row[STATUS] : null,
      placedDay: typeof placed === 'number' ? serialToDate(placed) : null,
      netRevenue: row ? row[NET_REVENUE] : null,
      source: row ? row[SOURCE] : null,
      coverage: row ? row[COVERAGE] : null,
    };
  });
}

/** Over the rows, limited by placed day (inclusive YYYY-MM-DD bounds; null = open). */
export function costGapsOf(rows: Iterable<CostGapRow>, fromDay: string | null = null, toDay: string | null = null): CostGaps {
  let orders = 0;
  let cents = 0;
  let counted = 0;
  for (const row of rows) {
    if (row.status !== 'active') continue;
    if (fromDay !== null && (row.placedDay === null || row.placedDay < fromDay)) continue;
    if (toDay !== null && (row.placedDay === null || row.placedDay > toDay)) continue;
    counted++;
    const status = costStatusOf(row.source, row.coverage);
    if (status !== 'incomplete' && status !== 'unknown') continue;
    orders++;
    if (typeof row.netRevenue === 'number' && Number.isFinite(row.netRevenue)) cents += Math.round(row.netRevenue * 100);
  }
  return { orders, netRevenue: cents / 100, ordersCounted: counted };
}

/** 0-based Orders columns the count reads: status and placed_date are adjacent, net_revenue … cogs_coverage_pct too. */
export const COST_GAP_COLUMNS = { status: STATUS, placed: PLACED, netRevenue: NET_REVENUE, source: SOURCE, coverage: COVERAGE } as const;
