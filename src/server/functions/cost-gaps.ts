/**
 * PROFIT_SUMMARY's rows on orders with incomplete costs in the period: how many, and their net
 * revenue, by placed_date. The API's summary gives the unit coverage only; these rows say where
 * profit is overstated. Counted at sync time from the synced Orders sheet and kept per day
 * (the cost-gap day store): a formula reads the period's months, never the Orders sheet,
 * so a cell costs the same on a store of 1,000 orders as on one of 100,000. Where they are not
 * counted (no sync yet, before the orders window, a month not kept) or an amount is unreadable,
 * the values stay empty (unknown) with a note saying why, never 0. Net revenue is the summary's currency's;
 * orders in another currency get a row of their own per currency and are named in the note, never
 * added to it.
 */
import { isNotCounted, type CostGaps, type CostGapsNotCounted, type CostGapsRead } from '../finance/cost-gaps';
import { readCostGapDays } from '../finance/cost-gap-days-store';
import { documentProperties } from '../platform/properties';
import { otherCurrenciesText } from '../../contract/cost-gaps-text';
import type { Cell, Table } from './tables';

export const COST_GAP_METRICS = ['orders_with_incomplete_costs', 'net_revenue_with_incomplete_costs'] as const;

/** The count for [start, end] (YYYY-MM-DD, placed_date) as the last sync kept it, or why there is none. */
export function readCostGaps(start: string, end: string, storeCurrency: string | null): CostGapsRead {
  return readCostGapDays(documentProperties(), start, end, storeCurrency);
}

/** Why the count is empty, and what (if anything) the user can do. */
export function notCountedNote(why: CostGapsNotCounted): string {
  switch (why.notCounted) {
    case 'not-synced':
      return 'No Orders sheet yet: run Sync now to count orders with incomplete costs.';
    case 'orders-window':
      return `Not counted: this period starts before ${why.since}, and Orders holds only orders placed since then (the orders window, "Keep only orders placed since…"); PROFIT_SUMMARY's totals come from the service and cover every order.`;
    case 'month-too-big':
      return `Not counted: ${why.month} has too many orders with incomplete costs, in too many currencies, for the count to be kept for formulas (Google's 9 KB limit per document property). See cost_status in Orders.`;
    case 'older-months':
      return `Not counted: counts are kept for formulas from ${why.before} on only (Google's size limit on document properties). See cost_status in Orders.`;
  }
}

/** The rows PROFIT_SUMMARY's table ends with; `currency` is the summary's (the store's). */
export function costGapTableRows(gaps: CostGapsRead, currency: string | null): Table {
  if (isNotCounted(gaps)) {
    return [
      ['orders_with_incomplete_costs', ''],
      ['net_revenue_with_incomplete_costs', ''],
      ['incomplete_costs_note', notCountedNote(gaps)],
    ];
  }
  const notes = [unknownNetRevenueNote(gaps), netRevenueNote(gaps, currency)]
    .filter((n) => n !== '')
    .map((n) => ` ${n}`)
    .join('');
  return [
    ['orders_with_incomplete_costs', gaps.orders],
    ['net_revenue_with_incomplete_costs', gaps.netRevenue ?? ''],
    ...gaps.otherCurrencies.map((g): Cell[] => [
      `net_revenue_with_incomplete_costs_${g.currency.toLowerCase()}`,
      g.netRevenue ?? '',
    ]),
    [
      'incomplete_costs_note',
      `Orders whose cost is unknown or only partly known (Orders: cost_status): their profit is overstated by the missing costs.${notes}`,
    ],
  ];
}

/** Why net_revenue_with_incomplete_costs is empty: '' when it is known. */
export function unknownNetRevenueNote(gaps: CostGaps): string {
  if (gaps.netRevenue !== null) return '';
  return 'net_revenue_with_incomplete_costs is unknown: the net_revenue cell of one of these orders in Orders holds no number.';
}

/** What net_revenue_with_incomplete_costs leaves out: '' when every such order is in the store's currency. */
export function netRevenueNote(gaps: CostGaps, currency: string | null): string {
  if (gaps.otherCurrencies.length === 0) return '';
  return `net_revenue_with_incomplete_costs is in ${currency ?? "the store's currency"} only; not added to it (amounts keep their currency): ${otherCurrenciesText(gaps.otherCurrencies)}.`;
}
