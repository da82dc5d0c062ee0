/**
 * The tie-out (pure): the Orders sheet summed by placed_date (store time zone) beside the
 * service's Daily P&L, per day and per month, with ✓ only when every figure agrees to the cent:
 * the API's amounts are exact cents and the spec names no tolerance, so none is allowed (one cent
 * per order would hide dollars on a busy day).
 * Cancelled and gone orders are left out as the P&L's basis leaves them out (refunds recognised on
 * the sale date, so by placement day; blended ad spend allocated to orders). Sums are in whole
 * cents; an unreadable amount makes its day's sum unknown, never 0. Months are summed by the
 * shared period-sums module, the same summation as the Monthly P&L.
 */
import { PROFIT_TOTALS_FIELDS, type ProfitTotalsField } from '../api/types';
import { ORDERS, TIEOUT_COMPARED, columnIndex } from '../sheets/schema';
import { sumByPeriod, type DayFigures, type PnlFigures } from './period-sums';
import type { PnlSheetChecks } from './tieout-pnl-sheets';
import { inconsistentRatios } from './order-ratios';

export type TieoutFigure = (typeof TIEOUT_COMPARED)[number]['figure'];

export interface TieoutLine {
  orders: number | null;
  pnl: number | null;
  difference: number | null;
}

export interface TieoutRow {
  period: string;
  kind: 'day' | 'month';
  ok: boolean;
  orders: number;
  figures: Record<TieoutFigure, TieoutLine>;
  /** The Daily or Monthly P&L sheet's row beside the service (tieout-pnl-sheets.ts): '✓', what differs, or '' when not checked. */
  pnlSheet: string;
  note: string;
}

export interface OrderDay {
  day: string;
  count: number;
  /** Cents per figure; null when an order's amount could not be read. */
  cents: Record<TieoutFigure, number | null>;
  /** Orders in another currency than the store's (not summed). */
  otherCurrency: number;
  /** Orders whose margin percentages disagree with their own figures (order-ratios.ts): "id (column)". */
  inconsistent: string[];
}

/** A P&L daily row as the API returns it (spec 2.9). */
export type PnlDay = { date: string } & Partial<Record<string, unknown>>;

export interface TieoutInput {
  /** Orders sheet rows (without the header), columns as ORDERS. */
  orderRows: ReadonlyArray<ReadonlyArray<unknown>>;
  /** The rows already summed by day (order-day-sums.ts); when given, orderRows is not read. */
  orderDays?: ReadonlyMap<string, OrderDay>;
  /** The placed_date cell → YYYY-MM-DD (serial numbers from the Sheets API, Date objects from SpreadsheetApp). */
  dayOf: (cell: unknown) => string | null;
  pnlDays: readonly PnlDay[];
  storeCurrency: string | null;
  /** The basis the sheets hold and the one the service reports now (words); unequal → every day ✗. */
  basisHeld: string | null;
  basisNow: string | null;
  /** Orders the sync skipped (sync/skipped-records.ts): their days cannot tie out, whatever the sums say. */
  skippedOrders?: ReadonlyArray<{ id: string; day: string | null }>;
  /** Daily P&L days the sync skipped: the Daily P&L sheet holds no current figures for them, so they cannot tie out. */
  skippedDays?: ReadonlyArray<{ day: string | null }>;
  /** The P&L sheets' rows beside the service's; a period that differs is ✗ (before the first order too). */
  pnlSheets?: PnlSheetChecks;
  /** The figures compared (default every one): a figure whose Orders column is not synced is left out. */
  compared?: readonly TieoutFigure[];
  /** Service days before this are read for the P&L sheets only (no orders are synced before it). */
  ordersFrom?: string | null;
}

const FIGURES = TIEOUT_COMPARED.map((f) => f.figure);
const COL = {
  id: columnIndex(ORDERS, 'id'),
  status: columnIndex(ORDERS, 'status'),
  placed: columnIndex(ORDERS, 'placed_date'),
  currency: columnIndex(ORDERS, 'currency'),
};
const ORDER_COLUMNS = TIEOUT_COMPARED.map((f) => [f.figure, columnIndex(ORDERS, f.orders)] as const);

const toCents = (value: number): number => Math.round(value * 100);

function emptyCents(): Record<TieoutFigure, number | null> {
  return Object.fromEntries(FIGURES.map((f) => [f, 0])) as Record<TieoutFigure, number | null>;
}

