/**
 * The sidebar's Columns card: every Orders and Line items column with what the sync does with it,
 * and how many orders fit in Google's 10 million cells at each width, from the line items per
 * order synced so far (never guessed: null before the first orders). Pure.
 */
import type { ColumnsView, ColumnTableView } from '../../contract/sidebar';
import { CHOOSABLE_TABLES, chosenHeaders, keptColumns, type ChoosableTable } from '../sheets/column-choice';
import { SPREADSHEET_CELL_LIMIT } from '../sheets/managed-workbook';
import type { OrdersState } from '../state/sync-state';
import type { ColumnsState } from '../state/columns-state';

export function columnsView(columns: ColumnsState, rowCounts: OrdersState['rowCounts']): ColumnsView {
  const tables: ColumnTableView[] = CHOOSABLE_TABLES.map((catalog) => {
    const name = catalog.sheetName as ChoosableTable;
    const choice = columns.choice[name];
    const chosen = new Set(chosenHeaders(catalog, choice));
    const essential = new Set(chosenHeaders(catalog, { preset: 'essentials' }));
    const kept = keptColumns(catalog);
    const retired = new Set(columns.layouts[name]?.retired ?? []);
    return {
      table: name,
      preset: choice?.preset ?? 'all',
      columns: catalog.columns.map((c) => ({
        header: c.header,
        chosen: chosen.has(c.header),
        kept: kept.has(c.header),
        essential: essential.has(c.header),
        retired: retired.has(c.header),
      })),
    };
  });
  const fill = columns.fill;
  const filling = fill
    ? { orders: fill.orders, columns: Object.values(fill.columns).flatMap((list) => list ?? []) }
    : null;
  return { tables, fit: fitOf(columns, rowCounts), filling };
}

/**
 * Cells per order at a width: the order's row and its line items' rows. The current choice is
 * what the sync writes; the sheets also keep the columns it no longer writes (and the user's own)
 * until someone deletes them, so what they hold is said beside it.
 */
function fitOf(columns: ColumnsState, rowCounts: OrdersState['rowCounts']): ColumnsView['fit'] {
  if (!rowCounts || rowCounts.orders === 0) return null;
  const [orders, lines] = CHOOSABLE_TABLES;
  const perOrder = rowCounts.lineItems / rowCounts.orders;
  const synced = (catalog: typeof orders, preset: 'essentials' | 'all' | null): number =>
    chosenHeaders(catalog, preset ? { preset } : columns.choice[catalog.sheetName as ChoosableTable]).length;
  // The sheet's width: its layout (retired and the user's columns included) plus what the choice will add.
  const held = (catalog: typeof orders): number => {
    const name = catalog.sheetName as ChoosableTable;
    const headers = chosenHeaders(catalog, columns.choice[name]);
    const layout = columns.layouts[name];
    return layout
      ? layout.columns.length + headers.filter((h) => layout.columns.indexOf(h) < 0).length
      : headers.length;
  };
  const notSynced = (catalog: typeof orders): number => {
    const layout = columns.layouts[catalog.sheetName as ChoosableTable];
    return layout ? layout.retired.filter((h) => layout.columns.indexOf(h) >= 0).length : 0;
  };
  const width = (preset: 'essentials' | 'all' | null): number =>
    synced(orders, preset) + perOrder * synced(lines, preset);
  const heldWidth = held(orders) + perOrder * held(lines);
  const fits = (cells: number): number => Math.floor(SPREADSHEET_CELL_LIMIT / cells);
  const chosen = width(null);
  return {
    essentials: fits(width('essentials')),
    all: fits(width('all')),
    chosen: fits(chosen),
    lineItemsPerOrder: Math.round(perOrder * 100) / 100,
    cellsPerOrder: Math.round(chosen * 10) / 10,
    held: fits(heldWidth),
    heldCellsPerOrder: Math.round(heldWidth * 10) / 10,
    notSyncedColumns: notSynced(orders) + notSynced(lines),
  };
}
