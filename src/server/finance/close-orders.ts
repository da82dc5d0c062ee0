/**
 * The orders behind a closed month: at close, the figures of every order placed in the month as the
 * Orders sheet held them; later, which of them changed (and which are new or gone) and by how much
 * their contribution to the P&L moved. Pure.
 *
 * An order's contribution to the month's P&L is its figures while it is active, and nothing once it
 * is cancelled or gone (the P&L leaves those out). Its profit here is the contribution profit of
 * spec 2.3 (net_revenue − cogs − ad_spend_allocated − payment_fee − fulfillment_cost), before
 * allocated overhead: overhead is the service's share-out of operating expenses, not a cost the
 * order booked, and is shown apart (the allocation rows of the restatements).
 */
import { dayKey, amountOf } from './daily-figures';

/** Orders sheet columns the close records and the comparison reads back (all kept in every column choice). */
export const ORDER_FIGURE_COLUMNS = [
  'id',
  'status',
  'placed_date',
  'order_number',
  'updated_at',
  'refunds',
  'net_revenue',
  'cogs',
  'payment_fee',
  'fulfillment_cost',
  'ad_spend_allocated',
] as const;
export type OrderFigureColumn = (typeof ORDER_FIGURE_COLUMNS)[number];

/** The close sheet's order section, one row per order: its header. */
export const CLOSE_ORDER_COLUMNS = [
  'order_id',
  'order_number',
  'status',
  'placed_date',
  'updated_at',
  'refunds',
  'net_revenue',
  'cogs',
  'profit',
] as const;

export interface OrderFigures {
  id: string;
  orderNumber: string;
  /** active, cancelled or gone (Orders' derived status). */
  status: string;
  placedDate: string;
  /** The Orders sheet's updated_at cell (a serial in the spreadsheet's zone), copied as read. */
  updatedAt: number | null;
  refunds: number;
  netRevenue: number;
  cogs: number;
  /** Contribution profit (before allocated overhead). */
  profit: number;
}

export type OrderChangeKind = 'refund' | 'cancellation' | 'cost correction' | 'new' | 'gone' | 'other change';

export interface OrderChange {
  month: string;
  id: string;
  orderNumber: string;
  placedDate: string;
  kind: OrderChangeKind;
  deltaNetRevenue: number;
  deltaCogs: number;
  deltaProfit: number;
}

const cents = (v: number): number => Math.round(v * 100);
const money = (cell: unknown): number => amountOf(cell) ?? 0;

/** One Orders row (cells named by ORDER_FIGURE_COLUMNS) → figures; null when it is not an order row. */
export function orderFiguresOf(cell: (column: OrderFigureColumn) => unknown): OrderFigures | null {
  const id = cell('id');
  const placedDate = dayKey(cell('placed_date'));
  if (typeof id !== 'string' || !id.startsWith('ord_') || placedDate === null) return null;
  const updated = cell('updated_at');
  const netRevenue = money(cell('net_revenue'));
  const cogs = money(cell('cogs'));
  const profitCents =
    cents(netRevenue) -
    cents(cogs) -
    cents(money(cell('ad_spend_allocated'))) -
    cents(money(cell('payment_fee'))) -
    cents(money(cell('fulfillment_cost')));
  return {
    id,
    orderNumber: String(cell('order_number') ?? ''),
    status: String(cell('status') ?? ''),
    placedDate,
    updatedAt: typeof updated === 'number' ? updated : null,
    refunds: money(cell('refunds')),
    netRevenue,
    cogs,
    profit: profitCents / 100,
  };
}

/** The order section's rows (RAW values, in CLOSE_ORDER_COLUMNS order; dates as serials given by `dateSerial`). */
export function closeOrderRows(
  orders: readonly OrderFigures[],
  dateSerial: (ymd: string) => number | string,
): Array<Array<string | number>> {
  return orders.map((o) => [
    o.id,
    o.orderNumber,
    o.status,
    dateSerial(o.placedDate),
    o.updatedAt ?? '',
    o.refunds,
    o.netRevenue,
    o.cogs,
    o.profit,
  ]);
}

