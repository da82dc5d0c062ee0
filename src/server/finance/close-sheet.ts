/**
 * The `Close YYYY-MM` snapshot sheet: what a month looked like when finance closed it. Pure
 * layout both ways (values to write, values read back), so the Restatements check reads exactly
 * what the close wrote.
 *
 *   A1:B6   Closed month | Closed at | Basis | Currency | Orders sync watermark | Daily P&L days
 *           (times as date-times in the spreadsheet's zone, as every other sheet shows them)
 *   A8      header: date, the P&L totals fields, contribution_margin_pct, net_margin_pct
 *   A9      "Month" and the month's sums (margins from the sums)
 *   A10…    one row per day of the month, as the Daily P&L held it (at most 31: rows 10 to 40)
 *   A42     "Orders at close", then the order section's header (A43) and one row per order
 *           placed in the month as the Orders sheet held it (A44…): the restatements' order list
 *           compares against it. A close made before the section existed has none.
 */
import { percentCell } from '../sheets/percent';
import { PROFIT_TOTALS_FIELDS, type ProfitTotalsField } from '../api/types';
import { a1Range } from '../sheets/a1';
import { timestampCell, type CellValue } from '../sheets/cells';
import { dateToSerial, instantToSerial } from '../platform/calendar';
import { CLOSE_ORDER_COLUMNS, closeOrderRows, readCloseOrders, type OrderFigures } from './close-orders';
import { amountOf, dayKey } from './daily-figures';
import type { CloseIndex } from './close-index';
import type { DayFigures, PeriodFigures, PnlFigures } from './period-sums';

export const CLOSE_SHEET_PREFIX = 'Close ';
export const CLOSE_HEADER_ROW = 8;
export const CLOSE_FIRST_DAY_ROW = 10;
/** The last row a day can take (a month has at most 31 days). */
export const CLOSE_LAST_DAY_ROW = CLOSE_FIRST_DAY_ROW + 30;
export const CLOSE_ORDERS_TITLE_ROW = CLOSE_LAST_DAY_ROW + 2;
export const CLOSE_ORDERS_HEADER_ROW = CLOSE_ORDERS_TITLE_ROW + 1;
export const CLOSE_ORDERS_TITLE = 'Orders at close';
export const CLOSE_COLUMNS = ['date', ...PROFIT_TOTALS_FIELDS, 'contribution_margin_pct', 'net_margin_pct'];
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

export function closeSheetName(month: string): string {
  return CLOSE_SHEET_PREFIX + month;
}

/** The month a sheet name closes, or null when it is not a close sheet. */
export function closedMonthOf(sheetName: string): string | null {
  if (!sheetName.startsWith(CLOSE_SHEET_PREFIX)) return null;
  const month = sheetName.slice(CLOSE_SHEET_PREFIX.length);
  return MONTH.test(month) ? month : null;
}

export function isMonth(value: unknown): value is string {
  return typeof value === 'string' && MONTH.test(value);
}

export interface CloseRecord {
  month: string;
  closedAt: number;
  basis: string;
  currency: string | null;
  watermark: string | null;
  summary: PeriodFigures;
  days: DayFigures[];
  /** Every order placed in the month, as the Orders sheet held it. */
  orders: OrderFigures[];
}

const blankIfNull = (v: number | null): CellValue => (v === null ? '' : v);
const figureCells = (f: PnlFigures): CellValue[] => PROFIT_TOTALS_FIELDS.map((field) => blankIfNull(f[field]));

