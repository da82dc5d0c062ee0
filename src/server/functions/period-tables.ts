/**
 * PROFIT_MONTHLY's and MA_FRESHNESS's tables. Months are summed by the shared period sums, the
 * Monthly P&L sheet's own summation (cents, an unknown day leaves the month unknown for that
 * field, never a partial 0), and carry its key and status words.
 */
import { PROFIT_TOTALS_FIELDS } from '../api/types';
import type { Account, DailyRow } from '../api/types';
import { monthStatus, sumByPeriod, type DayFigures, type PnlFigures } from '../finance/period-sums';
import { metricByName, type Metric } from './metrics';
import { cell, dayCell, instantCell, type Table } from './tables';

/** Status of a month of the period that has not begun in the store's time zone (no day of it has figures). */
export const FUTURE_MONTH_STATUS = 'future: no figures yet';

function dayFigures(rows: readonly DailyRow[]): DayFigures[] {
  return rows.map((row) => {
    const record = row as unknown as Record<string, unknown>;
    const figures = Object.fromEntries(
      PROFIT_TOTALS_FIELDS.map((f) => [
        f,
        typeof record[f] === 'number' && Number.isFinite(record[f]) ? record[f] : null,
      ]),
    ) as PnlFigures;
    return { date: String(row.date), figures };
  });
}

/** YYYY-MM of each month from `from` to `to` (both YYYY-MM), in order. */
function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  let [y, m] = from.split('-').map(Number) as [number, number];
  for (let key = from; key <= to; key = `${y}-${String(m).padStart(2, '0')}`) {
    months.push(key);
    [y, m] = m === 12 ? [y + 1, 1] : [y, m + 1];
  }
  return months;
}

export interface MonthlyPeriod {
  /** The store's today, or null when every month of the period has ended (none is in progress). */
  today: string | null;
  /** The period's last day as asked: months after today up to it are listed with empty figures. */
  end: string;
}

/**
 * Header (`month`, `status`, `first_day`, `last_day`, `days`, then the metrics), one row per
 * calendar month, oldest first: the Monthly P&L sheet's key and columns, so a VLOOKUP from one to
 * the other finds the month. `month` is YYYY-MM text (the sheet's key; first_day and last_day are
 * the dates to compute with); `status` is the sheet's (`partial: month in progress`, `partial: <first>
 * to <last> only`, `complete`) and a month not begun says so, its figures empty, never 0.
 */
export function monthlyTable(
  rows: DailyRow[],
  timeZone: string,
  metrics: Metric[] | null,
  historyFrom: string | null,
  period: MonthlyPeriod,
): Table {
  const columns = metrics ?? PROFIT_TOTALS_FIELDS.map((f) => metricByName(f)!);
  const monthHeader = historyFrom === null ? 'month' : `month (plan history from ${historyFrom})`;
  const table: Table = [[monthHeader, 'status', 'first_day', 'last_day', 'days', ...columns.map((m) => m.name)]];
  const months = sumByPeriod(dayFigures(rows));
  // Without a today every month of the period has ended: none of them is in progress.
  const today = period.today ?? '9999-12-31';
  for (const m of months) {
    const figures = m.figures as Record<string, unknown>;
    table.push([
      m.key,
      monthStatus(m, today),
      dayCell(m.firstDay, timeZone),
      dayCell(m.lastDay, timeZone),
      m.days,
      ...columns.map((c) => cell(c.read(figures))),
    ]);
  }
  if (period.today !== null && period.end > period.today) {
    const from = months.length > 0 ? months[months.length - 1].key : period.today.slice(0, 7);
    for (const month of monthsBetween(from, period.end.slice(0, 7)).filter((key) => key > period.today!.slice(0, 7))) {
      table.push([month, FUTURE_MONTH_STATUS, '', '', 0, ...columns.map(() => '')]);
    }
  }
  return table;
}

/**
 * 2 columns (field, value): the service's last sync of the store's data from its platform (the
 * API's data_availability.last_sync_at, labelled so it does not read as this spreadsheet's sync:
 * that is in the Sync log), whether it is stale, and the plan's history.
 */
export function freshnessTable(account: Account): Table {
  const availability = ((account as unknown as Record<string, unknown>).data_availability ?? {}) as Record<
    string,
    unknown
  >;
  return [
    ['field', 'value'],
    ['store_data_synced_at', instantCell(availability.last_sync_at)],
    ['stale', typeof availability.stale === 'boolean' ? availability.stale : ''],
    ['history_days', cell(availability.history_days)],
    ['history_available_from', cell(availability.available_from)],
  ];
}