/** The order section read back (unformatted values, the header row first); rows that are not orders are left out. */
export function readCloseOrders(values: ReadonlyArray<ReadonlyArray<unknown>>): OrderFigures[] {
  const header = (values[0] ?? []).map(String);
  if (header[0] !== CLOSE_ORDER_COLUMNS[0]) return [];
  const at = (row: ReadonlyArray<unknown>, name: string): unknown => row[header.indexOf(name)];
  const out: OrderFigures[] = [];
  for (const row of values.slice(1)) {
    const id = at(row, 'order_id');
    const placedDate = dayKey(at(row, 'placed_date'));
    if (typeof id !== 'string' || !id.startsWith('ord_') || placedDate === null) continue;
    const updated = at(row, 'updated_at');
    out.push({
      id,
      orderNumber: String(at(row, 'order_number') ?? ''),
      status: String(at(row, 'status') ?? ''),
      placedDate,
      updatedAt: typeof updated === 'number' ? updated : null,
      refunds: money(at(row, 'refunds')),
      netRevenue: money(at(row, 'net_revenue')),
      cogs: money(at(row, 'cogs')),
      profit: money(at(row, 'profit')),
    });
  }
  return out;
}

/** What an Orders index entry says now: status and updated_at (serial), for the cheap first pass. */
export interface OrderMarker {
  status: string;
  placedDate: string | null;
  updatedAt: number | null;
}

/**
 * Orders that may have changed since the close, from the Orders key index alone (no read): an order
 * of the snapshot whose status or updated_at (compared to the millisecond) differs, or that the
 * sheet no longer holds, and an order placed in the month that the snapshot does not hold.
 */
export function ordersToCompare(
  month: string,
  atClose: readonly OrderFigures[],
  now: ReadonlyMap<string, OrderMarker>,
): string[] {
  const moved = atClose.filter((o) => {
    const m = now.get(o.id);
    return !m || m.status !== o.status || !sameInstant(m.updatedAt, o.updatedAt);
  });
  return [...moved.map((o) => o.id), ...placedSinceClose(month, atClose, now)];
}

/**
 * Every order of the month, whether or not its marker moved: the snapshot's orders and the orders
 * placed in the month that it does not hold. For a month whose P&L moved without the marker pass
 * explaining it (a correction that did not move updated_at: spec 4.4 rule 6, 2.2).
 */
export function ordersOfMonth(
  month: string,
  atClose: readonly OrderFigures[],
  now: ReadonlyMap<string, OrderMarker>,
): string[] {
  return [...atClose.map((o) => o.id), ...placedSinceClose(month, atClose, now)];
}

function placedSinceClose(
  month: string,
  atClose: readonly OrderFigures[],
  now: ReadonlyMap<string, OrderMarker>,
): string[] {
  const held = new Set(atClose.map((o) => o.id));
  const out: string[] = [];
  for (const [id, m] of now)
    if (!held.has(id) && m.placedDate !== null && m.placedDate.slice(0, 7) === month) out.push(id);
  return out;
}

const MS_PER_DAY = 86_400_000;
function sameInstant(a: number | null, b: number | null): boolean {
  if (a === null || b === null) return a === b;
  return Math.round(a * MS_PER_DAY) === Math.round(b * MS_PER_DAY);
}

const counted = (o: OrderFigures | undefined): boolean => o !== undefined && o.status === 'active';

/**
 * The change of one order's contribution to the month, or null when it did not move the P&L
 * (e.g. only its attribution changed). `now` undefined: the Orders sheet no longer holds it.
 */
export function orderChangeOf(
  month: string,
  before: OrderFigures | undefined,
  now: OrderFigures | undefined,
): OrderChange | null {
  const base = now ?? before;
  if (!base) return null;
  const delta = (pick: (o: OrderFigures) => number): number =>
    ((counted(now) ? cents(pick(now!)) : 0) - (counted(before) ? cents(pick(before!)) : 0)) / 100;
  const change: OrderChange = {
    month,
    id: base.id,
    orderNumber: base.orderNumber,
    placedDate: base.placedDate,
    kind: kindOf(before, now),
    deltaNetRevenue: delta((o) => o.netRevenue),
    deltaCogs: delta((o) => o.cogs),
    deltaProfit: delta((o) => o.profit),
  };
  const moved = change.deltaNetRevenue !== 0 || change.deltaCogs !== 0 || change.deltaProfit !== 0;
  return moved ? change : null;
}

function kindOf(before: OrderFigures | undefined, now: OrderFigures | undefined): OrderChangeKind {
  if (!before) return 'new';
  if (!now || now.status === 'gone') return 'gone';
  if (now.status === 'cancelled' && before.status !== 'cancelled') return 'cancellation';
  if (cents(now.refunds) > cents(before.refunds)) return 'refund';
  if (cents(now.cogs) !== cents(before.cogs)) return 'cost correction';
  return 'other change';
}
