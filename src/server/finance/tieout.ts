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
import { TIEOUT_COMPARED } from '../sheets/schema';
import { sumByPeriod, type DayFigures } from './period-sums';
import type { PnlSheetChecks } from './tieout-pnl-sheets';
import { sumOrdersByDay, type OrderDay } from './order-days';
import { FIGURES, asFigures, emptyCents, toCents, type PnlDay, type TieoutFigure } from './tieout-figures';
import { compare, sheetOnlyRow, type RatioList, type TieoutRow } from './tieout-rows';

export interface TieoutInput {
  /** Orders sheet rows (without the header), columns as ORDERS. */
  orderRows: ReadonlyArray<ReadonlyArray<unknown>>;
  /** The rows already summed by day (the order day sums); when given, orderRows is not read. */
  orderDays?: ReadonlyMap<string, OrderDay>;
  /** The placed_date cell → YYYY-MM-DD (serial numbers from the Sheets API, Date objects from SpreadsheetApp). */
  dayOf: (cell: unknown) => string | null;
  pnlDays: readonly PnlDay[];
  storeCurrency: string | null;
  /** The basis the sheets hold and the one the service reports now (words); unequal → every day ✗. */
  basisHeld: string | null;
  basisNow: string | null;
  /** Orders the sync skipped (its skipped records): their days cannot tie out, whatever the sums say. */
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

function pnlCents(day: PnlDay, fields: readonly string[]): number | null {
  let sum = 0;
  for (const field of fields) {
    const v = day[field];
    if (typeof v !== 'number' || !Number.isFinite(v)) return null;
    sum += toCents(v);
  }
  return sum;
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
  const inconsistent = new Map<string, RatioList>();
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
    const ratios: RatioList = { listed: od ? od.inconsistent : [], unlisted: od?.unlisted ?? 0 };
    inconsistent.set(day.date, ratios);
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
        ratios,
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
    const ofMonth = [...inconsistent].filter(([date]) => date.startsWith(m.key)).map(([, ratios]) => ratios);
    const wrongRatios: RatioList = {
      listed: ofMonth.flatMap((r) => r.listed),
      unlisted: ofMonth.reduce((n, r) => n + r.unlisted, 0),
    };
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
