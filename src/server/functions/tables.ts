/**
 * API answers as 2-D arrays for the sheet. Unknown values (null) become empty cells, never 0.
 */
import { percentCell } from '../sheets/percent';
import type { MetaInfo } from '../api/envelope';
import { PROFIT_TOTALS_FIELDS } from '../api/types';
import type { DailyRow, Order, ProfitabilitySummary } from '../api/types';
import { dayStartInstant, placedDateOf } from '../platform/calendar';
import type { Metric } from './metrics';

/** A Date is shown by Sheets as a date (or date-time) in the spreadsheet's time zone. */
export type Cell = string | number | boolean | Date;
export type Table = Cell[][];

export function cell(value: unknown): Cell {
  if (typeof value === 'number') return Number.isFinite(value) ? value : '';
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  return '';
}

const SUMMARY_STRUCTURED_FIELDS: readonly string[] = ['period', 'currency', 'basis', 'cogs_coverage_pct', 'totals'];

/**
 * Header row first; period (and whether the plan window shortened it), currency, basis and
 * coverage, then every totals field (spec 2.8).
 */
export function summaryTable(summary: ProfitabilitySummary, meta: MetaInfo | null = null): Table {
  const period = summary.period ?? ({} as Partial<ProfitabilitySummary['period']>);
  const basis = summary.basis ?? ({} as Partial<ProfitabilitySummary['basis']>);
  const totals = (summary.totals ?? {}) as Record<string, unknown>;
  const rows: Table = [
    ['field', 'value'],
    ['period_start', cell(period.start)],
    ['period_end', cell(period.end)],
    ['period_days', cell(period.days)],
    ['period_truncated', meta?.truncated === true],
    ['currency', cell(summary.currency)],
    ['basis_refund_recognition', cell(basis.refund_recognition)],
    ['basis_tax_treated_as_cost', cell(basis.tax_treated_as_cost)],
    ['basis_ad_spend', cell(basis.ad_spend)],
    ['cogs_coverage_pct', cell(percentCell(summary.cogs_coverage_pct))],
  ];
  // Scalars beside the known fields, e.g. the unit counts behind cogs_coverage_pct (spec 2.8).
  const record = summary as unknown as Record<string, unknown>;
  for (const [field, value] of Object.entries(record)) {
    if (
      !SUMMARY_STRUCTURED_FIELDS.includes(field) &&
      (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean')
    )
      rows.push([field, value]);
  }
  for (const field of totalsFieldsOf(totals)) rows.push([field, cell(totals[field])]);
  return rows;
}

/** The spec's totals fields in its order, then any numeric field a newer API version adds. */
function totalsFieldsOf(record: Record<string, unknown>): string[] {
  const known: readonly string[] = PROFIT_TOTALS_FIELDS;
  const extra = Object.keys(record).filter((k) => !known.includes(k) && k !== 'date' && typeof record[k] === 'number');
  return [...known, ...extra];
}

/** Summary scalars a metric argument may name besides the totals (spec 2.8). */
export const SUMMARY_SCALAR_METRICS: readonly string[] = [
  'cogs_coverage_pct',
  'units_sold',
  'units_with_known_cost',
  'period_days',
];

/** The totals with the summary's scalars beside them, for metrics to read. */
export function summaryRecord(summary: ProfitabilitySummary): Record<string, unknown> {
  const record = summary as unknown as Record<string, unknown>;
  return {
    ...(summary.totals ?? {}),
    cogs_coverage_pct: percentCell(record.cogs_coverage_pct),
    units_sold: record.units_sold,
    units_with_known_cost: record.units_with_known_cost,
    period_days: summary.period?.days,
  };
}

/**
 * One number for one cell; unknown stays an empty cell. When the plan window cut the period the
 * number covers less than was asked: a second cell beside it says which days it covers, and what
 * else the number leaves out (`leftOut`, e.g. orders in other currencies).
 */
export function metricCell(
  value: number | null,
  summary: ProfitabilitySummary,
  meta: MetaInfo | null,
  leftOut = '',
): Table {
  const shown = value === null ? '' : value;
  const notes: string[] = [];
  if (meta?.truncated === true) {
    const period = summary.period ?? ({} as Partial<ProfitabilitySummary['period']>);
    notes.push(
      `covers ${String(period.start)} to ${String(period.end)} only: the plan's history starts ${String(meta.historyAvailableFrom ?? period.start)}`,
    );
  }
  if (leftOut !== '') notes.push(leftOut);
  return notes.length === 0 ? [[shown]] : [[shown, notes.join('; ')]];
}

export const DAILY_HEADER: readonly string[] = ['date', ...PROFIT_TOTALS_FIELDS];

/**
 * Header row of field names (text), then one row per day, oldest first. The date column holds
 * Dates (midnight of the day in the spreadsheet's zone, so the cell shows that calendar day and
 * pivots and charts read it as a date); a date the API sends malformed stays as its text.
 */
export function dailyTable(
  rows: DailyRow[],
  timeZone: string,
  metrics: Metric[] | null = null,
  historyFrom: string | null = null,
): Table {
  const sorted = [...rows].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  // A shorter period than asked is said where it is read: in the date column's header.
  const dateHeader = historyFrom === null ? 'date' : `date (plan history from ${historyFrom})`;
  if (metrics !== null) {
    return [
      [dateHeader, ...metrics.map((m) => m.name)],
      ...sorted.map((row) => [
        dayCell(row.date, timeZone),
        ...metrics.map((m) => cell(m.read(row as unknown as Record<string, unknown>))),
      ]),
    ];
  }
  return [
    [dateHeader, ...DAILY_HEADER.slice(1)],
    ...sorted.map((row) =>
      DAILY_HEADER.map((field) =>
        field === 'date' ? dayCell(row.date, timeZone) : cell((row as unknown as Record<string, unknown>)[field]),
      ),
    ),
  ];
}

/** A YYYY-MM-DD day as a Date at its midnight in the spreadsheet's zone (Sheets shows that day). */
export function dayCell(value: unknown, timeZone: string): Cell {
  const start = typeof value === 'string' ? dayStartInstant(value, timeZone) : null;
  return start === null ? cell(value) : new Date(start);
}

/** An RFC 3339 instant as a Date: Sheets shows it as a date-time in the spreadsheet's zone (unparseable text stays text). */
export function instantCell(value: unknown): Cell {
  if (typeof value !== 'string') return '';
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms);
}

