/**
 * The Orders sheet summed by placed day, kept up to date row by row (pure): what the tie-out sums
 * (sumOrdersByDay) and what the incomplete-cost count counts (costGapsOf),
 * per day, so that a row written later is taken out of its old day and added to its new one
 * without reading the sheet again. Each row's share is computed by those two functions on the row
 * alone, so the sums are by construction the ones a read of the whole sheet gives. Whole cents
 * and counts only: adding and taking out are exact.
 */
import { TIEOUT_COMPARED, ORDERS, columnIndex } from '../sheets/schema';
import { CostGapTally, costGapsOf, gapRowsOfTable, type CostGaps } from './cost-gaps';
import type { CostGapMonth } from './cost-gap-days';
import { dayKey } from './daily-figures';
import { LISTED_A_DAY, sumOrdersByDay, type OrderDay } from './order-days';
import type { TieoutFigure } from './tieout-figures';

const FIGURES = TIEOUT_COMPARED.map((f) => f.figure);
const PLACED = columnIndex(ORDERS, 'placed_date');

export interface DaySums {
  /** Rows placed that day, whatever their status (the tie-out starts at the first). */
  rows: number;
  /** Active orders in the store's currency (OrderDay.count). */
  count: number;
  /** Active orders in another currency (OrderDay.otherCurrency). */
  other: number;
  /** Per figure (TIEOUT_COMPARED order): cents summed, and rows whose amount could not be read. */
  cents: number[];
  unknown: number[];
  /** "id (columns)" of orders whose margin percentages disagree with their figures, LISTED_A_DAY at most. */
  inconsistent: string[];
  /** Such orders past LISTED_A_DAY: counted only, so that a store full of them cannot fill the property store. */
  unlisted?: number;
  /**
   * Active orders the cost-gap count counted, and those with incomplete costs per currency ('' =
   * unknown): [orders, cents, orders whose net revenue could not be read (their sum is then unknown)].
   */
  counted: number;
  gaps: Record<string, [number, number, number?]>;
}

/** The Orders columns a row's share needs (catalog headers). */
export const ORDER_SUM_COLUMNS: readonly string[] = [
  ...new Set([
    'id',
    'status',
    'placed_date',
    'currency',
    'cogs_source',
    'cogs_coverage_pct',
    'net_revenue',
    'contribution_margin_pct',
    'net_margin_pct',
    'contribution_profit',
    'net_profit',
    ...TIEOUT_COMPARED.map((f) => f.orders),
  ]),
];
const SUM_POSITIONS = new Set(ORDER_SUM_COLUMNS.map((h) => columnIndex(ORDERS, h)));
/** Every catalog column from the first to the last the sums read: one range per row when rows are read back. */
export const ORDER_SUM_SPAN: readonly string[] = ORDERS.columns
  .slice(Math.min(...SUM_POSITIONS), Math.max(...SUM_POSITIONS) + 1)
  .map((c) => c.header);

/** True when a write of `cells` from 1-based catalog column `column` touches a column the sums read. */
export function touchesSums(column: number, length: number): boolean {
  for (let i = column - 1; i < column - 1 + length; i++) if (SUM_POSITIONS.has(i)) return true;
  return false;
}

/** A day with no order summed yet. */
export function emptyDay(): DaySums {
  return {
    rows: 0,
    count: 0,
    other: 0,
    cents: FIGURES.map(() => 0),
    unknown: FIGURES.map(() => 0),
    inconsistent: [],
    counted: 0,
    gaps: {},
  };
}

export class OrderDaySums {
  constructor(
    readonly days: Map<string, DaySums> = new Map(),
    private readonly storeCurrency: string | null = null,
  ) {}

  /** The sums of rows read whole (catalog positions), as a read of the sheet gives them. */
  static ofRows(rows: ReadonlyArray<ReadonlyArray<unknown>>, storeCurrency: string | null): OrderDaySums {
    const sums = new OrderDaySums(new Map(), storeCurrency);
    for (const row of rows) sums.add(row, 1);
    return sums;
  }

