/**
 * How many orders, and how much of their net revenue, carry incomplete costs: the orders the
 * Orders sheet marks incomplete or unknown in cost_status, where cogs is too low and profit is
 * overstated. Counted from the sheet's own API columns (cogs_source, cogs_coverage_pct), so rows
 * written before cost_status existed count too; only active orders, as the P&L counts them
 * (cancelled and gone ones are left out). Amounts keep their currency: net revenue is summed per
 * currency (spec 2.3: an order's amounts are in the order's currency), the store's apart, never one
 * currency added to another. Pure.
 */
import type { CurrencyGap } from '../../contract/cost-gaps-text';
import { costStatusOfCells } from '../sheets/cost-status';
import { serialToDate } from '../platform/calendar';
import { columnIndex, ORDERS } from '../sheets/schema';

export interface CostGaps {
  /** Active orders whose cost is incomplete or unknown, in every currency. */
  orders: number;
  /** The net_revenue of those in the store's currency, summed in cents (the API's figures, unchanged); null when one of them is not a number (unknown, never summed as 0). */
  netRevenue: number | null;
  /** Active orders counted in all. */
  ordersCounted: number;
  /** Those in other currencies, per currency (code order); their amounts are not in netRevenue. */
  otherCurrencies: CurrencyGap[];
}

/** The fields of one Orders row the count needs; placedDay as YYYY-MM-DD (store calendar day). */
/**
 * Why a period's orders with incomplete costs are not counted (the formulas say so, never 0):
 * no sync has counted them yet; the period reaches before the orders window (Orders holds none of
 * those orders, the API's totals hold all); or the count of a month was not kept by the sync.
 */
export type CostGapsNotCounted =
  | { notCounted: 'not-synced' }
  | { notCounted: 'orders-window'; since: string }
  | { notCounted: 'month-too-big'; month: string }
  | { notCounted: 'older-months'; before: string };

/** What a formula reads for a period: the count, or why there is none. */
export type CostGapsRead = CostGaps | CostGapsNotCounted;

export const isNotCounted = (read: CostGapsRead): read is CostGapsNotCounted => 'notCounted' in read;

export interface CostGapRow {
  status: unknown;
  placedDay: string | null;
  netRevenue: unknown;
  /** The order's currency; empty (older rows) reads as the store's. */
  currency: unknown;
  source: unknown;
  coverage: unknown;
}

const STATUS = columnIndex(ORDERS, 'status');
const PLACED = columnIndex(ORDERS, 'placed_date');
const NET_REVENUE = columnIndex(ORDERS, 'net_revenue');
const CURRENCY = columnIndex(ORDERS, 'currency');
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
      currency: row ? row[CURRENCY] : null,
      source: row ? row[SOURCE] : null,
      coverage: row ? row[COVERAGE] : null,
    };
  });
}

/**
 * Over the rows, limited by placed day (inclusive YYYY-MM-DD bounds; null = open). `storeCurrency`
 * is the currency netRevenue is in (null: unknown, then only rows without a currency are summed there).
 */
export function costGapsOf(
  rows: Iterable<CostGapRow>,
  storeCurrency: string | null,
  fromDay: string | null = null,
  toDay: string | null = null,
): CostGaps {
  const tally = new CostGapTally();
  for (const row of rows) {
    if (row.status !== 'active') continue;
    if (fromDay !== null && (row.placedDay === null || row.placedDay < fromDay)) continue;
    if (toDay !== null && (row.placedDay === null || row.placedDay > toDay)) continue;
    tally.counted++;
    const status = costStatusOfCells(row.source, row.coverage);
    if (status !== 'incomplete' && status !== 'unknown') continue;
    tally.add(currencyCodeOf(row.currency), 1, centsOf(row.netRevenue));
  }
  return tally.gaps(storeCurrency);
}

/** A net_revenue cell in whole cents; null when it holds no number (e.g. cleared by hand): unknown, not 0. */
export function centsOf(cell: unknown): number | null {
  return typeof cell === 'number' && Number.isFinite(cell) ? Math.round(cell * 100) : null;
}

/** The order's currency as counted: trimmed upper-case code, '' when the row has none (older rows: the store's). */
export function currencyCodeOf(cell: unknown): string {
  return typeof cell === 'string' ? cell.trim().toUpperCase() : '';
}

/** Whole cents summed; one unknown amount makes the sum unknown. */
const plusCents = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : a + b);

/** Orders with incomplete costs summed per currency code ('' = the store's), in whole cents (null: unknown). */
export class CostGapTally {
  counted = 0;
  private readonly byCode = new Map<string, { orders: number; cents: number | null }>();

  add(code: string, orders: number, cents: number | null): void {
    const acc = this.byCode.get(code) ?? { orders: 0, cents: 0 };
    acc.orders += orders;
    acc.cents = plusCents(acc.cents, cents);
    this.byCode.set(code, acc);
  }

  /** `storeCurrency` is the currency netRevenue is in (null: unknown, then only rows without a currency are summed there). */
  gaps(storeCurrency: string | null): CostGaps {
    let orders = 0;
    const cents = new Map<string | null, { orders: number; cents: number | null }>();
    for (const [code, acc] of this.byCode) {
      orders += acc.orders;
      const currency = code === '' ? storeCurrency : code;
      const sum = cents.get(currency) ?? { orders: 0, cents: 0 };
      sum.orders += acc.orders;
      sum.cents = plusCents(sum.cents, acc.cents);
      cents.set(currency, sum);
    }
    const amount = (c: number | null): number | null => (c === null ? null : c / 100);
    const own = cents.get(storeCurrency);
    const otherCurrencies = [...cents]
      .filter(
        (entry): entry is [string, { orders: number; cents: number | null }] =>
          entry[0] !== storeCurrency && entry[0] !== null,
      )
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([currency, acc]) => ({ currency, orders: acc.orders, netRevenue: amount(acc.cents) }));
    return { orders, netRevenue: own ? amount(own.cents) : 0, ordersCounted: this.counted, otherCurrencies };
  }
}

/** 0-based Orders columns the count reads. */
export const COST_GAP_COLUMNS = {
  status: STATUS,
  placed: PLACED,
  netRevenue: NET_REVENUE,
  currency: CURRENCY,
  source: SOURCE,
  coverage: COVERAGE,
} as const;
