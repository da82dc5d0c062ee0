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
  if (!fit)
    return 'How many orders fit in 10 M cells is known after the first sync (it depends on the line items per order).';
  return `In 10 M cells: about ${aboutCount(fit.essentials)} orders with Essentials, ${aboutCount(fit.all)} with All (${perOrder(fit.lineItemsPerOrder)} line items per order).`;
}

export function chosenFitText(fit: ColumnFitView | null): string | null {
  if (!fit) return null;
  return `Your choice: ~${Math.round(fit.cellsPerOrder).toLocaleString('en-US')} cells per order, about ${aboutCount(fit.chosen)} orders.`;
}

/** Said wherever columns are no longer synced: deleting them is the only way their cells are freed. */
export const NOT_SYNCED_SPACE =
  'Columns no longer synced still take space until you delete them (right-click the column letter → Delete column).';

/**
 * What the sheets hold beside the choice: after Apply and a sync, the columns no longer synced keep
 * their cells (Google counts every cell of a sheet, empty or not), so the choice's figures apply
 * only once they are deleted. Null when the sheets hold just the choice.
 */
export function heldFitText(fit: ColumnFitView | null): string | null {
  const count = fit?.notSyncedColumns ?? 0;
  if (!fit || count === 0 || fit.held === undefined || fit.heldCellsPerOrder === undefined) return null;
  const columns =
    count === 1 ? '1 column no longer synced' : `${count.toLocaleString('en-US')} columns no longer synced`;
  return `Your sheets now, with ${columns}: ~${Math.round(fit.heldCellsPerOrder).toLocaleString('en-US')} cells per order, about ${aboutCount(fit.held)} orders. ${NOT_SYNCED_SPACE}`;
}

export function fillingText(filling: ColumnsView['filling']): string | null {
  if (!filling) return null;
  return `Filling the added columns: ${filling.orders.toLocaleString('en-US')} orders so far.`;
}

export const SAVED_TEXT =
  'Saved. The next sync adds the chosen columns to the right of your sheets and fills them for the orders already there; columns you removed stay in place, their values cleared and marked as no longer synced. Clearing frees no cells: delete a column you no longer need to free its cells.';