/** Orders summed by placement day: active orders only (cancelled and gone are not revenue). */
export function sumOrdersByDay(
  rows: TieoutInput['orderRows'],
  dayOf: TieoutInput['dayOf'],
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

function pnlCents(day: PnlDay, fields: readonly string[]): number | null {
  let sum = 0;
  for (const field of fields) {
    const v = day[field];
    if (typeof v !== 'number' || !Number.isFinite(v)) return null;
    sum += toCents(v);
  }
  return sum;
}

/**
 * Where each figure travels in the PnlFigures shape: its own totals field, or (an order-only name)
 * the one it is compared with. Only a place to sum: every field is summed on its own.
 */
const SLOT: Record<TieoutFigure, ProfitTotalsField> = Object.fromEntries(
  FIGURES.map((f) => [
    f,
    f === 'contribution_profit' ? 'contribution_margin_cm3' : f === 'allocated_overhead' ? 'opex' : f,
  ]),
) as Record<TieoutFigure, ProfitTotalsField>;

/** As PnlFigures (the shared period-sums shape), so months are summed the Monthly P&L's way. */
function asFigures(cents: Record<TieoutFigure, number | null>): PnlFigures {
  const out = Object.fromEntries(PROFIT_TOTALS_FIELDS.map((f) => [f, 0])) as PnlFigures;
  for (const f of FIGURES) out[SLOT[f]] = cents[f] === null ? null : cents[f]! / 100;
  return out;
}

/** Every day the P&L returned, then every month of them. */
export function tieOut(input: TieoutInput): TieoutRow[] {
  const orderDays = input.orderDays ?? sumOrdersByDay(input.orderRows, input.dayOf, input.storeCurrency);
  const basisChanged = input.basisHeld !== null && input.basisNow !== null && input.basisHeld !== input.basisNow;
  const basisNote = basisChanged
    ? `The service now reports another basis (${input.basisNow}) than the sheets hold (${input.basisHeld}): the next sync fetches every order and day again.`
    : '';
  const ordersSide: DayFigures[] = [];
  const pnlSide: DayFigures[] = [];
  const counts = new Map<string, number>();
  const otherCurrency = new Map<string, number>();
  const inconsistent = new Map<string, string[]>();
  const rows: TieoutRow[] = [];
  const skippedOn = skippedByDay([
    ...(input.skippedOrders ?? []),
    ...(input.skippedDays ?? []).map(({ day }) => ({ id: 'its Daily P&L row', day })),
  ]);
  const sheets = input.pnlSheets ?? { days: new Map<string, string>(), months: new Map<string, string>() };
  const from = input.ordersFrom ?? null;
  const compared = new Set<TieoutFigure>(input.compared ?? FIGURES);
  const ordered = [...input.pnlDays].sort((a, b) => (a.date < b.date ? -1 : 1));
  // Before the first synced order only the P&L sheets are checked, and only a difference is listed.
  for (const day of ordered)
    if (from !== null && day.date < from)
      rows.push(...sheetOnlyRow(day.date, 'day', sheets.days.get(day.date), basisNote));
  for (const day of ordered) {
    if (from !== null && day.date < from) continue;
    const od = orderDays.get(day.date);
    const oc = od ? od.cents : emptyCents();
    const pc = Object.fromEntries(TIEOUT_COMPARED.map((f) => [f.figure, pnlCents(day, f.pnl)])) as Record<
      TieoutFigure,
      number | null
    >;
    ordersSide.push({ date: day.date, figures: asFigures(oc) });
    pnlSide.push({ date: day.date, figures: asFigures(pc) });
    counts.set(day.date, od ? od.count : 0);
    otherCurrency.set(day.date, od ? od.otherCurrency : 0);
    inconsistent.set(day.date, od ? od.inconsistent : []);
    rows.push(
      compare(
        day.date,
        'day',
        od ? od.count : 0,
        asFigures(oc),
        asFigures(pc),
        od ? od.otherCurrency : 0,
        basisNote,
        skippedOn.get(day.date) ?? [],
        sheets.days.get(day.date) ?? '',
        compared,
        od ? od.inconsistent : [],
      ),
    );
  }
  const ordersMonths = sumByPeriod(ordersSide);
  const monthsOfOrders = new Set(ordersMonths.map((m) => m.key));
  for (const [month, words] of [...sheets.months].sort(([a], [b]) => (a < b ? -1 : 1)))
    if (!monthsOfOrders.has(month)) rows.push(...sheetOnlyRow(month, 'month', words, basisNote));
  const pnlMonths = new Map(sumByPeriod(pnlSide).map((m) => [m.key, m]));
  for (const m of ordersMonths) {
    let count = 0;
    let other = 0;
    for (const [date, n] of counts)
      if (date.startsWith(m.key)) {
        count += n;
        other += otherCurrency.get(date) ?? 0;
      }
    const skipped = [...skippedOn].filter(([date]) => date.startsWith(m.key)).flatMap(([, ids]) => ids);
    const wrongRatios = [...inconsistent].filter(([date]) => date.startsWith(m.key)).flatMap(([, ids]) => ids);
    rows.push(
      compare(
        m.key,
        'month',
        count,
        m.figures,
        pnlMonths.get(m.key)!.figures,
        other,
        basisNote,
        skipped,
        sheets.months.get(m.key) ?? '',
        compared,
        wrongRatios,
      ),
    );
  }
  return rows;
}

function skippedByDay(skipped: NonNullable<TieoutInput['skippedOrders']>): Map<string, string[]> {
  const byDay = new Map<string, string[]>();
  for (const { id, day } of skipped) if (day !== null) byDay.set(day, [...(byDay.get(day) ?? []), id]);
  return byDay;
}

/** A period checked on its P&L sheet only: listed when it differs (orders' figures empty: none are synced there). */
function sheetOnlyRow(
  period: string,
  kind: 'day' | 'month',
  words: string | undefined,
  basisNote: string,
): TieoutRow[] {
  if (words === undefined || words === '✓') return [];
  const figures = Object.fromEntries(FIGURES.map((f) => [f, { orders: null, pnl: null, difference: null }])) as Record<
    TieoutFigure,
    TieoutLine
  >;
  const notes = [
    basisNote,
    `The ${kind === 'day' ? 'Daily' : 'Monthly'} P&L sheet differs from the service: ${words}.`,
  ].filter((n) => n !== '');
  return [{ period, kind, ok: false, orders: 0, figures, pnlSheet: words, note: notes.join(' ') }];
}

function compare(
  period: string,
  kind: 'day' | 'month',
  count: number,
  orders: PnlFigures,
  pnl: PnlFigures,
  otherCurrency: number,
  basisNote: string,
  skipped: readonly string[],
  pnlSheet: string,
  compared: ReadonlySet<TieoutFigure>,
  wrongRatios: readonly string[],
): TieoutRow {
  const figures = {} as Record<TieoutFigure, TieoutLine>;
  const off: string[] = [];
  for (const f of FIGURES) {
    const o = compared.has(f) ? orders[SLOT[f]] : null;
    const p = pnl[SLOT[f]];
    if (!compared.has(f)) {
      figures[f] = { orders: null, pnl: p, difference: null };
      continue;
    }
    const cents = o === null || p === null ? null : toCents(o) - toCents(p);
    figures[f] = { orders: o, pnl: p, difference: cents === null ? null : cents / 100 };
    if (cents === null) off.push(`${f} unknown`);
    else if (cents !== 0) off.push(f);
  }
  const notes: string[] = [];
  if (basisNote) notes.push(basisNote);
  if (off.length > 0) notes.push(`Differs: ${off.join(', ')}.`);
  if (otherCurrency > 0) notes.push(`${otherCurrency} order(s) in another currency than the store's are not summed.`);
  const sheetOk = pnlSheet === '' || pnlSheet === '✓';
  if (!sheetOk)
    notes.push(`The ${kind === 'day' ? 'Daily' : 'Monthly'} P&L sheet differs from the service: ${pnlSheet}.`);
  if (wrongRatios.length > 0)
    notes.push(`Margin percentages that disagree with their own order's figures: ${wrongRatios.join(', ')}.`);
  if (skipped.length > 0)
    notes.push(
      `Not synced: ${skipped.join(', ')} (the service sent values that cannot be written to the sheet; see the Sync log).`,
    );
  return {
    period,
    kind,
    ok:
      off.length === 0 &&
      basisNote === '' &&
      otherCurrency === 0 &&
      skipped.length === 0 &&
      wrongRatios.length === 0 &&
      sheetOk,
    orders: count,
    figures,
    pnlSheet,
    note: notes.join(' '),
  };
}
