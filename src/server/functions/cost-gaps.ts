/**
 * PROFIT_SUMMARY's rows on orders with incomplete costs in the period: how many, and their net
 * revenue, counted from the synced Orders sheet (finance/cost-gaps.ts) by placed_date. The API's
 * summary gives the unit coverage only; these rows say where profit is overstated. A custom
 * function may read the spreadsheet: two column blocks of Orders through SpreadsheetApp (dates
 * arrive as Date values in the spreadsheet's zone). Without an Orders sheet the values stay empty
 * (unknown), never 0. Net revenue is the summary's currency's; orders in another currency get a row
 * of their own per currency and are named in the note, never added to it.
 */
import { COST_GAP_COLUMNS, costGapsOf, type CostGaps, type CostGapRow } from '../finance/cost-gaps';
import { instantToLocalDate, serialToDate } from '../sheets/cells';
import { ORDERS } from '../sheets/schema';
import { readColumnsAs } from './sheet-columns';
import { otherCurrenciesText } from '../../contract/cost-gaps-text';
import type { Cell, Table } from './tables';

export const COST_GAP_METRICS = ['orders_with_incomplete_costs', 'net_revenue_with_incomplete_costs'] as const;

function dayOf(cell: unknown, timeZone: string): string | null {
  if (cell instanceof Date) return instantToLocalDate(cell.getTime(), timeZone);
  if (typeof cell === 'number') return serialToDate(cell);
  return typeof cell === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(cell) ? cell : null;
}

/** The Orders sheet's count for [start, end] (YYYY-MM-DD, placed_date), or null when there is no Orders data. */
export function readCostGaps(start: string, end: string, timeZone: string, storeCurrency: string | null): CostGaps | null {
  const sheet = SpreadsheetApp.getActive().getSheetByName(ORDERS.sheetName);
  if (!sheet || sheet.getLastRow() < 2) return null;
  const c = COST_GAP_COLUMNS;
  const rows = readColumnsAs(sheet, ['status', 'placed_date', 'currency', 'net_revenue', 'cogs_source', 'cogs_coverage_pct'], [c.status, c.placed, c.currency, c.netRevenue, c.source, c.coverage], ORDERS.columns.length);
  if (rows === null) return null;
  const gapRows: CostGapRow[] = rows.map((row) => ({
    status: row[c.status],
    placedDay: dayOf(row[c.placed], timeZone),
    netRevenue: row[c.netRevenue],
    currency: row[c.currency],
    source: row[c.source],
    coverage: row[c.coverage],
  }));
  return costGapsOf(gapRows, storeCurrency, start, end);
}

/** The rows PROFIT_SUMMARY's table ends with; `currency` is the summary's (the store's). */
export function costGapTableRows(gaps: CostGaps | null, currency: string | null): Table {
  if (gaps === null) {
    return [
      ['orders_with_incomplete_costs', ''],
      ['net_revenue_with_incomplete_costs', ''],
      ['incomplete_costs_note', 'No Orders sheet yet: run Sync now to count orders with incomplete costs.'],
    ];
  }
  const others = netRevenueNote(gaps, currency);
  return [
    ['orders_with_incomplete_costs', gaps.orders],
    ['net_revenue_with_incomplete_costs', gaps.netRevenue],
    ...gaps.otherCurrencies.map((g): Cell[] => [`net_revenue_with_incomplete_costs_${g.currency.toLowerCase()}`, g.netRevenue]),
    ['incomplete_costs_note', `Orders whose cost is unknown or only partly known (Orders: cost_status): their profit is overstated by the missing costs.${others === '' ? '' : ` ${others}`}`],
  ];
}

/** What net_revenue_with_incomplete_costs leaves out: '' when every such order is in the store's currency. */
export function netRevenueNote(gaps: CostGaps, currency: string | null): string {
  if (gaps.otherCurrencies.length === 0) return '';
  return `net_revenue_with_incomplete_costs is in ${currency ?? "the store's currency"} only; not added to it (amounts keep their currency): ${otherCurrenciesText(gaps.otherCurrencies)}.`;
}
