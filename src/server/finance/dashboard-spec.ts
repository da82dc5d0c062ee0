/**
 * What the P&L dashboard shows: the KPI block (PROFIT_SUMMARY formulas) and the charts, each over
 * whole columns of the Daily or Monthly P&L sheet, by header name. Pure.
 */
import { DAILY, MONTHLY, columnIndex, type TableSchema } from '../sheets/schema';

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
  { title: 'Net revenue, CM3 and net profit by day', type: 'LINE', source: DAILY, columns: ['date', 'net_revenue', 'contribution_margin_cm3', 'net_profit'], row: 11, column: 1 },
  { title: 'Net revenue, CM3 and net profit by month', type: 'COLUMN', source: MONTHLY, columns: ['month', 'net_revenue', 'contribution_margin_cm3', 'net_profit'], row: 11, column: 8 },
  { title: 'Net margin % by month', type: 'LINE', source: MONTHLY, columns: ['month', 'net_margin_pct'], row: 31, column: 1 },
  { title: 'Costs by month', type: 'COLUMN', source: MONTHLY, columns: ['month', 'cogs', 'fulfillment_cost', 'payment_fees', 'ad_spend'], stacked: true, row: 31, column: 8 },
];

/** 1-based column of a header in its P&L sheet. */
export function sourceColumn(chart: DashboardChart, header: string): number {
  return columnIndex(chart.source, header) + 1;
}

export interface KpiPeriod {
  label: string;
  start: string;
  end: string;
}

/** Periods in the spreadsheet's calendar (TODAY()); the API reads the days in the store's zone. */
export const KPI_PERIODS: readonly KpiPeriod[] = [
  { label: 'This month', start: 'DATE(YEAR(TODAY()),MONTH(TODAY()),1)', end: 'TODAY()' },
  { label: 'Last month', start: 'EOMONTH(TODAY(),-2)+1', end: 'EOMONTH(TODAY(),-1)' },
  { label: 'Year to date', start: 'DATE(YEAR(TODAY()),1,1)', end: 'TODAY()' },
];

export const KPI_METRICS: ReadonlyArray<{ label: string; metric: string }> = [
  { label: 'Net revenue', metric: 'net_revenue' },
  { label: 'Contribution profit (CM3)', metric: 'contribution_margin_cm3' },
  { label: 'Net profit', metric: 'net_profit' },
  { label: 'Net margin %', metric: 'net_margin_pct' },
];

export const KPI_HEADER_ROW = 4;

/** The KPI block from A{KPI_HEADER_ROW}: a header row, then one row per metric of PROFIT_SUMMARY(start, end, "metric") formulas. */
export function kpiBlock(): { header: string[]; rows: Array<{ label: string; formulas: string[] }> } {
  return {
    header: ['Metric', ...KPI_PERIODS.map((p) => p.label)],
    rows: KPI_METRICS.map(({ label, metric }) => ({ label, formulas: KPI_PERIODS.map((p) => `=PROFIT_SUMMARY(${p.start}, ${p.end}, "${metric}")`) })),
  };
}