  /** Adds (sign 1) or takes out (sign −1) one row's share. A row with no placed day has none. */
  add(row: ReadonlyArray<unknown> | undefined, sign: 1 | -1): void {
    if (!row) return;
    const day = dayKey(row[PLACED]);
    if (day === null) return;
    let acc = this.days.get(day);
    if (!acc) this.days.set(day, (acc = emptyDay()));
    acc.rows += sign;
    const share: OrderDay | undefined = sumOrdersByDay([row], dayKey, this.storeCurrency).get(day);
    if (share) {
      acc.count += sign * share.count;
      acc.other += sign * share.otherCurrency;
      if (share.count > 0) {
        FIGURES.forEach((f, i) => {
          const c = share.cents[f];
          if (c === null) acc!.unknown[i] += sign;
          else acc!.cents[i] += sign * c;
        });
      }
      for (const words of share.inconsistent) {
        if (sign > 0) {
          if (acc.inconsistent.length < LISTED_A_DAY) acc.inconsistent.push(words);
          else acc.unlisted = (acc.unlisted ?? 0) + 1;
        } else {
          // A listed row taken out leaves the list. An unlisted one is not lowered from the count: the
          // row read back may have been edited by hand since it was counted (then another order's
          // count would go), and a count too high only sends the day's tie-out to a whole read, which
          // rebuilds the sums exactly; a count too low would show a false ✓.
          const at = acc.inconsistent.indexOf(words);
          if (at >= 0) acc.inconsistent.splice(at, 1);
        }
      }
    }
    const gaps = costGapsOf(gapRowsOfTable([row as unknown[]]), this.storeCurrency);
    acc.counted += sign * gaps.ordersCounted;
    if (gaps.orders > 0) {
      const other = gaps.otherCurrencies[0];
      const key = other ? other.currency : (this.storeCurrency ?? '');
      const revenue = other ? other.netRevenue : gaps.netRevenue;
      const held = acc.gaps[key] ?? [0, 0, 0];
      acc.gaps[key] = [
        held[0] + sign,
        held[1] + (revenue === null ? 0 : sign * Math.round(revenue * 100)),
        (held[2] ?? 0) + (revenue === null ? sign : 0),
      ];
      if (acc.gaps[key][0] === 0) delete acc.gaps[key];
    }
    if (acc.rows === 0) this.days.delete(day);
  }

  /** Rows with a placed day. */
  rowCount(): number {
    let rows = 0;
    for (const s of this.days.values()) rows += s.rows;
    return rows;
  }

  /** The first placed day of any row (the tie-out's first day of orders). */
  firstDay(): string | null {
    let first: string | null = null;
    for (const day of this.days.keys()) if (first === null || day < first) first = day;
    return first;
  }

  /** As sumOrdersByDay returns it for the whole sheet. */
  orderDays(): Map<string, OrderDay> {
    const out = new Map<string, OrderDay>();
    for (const [day, s] of this.days) {
      if (s.count === 0 && s.other === 0) continue;
      const cents = Object.fromEntries(FIGURES.map((f, i) => [f, s.unknown[i] > 0 ? null : s.cents[i]])) as Record<
        TieoutFigure,
        number | null
      >;
      out.set(day, {
        day,
        count: s.count,
        cents,
        otherCurrency: s.other,
        inconsistent: s.inconsistent.slice(),
        ...(s.unlisted ? { unlisted: s.unlisted } : {}),
      });
    }
    return out;
  }

  /** What the formulas read (costGapMonthsOf of the whole sheet): per month, per day, per currency. */
  costGapMonths(): Map<string, CostGapMonth> {
    const months = new Map<string, CostGapMonth>();
    for (const [day, s] of [...this.days].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (s.counted === 0) continue;
      const month = months.get(day.slice(0, 7)) ?? {};
      months.set(day.slice(0, 7), month);
      // A row without a currency is under the store's code here, under '' there: the same count (CostGapTally.gaps).
      const gaps = Object.entries(s.gaps).map(([code, [n, cents, unknown]]): [string, number, number | null] => [
        code,
        n,
        unknown ? null : cents,
      ]);
      month[day.slice(8)] = [s.counted, ...gaps];
    }
    return months;
  }

  /** As costGapsOf returns it for the whole sheet. */
  costGaps(): CostGaps {
    const tally = new CostGapTally();
    for (const s of this.days.values()) {
      tally.counted += s.counted;
      for (const [code, [n, cents, unknown]] of Object.entries(s.gaps)) tally.add(code, n, unknown ? null : cents);
    }
    return tally.gaps(this.storeCurrency);
  }
}
