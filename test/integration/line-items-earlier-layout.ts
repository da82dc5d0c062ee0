/**
 * A Line items sheet as the version before order_number set it up: every catalog column then in the
 * catalog's order (id in column A, no order_number), its layout stored and its columns tagged, the
 * first column not frozen. Built from a sheet synced now by moving its columns as Sheets does
 * (column-edits.ts: cells, widths and column tags move with their column; order_number's is deleted).
 */
import { reorderColumns } from '../../dev/gas-runtime/spreadsheet/column-edits';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import type { Stack } from '../../dev/harness/index';
import { sheetTable } from './sync-support';

/** The columns as that version set Line items up (its catalog order, id first). */
export const EARLIER_LINE_ORDER = [
  'id', 'order_id', 'sync_status', 'synced_at', 'sku', 'name', 'product_id', 'variant_id', 'quantity', 'price',
  'total', 'cogs', 'fulfillment_cost', 'refund_amount', 'refunded_quantity', 'cost_status',
]; // prettier-ignore

/** Rewrites the synced Line items sheet into the earlier layout, with the layout that version stored. */
export function toEarlierLineItemsLayout(stack: Stack): void {
  const workbook = stack.runtime.workbook as unknown as Workbook;
  const model = workbook.sheetByName('Line items') as SheetModel;
  const header = sheetTable(stack, 'Line items')[0].map(String);
  reorderColumns(
    workbook,
    model,
    EARLIER_LINE_ORDER.map((h) => header.indexOf(h) + 1),
    'the earlier Line items layout',
  );
  model.frozenColumns = 0;
  const columns = JSON.parse(stack.runtime.properties.document.get('ma.sync.columns') ?? '{}') as {
    layouts: Record<string, unknown>;
  };
  columns.layouts['Line items'] = { columns: EARLIER_LINE_ORDER, retired: [] };
  stack.runtime.properties.document.set('ma.sync.columns', JSON.stringify(columns));
}
