/**
 * An Orders sheet as an earlier version set it up: every catalog column in the catalog's order (id
 * in column A), no stored layout and no column tags (that version kept neither). Built from a sheet synced now.
 */
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import type { Stack } from '../../dev/harness/index';
import { sheetTable } from './sync-support';

/** The columns as an earlier version set Orders up (its catalog order, id first). */
export const EARLIER_ORDER = [
  'id', 'status', 'placed_date', 'gone_at', 'synced_at', 'external_order_id', 'external_order_gid', 'order_number',
  'platform', 'store_id', 'created_at', 'updated_at', 'canceled_at', 'refunded_at', 'currency', 'financial_status',
  'fulfillment_status', 'sales_channel', 'is_first_order', 'customer_order_sequence', 'is_subscription_renewal',
  'gross_revenue', 'shipping_revenue', 'discount', 'tax', 'tax_included_in_price', 'refunds', 'net_revenue', 'cogs',
  'cogs_source', 'cogs_coverage_pct', 'fulfillment_cost', 'fulfillment_cost_source', 'payment_fee',
  'ad_spend_allocated', 'ad_spend_basis', 'contribution_profit', 'contribution_margin_pct', 'allocated_overhead',
  'net_profit', 'net_margin_pct', 'primary_source', 'is_paid', 'utm_source', 'utm_medium', 'utm_campaign', 'utm_term',
  'utm_content', 'landing_page', 'referrer', 'device_type', 'shipping_country_code', 'customer_ref', 'cost_status',
]; // prettier-ignore

/**
 * Rewrites the synced Orders sheet into the earlier layout: values and formats (of every grid row:
 * the set-up formats them all) moved with their heading, no row moved, and the stored layout removed.
 */
export function toEarlierOrdersLayout(stack: Stack): void {
  const model = (stack.runtime.workbook as unknown as Workbook).sheetByName('Orders') as SheetModel;
  const header = sheetTable(stack, 'Orders')[0].map(String);
  const cells = EARLIER_ORDER.map((h) => {
    const from = header.indexOf(h) + 1;
    const column: Array<{ value: unknown; format: string | undefined }> = [];
    for (let r = 1; r <= model.maxRows; r++)
      column.push({ value: model.value(r, from), format: model.format(r, from) });
    return column;
  });
  cells.forEach((column, c) =>
    column.forEach(({ value, format }, r) => {
      model.write(r + 1, c + 1, value === undefined ? {} : { value: value as never });
      model.setFormat(r + 1, c + 1, format);
    }),
  );
  // Nor any column tag (column-tags.ts): left in place, they would point at the moved columns.
  const workbook = stack.runtime.workbook as unknown as Workbook;
  workbook.developerMetadata = workbook.developerMetadata.filter(
    (m) => !(m.location.type === 'COLUMN' && m.location.sheetId === model.sheetId),
  );
  const columns = JSON.parse(stack.runtime.properties.document.get('ma.sync.columns') ?? '{}') as Record<
    string,
    Record<string, unknown>
  >;
  delete columns.layouts.Orders;
  stack.runtime.properties.document.set('ma.sync.columns', JSON.stringify(columns));
}
