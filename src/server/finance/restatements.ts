/**
 * What moved in a closed month, compared in cents: the month per P&L line (closed, current,
 * difference: what a controller signs), the overhead allocation apart from the orders, every day
 * and field that differs (the detail), and the change in net profit per closed month. Pure.
 */
import { PROFIT_TOTALS_FIELDS, type ProfitTotalsField } from '../api/types';
import { signedMoney } from '../../contract/closed-month-text';
import type { OrderChange } from './close-orders';
import type { ClosedSnapshot } from './close-sheet';
import { sumByPeriod, type PnlFigures } from './period-sums';

/**
 * The P&L lines that are allocated overhead (spec 2.2: an order's allocated_overhead is its share of
 * operating expenses): the service shares them out over orders and days by net revenue, so they
 * move whenever revenue moves, without any cost having been booked or corrected.
 */
export const ALLOCATION_FIELDS: readonly ProfitTotalsField[] = ['opex', 'amortised_expenses', 'interest_expense'];

/** One P&L line of a closed month: the closed sum, the current sum and the difference. */
export interface SummaryLine {
  month: string;
  field: ProfitTotalsField;
  closed: number | null;
  current: number | null;
  /** current − closed; null when either is unknown. */
  difference: number | null;
}

/** An allocation line (or the allocated_overhead total) with what it means in words. */
export interface AllocationLine {
  month: string;
  field: ProfitTotalsField | 'allocated_overhead';
  closed: number | null;
  current: number | null;
  difference: number | null;
  explanation: string;
}

export interface Restatement {
  month: string;
  date: string;
  field: ProfitTotalsField;
  closed: number | null;
  current: number | null;
  /** current − closed; null when either is unknown. */
  difference: number | null;
}

/** A closed month as the sidebar shows it after a sync. */
export interface ClosedMonthChange {
  month: string;
  /** Sum of the net_profit differences (current − closed), in the store currency. */
  netProfitChange: number;
  changedDays: number;
  changedValues: number;
  /** The basis now differs from the one the month was closed on (figures are not comparable as they stand). */
  basisChanged: boolean;
}

const cents = (v: number | null): number | null => (v === null ? null : Math.round(v * 100));
const differenceOf = (a: number | null, b: number | null): number | null => {
  const ca = cents(a);
  const cb = cents(b);
  return ca === null || cb === null ? null : (cb - ca) / 100;
};

/**
 * Every P&L line of the closed month: the close's days summed beside the current days of the
 * month summed, the same summation as the Monthly P&L (the shared period sums).
 */
export function summaryOf(closed: ClosedSnapshot, current: ReadonlyMap<string, PnlFigures>): SummaryLine[] {
  const sum = (days: Iterable<[string, PnlFigures]>): PnlFigures | null =>
    sumByPeriod([...days].map(([date, figures]) => ({ date, figures })).sort((a, b) => (a.date < b.date ? -1 : 1)))[0]
      ?.figures ?? null;
  const before = sum(closed.days);
  const now = sum([...current].filter(([date]) => date.slice(0, 7) === closed.month));
  return PROFIT_TOTALS_FIELDS.map((field) => {
    const a = before ? before[field] : null;
    const b = now ? now[field] : null;
    return { month: closed.month, field, closed: a, current: b, difference: differenceOf(a, b) };
  });
}

/**
 * The overhead allocation of a month apart from the orders: each allocation line that moved, in
 * words, and their total beside the net profit difference it helps explain (the orders' Δ profit is
 * before overhead). Empty when no allocation line moved.
 */
export function allocationOf(
  summary: readonly SummaryLine[],
  orders: readonly OrderChange[],
  currency: string | null,
): AllocationLine[] {
  const lines = summary.filter((l) => ALLOCATION_FIELDS.includes(l.field) && l.difference !== 0);
  if (lines.length === 0) return [];
  const month = lines[0]!.month;
  const money = (v: number): string => signedMoney(v, currency);
  const out: AllocationLine[] = lines.map((l) => ({
    ...l,
    explanation:
      `Overhead allocation, not a change of any order's costs: the service shares ${l.field.replace(/_/g, ' ')} out over orders and days by net revenue, ` +
      'so it moved because revenue moved (a refund, a cancellation, a new order); nothing was booked or corrected.',
  }));
  const total = (pick: (l: SummaryLine) => number | null): number | null => {
    let n = 0;
    for (const field of ALLOCATION_FIELDS) {
      const v = pick(summary.find((l) => l.field === field)!);
      if (v === null) return null;
      n += Math.round(v * 100);
    }
    return n / 100;
  };
  const overhead = total((l) => l.difference);
  const net = summary.find((l) => l.field === 'net_profit')?.difference ?? null;
  let words =
    'Allocated overhead (opex + amortised expenses + interest): the share of operating expenses the service allocates by net revenue, apart from the orders.';
  if (overhead !== null && net !== null) {
    const fromOrders = orders.reduce((n, o) => n + Math.round(o.deltaProfit * 100), 0);
    const rest = Math.round(net * 100) - fromOrders + Math.round(overhead * 100);
    words += ` Net profit moved by ${money(net)}: ${money(fromOrders / 100)} from the ${orders.length} order${orders.length === 1 ? '' : 's'} listed (their profit before overhead) and ${money(-overhead)} from overhead allocation`;
    words +=
      rest === 0
        ? '.'
        : `, ${money(rest / 100)} from neither (tax treated as a cost, or a change the Orders sheet does not hold yet).`;
  }
  out.push({
    month,
    field: 'allocated_overhead',
    closed: total((l) => l.closed),
    current: total((l) => l.current),
    difference: overhead,
    explanation: words,
  });
  return out;
}

