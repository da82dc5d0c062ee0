/**
 * What the P&L dashboard shows: the KPI block (the periods' date cells and PROFIT_SUMMARY formulas
 * over them) and the charts, each over whole columns of the Daily or Monthly P&L sheet, by header
 * name. Pure.
 */
import { columnLetter } from '../sheets/a1';
import { DAILY, MONTHLY, columnIndex, type TableSchema } from '../sheets/schema';
import { addDays } from '../platform/calendar';

export const DASHBOARD_SHEET = 'Dashboard';

export interface DashboardChart {
  title: string;
  type: 'LINE' | 'COLUMN';
  source: TableSchema;
  /** The domain column first, then one column per series. */
  columns: readonly string[];
  stacked?: boolean;
  /** Anchor cell (1-based). */
  row: number;
  column: number;
}

export const DASHBOARD_CHARTS: readonly DashboardChart[] = [
  {
    title: 'Net revenue, CM3 and net profit by day',
    type: 'LINE',
    source: DAILY,
    columns: ['date', 'net_revenue', 'contribution_margin_cm3', 'net_profit'],
    row: 12,
    column: 1,
  },
  {
    title: 'Net revenue, CM3 and net profit by month',
    type: 'COLUMN',
    source: MONTHLY,
    columns: ['month', 'net_revenue', 'contribution_margin_cm3', 'net_profit'],
    row: 12,
    column: 8,
  },
  {
    title: 'Net margin % by month',
    type: 'LINE',
    source: MONTHLY,
    columns: ['month', 'net_margin_pct'],
    row: 32,
    column: 1,
  },
  {
    title: 'Costs by month',
    type: 'COLUMN',
    source: MONTHLY,
    columns: ['month', 'cogs', 'fulfillment_cost', 'payment_fees', 'ad_spend'],
    stacked: true,
    row: 32,
    column: 8,
  },
];

/** 1-based column of a header in its P&L sheet. */
export function sourceColumn(chart: DashboardChart, header: string): number {
  return columnIndex(chart.source, header) + 1;
}

export interface KpiPeriod {
  label: string;
  /** First and last day (YYYY-MM-DD) of the period on the day `today`. */
  days(today: string): { start: string; end: string };
}

const monthStart = (ymd: string): string => `${ymd.slice(0, 8)}01`;

/**
 * Periods in the store's calendar (`today` is the store's: the API's days are store-local). Their days are written into the period cells as dates by
 * the add-on (refreshDashboardPeriods), never computed by TODAY() in the formulas: a custom function
 * with a volatile argument never runs (Google's custom functions guide, "Arguments").
 */
export const KPI_PERIODS: readonly KpiPeriod[] = [
  { label: 'This month', days: (today) => ({ start: monthStart(today), end: today }) },
  {
    label: 'Last month',
    days: (today) => ({ start: monthStart(addDays(monthStart(today), -1)), end: addDays(monthStart(today), -1) }),
  },
  { label: 'Year to date', days: (today) => ({ start: `${today.slice(0, 4)}-01-01`, end: today }) },
];

export const KPI_METRICS: ReadonlyArray<{ label: string; metric: string }> = [
  { label: 'Net revenue', metric: 'net_revenue' },
  { label: 'Contribution profit (CM3)', metric: 'contribution_margin_cm3' },
  { label: 'Net profit', metric: 'net_profit' },
  { label: 'Net margin %', metric: 'net_margin_pct' },
];

export const KPI_HEADER_ROW = 4;
/** The period cells under each period's label: its first day, then its last. */
export const PERIOD_START_ROW = KPI_HEADER_ROW + 1;
export const PERIOD_END_ROW = KPI_HEADER_ROW + 2;
export const PERIOD_LABELS: readonly string[] = ['From', 'To'];
export const FIRST_METRIC_ROW = PERIOD_END_ROW + 1;

/** The period cells' days on the day `today`: one row of starts, one of ends, a column per period. */
export function periodDays(today: string): string[][] {
  const spans = KPI_PERIODS.map((p) => p.days(today));
  return [spans.map((s) => s.start), spans.map((s) => s.end)];
}

/** The row under the metrics holding each period's note (another currency, history cut, a future period). */
export const NOTES_ROW = FIRST_METRIC_ROW + KPI_METRICS.length;
/** The metric whose note the notes row shows: the notes are the period's, the same for every KPI metric. */
const NOTE_METRIC = KPI_METRICS[0].metric;

type KpiRow = { label: string; formulas: string[] };

/**
 * The KPI block from A{KPI_HEADER_ROW}: a header row of the periods, their From and To rows, one
 * row per metric of PROFIT_SUMMARY(start cell, end cell, "metric", "value") formulas, then a row of
 * the periods' notes. The KPI formulas sit side by side, so each asks for the number alone (one
 * cell): a note spilling into the next formula would make Sheets show #REF! instead of the number.
 */
export function kpiBlock(): { header: string[]; rows: KpiRow[]; notes: KpiRow } {
  const cell = (column: number, row: number): string => `$${columnLetter(column)}$${row}`;
  const formulas = (metric: string, show: 'value' | 'note'): string[] =>
    KPI_PERIODS.map(
      (_, i) =>
        `=PROFIT_SUMMARY(${cell(i + 2, PERIOD_START_ROW)}, ${cell(i + 2, PERIOD_END_ROW)}, "${metric}", "${show}")`,
    );
  return {
    header: ['Metric', ...KPI_PERIODS.map((p) => p.label)],
    rows: KPI_METRICS.map(({ label, metric }) => ({ label, formulas: formulas(metric, 'value') })),
    notes: { label: 'Notes', formulas: formulas(NOTE_METRIC, 'note') },
  };
}
