/**
 * PROFIT_SUMMARY's rows on orders with incomplete costs in the period: how many, and their net
 * revenue, by placed_date. The API's summary gives the unit coverage only; these rows say where
 * profit is overstated. Counted at sync time from the synced Orders sheet and kept per day
 * (finance/cost-gap-days-store.ts): a formula reads the period's months, never the Orders sheet,
 * so a cell costs the same on a store of 1,000 orders as on one of 100,000. Before the sync has
 * counted them the values stay empty (unknown), never 0. Net revenue is the summary's currency's;
 * orders in another currency get a row of their own per currency and are named in the note, never
 * added to it.
 */
import type { CostGaps } from '../finance/cost-gaps';
import { readCostGapDays } from '../finance/cost-gap-days-store';
import { documentProperties } from '../platform/properties';
import { otherCurrenciesText } from '../../contract/cost-gaps-text';
import type { Cell, Table } from './tables';

export const COST_GAP_METRICS = ['orders_with_incomplete_costs', 'net_revenue_with_incomplete_costs'] as const;

/** The count for [start, end] (YYYY-MM-DD, placed_date) as the last sync kept it, or null when there is none. */
export function readCostGaps(start: string, end: string, storeCurrency: string | null): CostGaps | null {
  return readCostGapDays(documentProperties(), start, end, storeCurrency);
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