/** The P&L lines an order's own figures carry, with its Δ in the order section. */
const ORDER_LINES: ReadonlyArray<[ProfitTotalsField, (o: OrderChange) => number]> = [
  ['net_revenue', (o) => o.deltaNetRevenue],
  ['cogs', (o) => o.deltaCogs],
];

/** The month's net revenue and cogs lines whose difference the listed orders' Δ do not add up to (unknown differences left out). */
export function unexplainedLines(summary: readonly SummaryLine[], orders: readonly OrderChange[]): SummaryLine[] {
  return ORDER_LINES.flatMap(([field, delta]) => {
    const line = summary.find((l) => l.field === field);
    if (!line || line.difference === null) return [];
    const listed = orders.reduce((n, o) => n + Math.round(delta(o) * 100), 0);
    return Math.round(line.difference * 100) === listed ? [] : [line];
  });
}

/**
 * In words, a month whose net revenue or cogs moved by more than every order of it (as the Orders
 * sheet holds them) explains: the Orders sheet lags a correction the service made (spec 4.4 rule 6:
 * a change marker need not move), so the order cannot be named until a sync re-reads it.
 */
export function unexplainedText(
  lines: readonly SummaryLine[],
  orders: readonly OrderChange[],
  currency: string | null,
): string | null {
  if (lines.length === 0) return null;
  const parts = lines.map((l) => {
    const listed = orders.reduce((n, o) => n + Math.round(ORDER_LINES.find(([f]) => f === l.field)![1](o) * 100), 0);
    return `${l.field.replace(/_/g, ' ')} moved by ${signedMoney(l.difference!, currency)}, the orders listed by ${signedMoney(listed / 100, currency)}`;
  });
  return (
    `Unexplained by the synced orders: ${parts.join('; ')}. Every order of the month in the Orders sheet was compared with its close; ` +
    "the Orders sheet does not hold this change yet (a correction the service made without moving the order's change marker). Run Sync now / Check again."
  );
}

/** Differences of one closed month against the current day figures (keyed by date), by date then field order. */
export function restatementsOf(closed: ClosedSnapshot, current: ReadonlyMap<string, PnlFigures>): Restatement[] {
  const dates = new Set<string>(closed.days.keys());
  for (const date of current.keys()) if (date.slice(0, 7) === closed.month) dates.add(date);
  const out: Restatement[] = [];
  for (const date of [...dates].sort()) {
    const before = closed.days.get(date);
    const now = current.get(date);
    for (const field of PROFIT_TOTALS_FIELDS) {
      const a = before ? before[field] : null;
      const b = now ? now[field] : null;
      const ca = cents(a);
      const cb = cents(b);
      if (ca === cb) continue;
      out.push({
        month: closed.month,
        date,
        field,
        closed: a,
        current: b,
        difference: ca === null || cb === null ? null : (cb - ca) / 100,
      });
    }
  }
  return out;
}

export function changeOf(
  closed: ClosedSnapshot,
  restatements: readonly Restatement[],
  currentBasis: string,
): ClosedMonthChange {
  const own = restatements.filter((r) => r.month === closed.month);
  const netCents = own
    .filter((r) => r.field === 'net_profit' && r.difference !== null)
    .reduce((n, r) => n + Math.round(r.difference! * 100), 0);
  return {
    month: closed.month,
    netProfitChange: netCents / 100,
    changedDays: new Set(own.map((r) => r.date)).size,
    changedValues: own.length,
    basisChanged: closed.basis !== '' && currentBasis !== '' && closed.basis !== currentBasis,
  };
}