const ORDER_FIELDS = [
  'id',
  'order_number',
  'external_order_id',
  'created_at',
  'updated_at',
  'canceled_at',
  'refunded_at',
  'currency',
  'financial_status',
  'fulfillment_status',
  'sales_channel',
] as const;
const ORDER_INSTANTS: readonly string[] = ['created_at', 'updated_at', 'canceled_at', 'refunded_at'];

/**
 * One order's economics as a 2-column table (field, value). Times are date-times and
 * `placed_date` is the order's day in the store's zone, as the Orders sheet holds them
 * (as the order page writes it), so the order ties to the P&L day it is counted on.
 */
export function orderTable(order: Order, timeZone: string, storeTimeZone: string): Table {
  const rows: Table = [['field', 'value']];
  const record = order as unknown as Record<string, unknown>;
  for (const field of ORDER_FIELDS) {
    rows.push([field, ORDER_INSTANTS.includes(field) ? instantCell(record[field]) : cell(record[field])]);
    if (field === 'created_at')
      rows.push(['placed_date', dayCell(placedDateOf(record.created_at, storeTimeZone), timeZone)]);
  }
  const economics = (order.economics ?? {}) as unknown as Record<string, unknown>;
  // The API's percentages (…_pct, points) as Sheets' fractions, as the Orders sheet holds them (percent.ts).
  for (const [field, value] of Object.entries(economics))
    rows.push([field, cell(field.endsWith('_pct') ? percentCell(value) : value)]);
  return rows;
}
