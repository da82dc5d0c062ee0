/**
 * The proof that the move's copy equals what the sheets held: the rows the move wrote (those
 * carrying its synced_at) counted and their net revenue and net profit summed to the cent in one
 * query, against the same figures the move summed from the sheets' cells as it read them. Whole
 * cents on both sides (GoogleSQL ROUND: half away from zero, as centsOf), so the comparison is
 * exact, never a float's.
 */
import type { TableNames } from './merge-sql';
import { tablePath } from './merge-sql';
import { queryRows } from './query';
import type { SwitchRecord } from './switch-record';
import { LINE_ITEMS_TABLE, ORDERS_TABLE } from './table-schemas';

/** A NUMERIC's decimal text in whole cents, rounded half away from zero; 0 for NULL (the query's SUM skips NULL). */
export function centsOf(value: string | number | boolean | null): number {
  if (typeof value !== 'string' || value === '') return 0;
  const negative = value.charAt(0) === '-';
  const [whole, fraction = ''] = value.replace(/^[-+]/, '').split('.');
  const digits = (fraction + '000').slice(0, 3);
  let cents = Number(whole) * 100 + Number(digits.slice(0, 2));
  if (Number(digits.charAt(2)) >= 5) cents += 1;
  return negative ? -cents : cents;
}

export interface CopyFigures {
  orders: number;
  lineItems: number;
  netRevenueCents: number;
  netProfitCents: number;
}

const cents = (column: string) => `COALESCE(SUM(CAST(ROUND(${column} * 100) AS INT64)), 0)`;

/** The moved rows' figures as BigQuery holds them (two queries: one per table). */
export function copiedFigures(names: TableNames, stamp: number): CopyFigures {
  const parameters = [{ name: 'stamp', type: 'TIMESTAMP' as const, value: new Date(stamp).toISOString() }];
  const [orders] = queryRows(
    names.projectId,
    `SELECT COUNT(*) AS orders, ${cents('net_revenue')} AS net_revenue, ${cents('net_profit')} AS net_profit ` +
      `FROM ${tablePath(names, ORDERS_TABLE.tableId)} WHERE synced_at = @stamp`,
    parameters,
  );
  const [lines] = queryRows(
    names.projectId,
    `SELECT COUNT(*) AS line_items FROM ${tablePath(names, LINE_ITEMS_TABLE.tableId)} WHERE synced_at = @stamp`,
    parameters,
  );
  return {
    orders: Number(orders?.orders ?? 0),
    lineItems: Number(lines?.line_items ?? 0),
    netRevenueCents: Number(orders?.net_revenue ?? 0),
    netProfitCents: Number(orders?.net_profit ?? 0),
  };
}

/** The differences between the sheets' figures and the copy's, in the user's words; [] when equal. */
export function copyDifferences(sheets: SwitchRecord, copy: CopyFigures): string[] {
  const out: string[] = [];
  const money = (c: number) => (c / 100).toFixed(2);
  if (sheets.orders !== copy.orders) out.push(`${sheets.orders} orders in the sheets, ${copy.orders} in BigQuery`);
  if (sheets.lineItems !== copy.lineItems)
    out.push(`${sheets.lineItems} line items in the sheets, ${copy.lineItems} in BigQuery`);
  if (sheets.netRevenueCents !== copy.netRevenueCents)
    out.push(`net revenue ${money(sheets.netRevenueCents)} in the sheets, ${money(copy.netRevenueCents)} in BigQuery`);
  if (sheets.netProfitCents !== copy.netProfitCents)
    out.push(`net profit ${money(sheets.netProfitCents)} in the sheets, ${money(copy.netProfitCents)} in BigQuery`);
  return out;
}
