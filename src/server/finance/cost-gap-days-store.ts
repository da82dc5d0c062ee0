/**
 * Where the per-day incomplete-cost figures live between the sync and the
 * formulas: document properties, one value per month plus an index. Custom functions may read
 * document properties (never write them) and a read is one call whatever the store's size; the
 * document cache would lose them after 6 hours at most, a hidden sheet would be one more sheet for
 * the user to meet. Google's limits (guides/services/quotas: 9 KB per value, 500 KB per store):
 * a month is a few hundred bytes (31 days); a month over 9 KB is not kept and marked, the newest
 * months are kept first within TOTAL_MAX_BYTES and older ones marked, and a period touching a
 * marked month is not counted (empty, never a wrong number). So is a period reaching before the
 * orders window ("Keep only orders placed since…"): Orders holds none of its earlier orders.
 */
import { PROPERTY_VALUE_MAX_BYTES, utf8Bytes } from '../platform/property-size';
import type { CostGapRow, CostGapsRead } from './cost-gaps';
import {
  costGapMonthsOf,
  costGapsOfMonths,
  monthsBetween,
  parseCostGapMonth,
  type CostGapMonth,
} from './cost-gap-days';

type Properties = GoogleAppsScript.Properties.Properties;

const INDEX_KEY = 'ma.costGapDays';
const monthKey = (month: string): string => `${INDEX_KEY}.${month}`;
/** Well under the 500 KB all document properties share with the sync state. */
const TOTAL_MAX_BYTES = 150_000;
/** 30 years of months keeps the index itself far below 9 KB. */
const MAX_MONTHS = 360;
/** Past this many months a period is read with one getProperties instead of one read per month. */
const READ_ONE_BY_ONE = 24;

interface CostGapIndex {
  /** Orders rows the count was made from: 0 means no Orders data (the formulas say so). */
  rows: number;
  /** Months stored (with at least one active order). */
  months: string[];
  /** Months not stored: over 9 KB alone. */
  big: string[];
  /** Months before this one were left out (total size or count): not known. */
  before: string | null;
  /** The orders window's first day (YYYY-MM-DD) when one is set: Orders holds no order placed before it. */
  since: string | null;
}

/**
 * At sync time: the figures of every placed day of `rows` (the whole Orders sheet), replacing what
 * was stored. True when they changed: the formulas showing them must be recalculated (a run that
 * wrote nothing new can still count differently, e.g. the first tie-out after an interrupted one).
 * `since`: the orders window's first day, null when every order is synced.
 */
export function saveCostGapDays(props: Properties, rows: readonly CostGapRow[], since: string | null = null): boolean {
  return saveCostGapMonths(props, costGapMonthsOf(rows), rows.length, since);
}

/**
 * As saveCostGapDays, from months already counted (the day sums the sync keeps as it writes).
 * `storedNow`: the properties as stored, when the caller knows them without a read (a sync run's
 * whole read under its lock and its writes since: runStateAsStored).
 */
export function saveCostGapMonths(
  props: Properties,
  counted: ReadonlyMap<string, CostGapMonth>,
  rowCount: number,
  since: string | null = null,
  storedNow: Readonly<Record<string, string>> | null = null,
): boolean {
  const months = [...counted].sort(([a], [b]) => (a < b ? 1 : -1));
  const index: CostGapIndex = { rows: rowCount, months: [], big: [], before: null, since };
  const values: Record<string, string> = {};
  let total = 0;
  for (const [month, days] of months) {
    const text = JSON.stringify(days);
    const bytes = utf8Bytes(text) + utf8Bytes(monthKey(month));
    if (bytes > PROPERTY_VALUE_MAX_BYTES) {
      index.big.push(month);
      continue;
    }
    if (total + bytes > TOTAL_MAX_BYTES || index.months.length + index.big.length >= MAX_MONTHS) {
      index.before = index.months.length > 0 ? index.months[index.months.length - 1] : month;
      break;
    }
    total += bytes;
    index.months.push(month);
    values[monthKey(month)] = text;
  }
  values[INDEX_KEY] = JSON.stringify(index);
  const stored = storedNow ?? props.getProperties();
  const stale = (parseIndex(stored[INDEX_KEY] ?? null)?.months ?? []).map(monthKey).filter((key) => !(key in values));
  // Only what differs from the store: each further 16 KB a setProperties moves is billed (apps-script-cost-model.md).
  const changed = Object.fromEntries(Object.entries(values).filter(([key, text]) => stored[key] !== text));
  if (stale.length === 0 && Object.keys(changed).length === 0) return false;
  // The months and their index in one call: a formula never reads an index naming months not written.
  if (Object.keys(changed).length > 0) props.setProperties(changed);
  for (const key of stale) props.deleteProperty(key);
  return true;
}

/**
 * In a formula: the count for [start, end] (YYYY-MM-DD), or why there is none: the sync has not
 * counted any Orders data yet, the period starts before the orders window, or it touches a month
 * not kept. Reads the index and the period's months.
 */
export function readCostGapDays(
  props: Properties,
  start: string,
  end: string,
  storeCurrency: string | null,
): CostGapsRead {
  const index = readIndex(props);
  if (index === null || index.rows === 0) return { notCounted: 'not-synced' };
  if (index.since !== null && start < index.since) return { notCounted: 'orders-window', since: index.since };
  const wanted = monthsBetween(start, end);
  const big = wanted.find((m) => index.big.includes(m));
  if (big !== undefined) return { notCounted: 'month-too-big', month: big };
  if (index.before !== null && wanted[0] < index.before) return { notCounted: 'older-months', before: index.before };
  const stored = wanted.filter((m) => index.months.includes(m));
  const all = stored.length > READ_ONE_BY_ONE ? props.getProperties() : null;
  const months = new Map<string, CostGapMonth>();
  for (const month of stored) {
    const days = parseCostGapMonth(all ? (all[monthKey(month)] ?? null) : props.getProperty(monthKey(month)));
    // Named by the index but not readable: not counted, rather than counted short.
    if (days === null) return { notCounted: 'not-synced' };
    months.set(month, days);
  }
  return costGapsOfMonths(months, storeCurrency, start, end);
}

function readIndex(props: Properties): CostGapIndex | null {
  return parseIndex(props.getProperty(INDEX_KEY));
}

function parseIndex(text: string | null): CostGapIndex | null {
  if (text === null) return null;
  try {
    const index = JSON.parse(text) as Partial<CostGapIndex>;
    if (typeof index.rows !== 'number' || !Array.isArray(index.months) || !Array.isArray(index.big)) return null;
    const day = (value: unknown): string | null => (typeof value === 'string' ? value : null);
    return {
      rows: index.rows,
      months: index.months,
      big: index.big,
      before: day(index.before),
      since: day(index.since),
    };
  } catch {
    return null;
  }
}
