/**
 * PROFIT_MONTHLY's and MA_FRESHNESS's tables. Monthly sums are taken in cents (no float drift
 * over 31 days) and a month with an unknown day stays unknown for that field, never a partial 0.
 */
import { PROFIT_TOTALS_FIELDS } from '../api/types';
import type { Account, DailyRow } from '../api/types';
import { dayStartInstant } from '../sheets/cells';
import { metricByName, type Metric } from './metrics';
import { cell, type Cell, type Table } from './tables';

interface MonthSums {
  month: string;
  days: number;
  totals: Record<string, number | null>;
}

function sumByMonth(rows: DailyRow[]): MonthSums[] {
  const months = new Map<string, MonthSums>();
  for (const row of [...rows].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))) {
    const month = String(row.date).slice(0, 7);
    let sums = months.get(month);
    if (!sums) {
      sums = { month, days: 0, totals: Object.fromEntries(PROFIT_TOTALS_FIELDS.map((f) => [f, 0])) };
      months.set(month, sums);
    }
    sums.days += 1;
    const record = row as unknown as Record<string, unknown>;
    for (const field of PROFIT_TOTALS_FIELDS) {
      const value = record[field];
      const sum = sums.totals[field];
      sums.totals[field] = sum === null || typeof value !== 'number' || !Number.isFinite(value) ? null : sum + Math.round(value * 100);
    }
  }
  return [...months.values()].map((m) => ({ ...m, totals: Object.fromEntries(Object.entries(m.totals).map(([f, cents]) => [f, cents === null ? null : cents / 100])) }));
}

/**
 * Header (`month`, `days`, then the metrics), one row per calendar month, oldest first. `month`
 * is the 1st of the month as a date in the spreadsheet's zone; `days` says how many days of that
 * month the period holds, so a partial first or last month is visible.
 */
export function monthlyTable(rows: DailyRow[], timeZone: string, metrics: Metric[] | null, historyFrom: string | null): Table {
  const columns = metrics ?? PROFIT_TOTALS_FIELDS.map((f) => metricByName(f)!);
  const monthHeader = historyFrom === null ? 'month' : `month (plan history from ${historyFrom})`;
  const table: Table = [[monthHeader, 'days', ...columns.map((m) => m.name)]];
  for (const sums of sumByMonth(rows)) {
    const start = dayStartInstant(`${sums.month}-01`, timeZone);
    table.push([start === null ? sums.month : new Date(start), sums.days, ...columns.map((m) => cell(m.read(sums.totals)))]);
  }
  return table;
}

function instantCell(value: unknown): Cell {
  if (typeof value !== 'string') return '';
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms);
}

/** 2 columns (field, value): the service's last sync of the store, whether it is stale, and the plan's history. */
export function freshnessTable(account: Account): Table {
  const availability = ((account as unknown as Record<string, unknown>).data_availability ?? {}) as Record<string, unknown>;
  return [
    ['field', 'value'],
    ['last_sync_at', instantCell(availability.last_sync_at)],
    ['stale', typeof availability.stale === 'boolean' ? availability.stale : ''],
    ['history_days', cell(availability.history_days)],
    ['history_available_from', cell(availability.available_from)],
  ];
}
