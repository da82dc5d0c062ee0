/** The Columns card's sentences, from the state's figures (pure: shared with its unit test). */
import type { ColumnFitView, ColumnsView } from '../contract/sidebar';

/**
 * "About" a figure: three significant digits, so two figures shown side by side keep their ratio
 * within half a percent (a cruder rounding could show 2× as less).
 */
export function aboutCount(n: number): string {
  const rounded = n < 1000 ? Math.floor(n) : Number(n.toPrecision(3));
  return rounded.toLocaleString('en-US');
}

function perOrder(n: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

export function fitText(fit: ColumnFitView | null): string {
  if (!fit) return 'How many orders fit in 10 M cells is known after the first sync (it depends on the line items per order).';
  return `In 10 M cells: about ${aboutCount(fit.essentials)} orders with Essentials, ${aboutCount(fit.all)} with All (${perOrder(fit.lineItemsPerOrder)} line items per order).`;
}

export function chosenFitText(fit: ColumnFitView | null): string | null {
  if (!fit) return null;
  return `Your choice: ~${Math.round(fit.cellsPerOrder).toLocaleString('en-US')} cells per order, about ${aboutCount(fit.chosen)} orders.`;
}

export function fillingText(filling: ColumnsView['filling']): string | null {
  if (!filling) return null;
  return `Filling the added columns: ${filling.orders.toLocaleString('en-US')} orders so far.`;
}

export const SAVED_TEXT =
  'Saved. The next sync adds the chosen columns to the right of your sheets and fills them for the orders already there; columns you removed stay in place, their values cleared and marked as no longer synced. Clearing frees no cells: delete a column you no longer need to free its cells.';