/** Every row of the sheet, padded to the table's width (RAW values: dates and times as serials). */
export function closeSheetValues(record: CloseRecord, timeZone: string): CellValue[][] {
  const width = CLOSE_COLUMNS.length;
  const pad = (cells: CellValue[]): CellValue[] =>
    cells.concat(new Array<CellValue>(Math.max(0, width - cells.length)).fill(''));
  const rows: CellValue[][] = [
    pad(['Closed month', record.month]),
    pad(['Closed at', instantToSerial(record.closedAt, timeZone)]),
    pad(['Basis', record.basis]),
    pad(['Currency', record.currency ?? '']),
    pad(['Orders sync watermark', timestampCell(record.watermark, timeZone)]),
    pad(['Daily P&L days', `${record.summary.firstDay} to ${record.summary.lastDay} (${record.summary.days} days)`]),
    pad([]),
    CLOSE_COLUMNS.slice(),
    [
      'Month',
      ...figureCells(record.summary.figures),
      blankIfNull(percentCell(record.summary.contributionMarginPct)),
      blankIfNull(percentCell(record.summary.netMarginPct)),
    ],
  ];
  for (const day of record.days) rows.push(pad([dateToSerial(day.date) ?? day.date, ...figureCells(day.figures)]));
  while (rows.length < CLOSE_ORDERS_TITLE_ROW - 1) rows.push(pad([]));
  const count = record.orders.length;
  rows.push(
    pad([
      CLOSE_ORDERS_TITLE,
      `${count} order${count === 1 ? '' : 's'} placed in the month, as the Orders sheet held them; profit is contribution profit, before allocated overhead`,
    ]),
  );
  rows.push(pad([...CLOSE_ORDER_COLUMNS]));
  for (const row of closeOrderRows(record.orders, (d) => dateToSerial(d) ?? d)) rows.push(pad(row));
  return rows;
}

export interface ClosedSnapshot {
  month: string;
  /** Serial date-time as the sheet holds it (spreadsheet time zone). */
  closedAt: number | null;
  basis: string;
  days: Map<string, PnlFigures>;
  /** The orders at close; null for a close made before the order section existed. */
  orders: OrderFigures[] | null;
  /** An indexed close whose order section was not read (`orders` is then empty): its orders are looked up (close-lookup.ts). */
  indexed?: { index: CloseIndex; title: string; rows: number; read?: boolean };
}

/** A close sheet's values read back (unformatted); null when the sheet does not hold a close. */
export function readCloseSheet(values: ReadonlyArray<ReadonlyArray<unknown>>): ClosedSnapshot | null {
  const month = values[0]?.[1];
  if (values[0]?.[0] !== 'Closed month' || !isMonth(month)) return null;
  const header = values[CLOSE_HEADER_ROW - 1] ?? [];
  const columns = new Map<ProfitTotalsField, number>();
  for (const field of PROFIT_TOTALS_FIELDS) {
    const i = header.indexOf(field);
    if (i >= 0) columns.set(field, i);
  }
  const days = new Map<string, PnlFigures>();
  for (let r = CLOSE_FIRST_DAY_ROW - 1; r < Math.min(values.length, CLOSE_LAST_DAY_ROW); r++) {
    const row = values[r];
    const date = dayKey(row?.[0]);
    if (date === null || date.slice(0, 7) !== month) continue;
    const figures = Object.fromEntries(
      PROFIT_TOTALS_FIELDS.map((f) => [f, columns.has(f) ? amountOf(row![columns.get(f)!]) : null]),
    ) as PnlFigures;
    days.set(date, figures);
  }
  const closedAt = values[1]?.[1];
  const basis = values[2]?.[1];
  const hasOrders = values[CLOSE_ORDERS_TITLE_ROW - 1]?.[0] === CLOSE_ORDERS_TITLE;
  const orders = hasOrders ? readCloseOrders(values.slice(CLOSE_ORDERS_HEADER_ROW - 1)) : null;
  return {
    month,
    closedAt: typeof closedAt === 'number' ? closedAt : null,
    basis: typeof basis === 'string' ? basis : '',
    days,
    orders,
  };
}

/**
 * What a read of a close sheet takes: the head (meta, month, days) at the table's width, then the
 * order section at its own width when the sheet has one. The Restatements check and the close's
 * seal read the same ranges.
 */
export function closeSheetRanges(sheet: { title: string; rows: number }): string[] {
  const head = a1Range(
    sheet.title,
    1,
    1,
    Math.max(1, Math.min(sheet.rows, CLOSE_ORDERS_TITLE_ROW)),
    CLOSE_COLUMNS.length,
  );
  return sheet.rows > CLOSE_ORDERS_TITLE_ROW
    ? [head, a1Range(sheet.title, CLOSE_ORDERS_TITLE_ROW + 1, 1, sheet.rows, CLOSE_ORDER_COLUMNS.length)]
    : [head];
}
