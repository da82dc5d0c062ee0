/**
 * Metric names a finance user can type into a formula: every totals field of the API (spec 2.8),
 * the margin levels by their short names (CM1, CM2, CM3) and margins in percent of net revenue.
 * Names are case-insensitive; spaces, hyphens and "%" are read as "_" and "pct"
 * ("Net margin %" → net_margin_pct).
 */
import { PROFIT_TOTALS_FIELDS } from '../api/types';
import { marginPct } from '../finance/margin';
import { percentCell } from '../sheets/percent';
import { FormulaError } from './args';

/** A metric read from a totals-shaped record (summary totals, a daily row, a month's sums). null: unknown. */
export interface Metric {
  /** The canonical name, used as the column header. */
  name: string;
  read(totals: Readonly<Record<string, unknown>>): number | null;
}

const SHORT_NAMES: Readonly<Record<string, string>> = {
  cm1: 'product_margin_cm1',
  cm2: 'gross_profit_cm2',
  cm3: 'contribution_margin_cm3',
};

/**
 * Margins of net revenue, by the one margin rule (marginPct), answered as Sheets' percent (a
 * fraction: 0.5508 for 55.08 %, percent.ts); unknown (null) when a figure is.
 */
const MARGINS: Readonly<Record<string, string>> = {
  net_margin_pct: 'net_profit',
  cm1_margin_pct: 'product_margin_cm1',
  cm2_margin_pct: 'gross_profit_cm2',
  cm3_margin_pct: 'contribution_margin_cm3',
  ebitda_margin_pct: 'ebitda',
};

function numberOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function fieldMetric(name: string): Metric {
  return { name, read: (totals) => numberOf(totals[name]) };
}

function marginMetric(name: string, field: string): Metric {
  return {
    name,
    read: (totals) => percentCell(marginPct(numberOf(totals[field]), numberOf(totals.net_revenue))),
  };
}

/** "Net margin %" → "net_margin_pct". */
export function normaliseMetricName(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/%/g, ' pct')
    .replace(/[\s-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '');
}

/** Every name a metric argument accepts, in the order the help text lists them. */
export const METRIC_NAMES: readonly string[] = [
  ...Object.keys(SHORT_NAMES),
  ...Object.keys(MARGINS),
  ...PROFIT_TOTALS_FIELDS,
];

/** The metric a name stands for, or null when it names none. */
export function metricByName(text: string): Metric | null {
  const name = normaliseMetricName(text);
  const canonical = SHORT_NAMES[name] ?? name;
  if (MARGINS[canonical] !== undefined) return marginMetric(canonical, MARGINS[canonical]);
  if ((PROFIT_TOTALS_FIELDS as readonly string[]).includes(canonical)) return fieldMetric(canonical);
  return null;
}

const HINT = 'e.g. "net_profit", "cm3", "net_margin_pct" or any totals field such as "net_revenue"';

/** One metric name (a single cell or text). */
export function metricArgument(fn: string, name: string, value: unknown, extra: readonly string[] = []): Metric {
  if (Array.isArray(value)) throw new FormulaError(fn, `${name} must be a single metric name, not a range`);
  if (typeof value !== 'string' || value.trim() === '')
    throw new FormulaError(fn, `${name} must be a metric name as text, ${HINT}`);
  const normalised = normaliseMetricName(value);
  if (extra.includes(normalised)) return { name: normalised, read: (totals) => numberOf(totals[normalised]) };
  const metric = metricByName(value);
  if (metric === null) throw new FormulaError(fn, `${name} "${value.trim()}" is not a metric; use ${HINT}`);
  return metric;
}

/**
 * A list of metrics: "net_profit, cm3" or a range of cells holding names (empty cells skipped),
 * in the order given; a name given twice is refused (two columns with one header mislead pivots).
 */
export function metricListArgument(fn: string, name: string, value: unknown): Metric[] {
  const texts: unknown[] = Array.isArray(value)
    ? (value as unknown[]).flat(2)
    : typeof value === 'string'
      ? value.split(',')
      : [value];
  const names = texts.filter((t) => !(typeof t === 'string' && t.trim() === '') && t !== null && t !== undefined);
  if (names.length === 0) throw new FormulaError(fn, `${name} must name at least one metric, ${HINT}`);
  const metrics: Metric[] = [];
  for (const text of names) {
    if (typeof text !== 'string') throw new FormulaError(fn, `${name} must hold metric names as text, ${HINT}`);
    const metric = metricByName(text);
    if (metric === null) throw new FormulaError(fn, `${name}: "${text.trim()}" is not a metric; use ${HINT}`);
    if (metrics.some((m) => m.name === metric.name))
      throw new FormulaError(fn, `${name} names ${metric.name} twice; list each metric once`);
    metrics.push(metric);
  }
  return metrics;
}
