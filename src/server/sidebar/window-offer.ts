/**
 * The created_after window the sidebar offers when the spreadsheet fills up (from 70 % of the
 * 10 M cells), when a sync stopped because the next page would not fit, or when the first
 * backfill was refused because its estimate would not fit. Pure.
 */
import type { CellsView, WindowOfferView } from '../../contract/sidebar';
import { addDays } from '../platform/calendar';
import type { CapacityFacts } from './ports';

/** Without an estimate, the proposal is the last year of orders. */
const DEFAULT_WINDOW_DAYS = 365;

function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

function proposal(facts: CapacityFacts): string {
  if (facts.estimate && facts.estimate.suggestedFrom) return facts.estimate.suggestedFrom;
  const yearAgo = addDays(facts.today, -(DEFAULT_WINDOW_DAYS - 1));
  if (facts.ordersWindow === null || facts.ordersWindow < yearAgo) return yearAgo;
  // Already within a year: propose halving what is kept.
  const [a, b] = [Date.parse(`${facts.ordersWindow}T00:00:00Z`), Date.parse(`${facts.today}T00:00:00Z`)];
  return new Date(a + Math.floor((b - a) / 2 / 86_400_000) * 86_400_000).toISOString().slice(0, 10);
}

export function windowOfferOf(cells: CellsView, facts: CapacityFacts): WindowOfferView | null {
  const estimate = facts.estimate;
  const refused = estimate !== null && !estimate.fits && estimate.createdAfter === facts.ordersWindow;
  let reason: WindowOfferView['reason'];
  let message: string;
  if (refused && estimate) {
    reason = 'would_not_fit';
    message =
      `The order history would not fit: about ${formatCount(estimate.orders)} orders need about ${formatCount(estimate.neededCells)} cells, ` +
      `and ${formatCount(estimate.freeCells)} are free. The sync did not start. Keep only recent orders:`;
  } else if (facts.stopped) {
    reason = 'stopped';
    message =
      "The last sync stopped: the next page of orders would pass Google's 10 million cells. Keep only recent orders to continue:";
  } else if (cells.warn) {
    reason = 'filling_up';
    message = `This spreadsheet uses ${cells.percent}% of Google's 10 million cells. To keep it from filling up, keep only recent orders:`;
  } else {
    return null;
  }
  return { reason, message, suggestedFrom: proposal(facts), latest: facts.today };
}
