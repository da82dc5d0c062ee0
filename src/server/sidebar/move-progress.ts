/**
 * The "Where orders go" card's line while the sheets' orders move into BigQuery (pure): how far the
 * copy has come, and that the sheets keep every row until the copy is proven and a tie-out in
 * BigQuery is ✓. Without it a user sees BigQuery chosen and a full Orders sheet, and cannot tell a
 * move under way from one that failed.
 */
import type { SwitchRecord } from '../bigquery/switch-record';

const count = (n: number): string => n.toLocaleString('en-US');

export function moveProgress(record: SwitchRecord | null): string | null {
  if (record === null) return null;
  const where = `${record.to.projectId}.${record.to.datasetId}`;
  if (record.phase === 'copied')
    return (
      `The copy in BigQuery (${where}) is proven equal to the sheets: ${count(record.orders)} orders, ` +
      `${count(record.lineItems)} line items. The Orders and Line items sheets are emptied once the next tie-out in BigQuery is ✓.`
    );
  const copied =
    record.phase === 'orders'
      ? `${count(record.orders)} orders copied so far`
      : `all ${count(record.orders)} orders and ${count(record.lineItems)} line items copied so far`;
  return (
    `Moving the orders these sheets hold into BigQuery (${where}): ${copied}. ` +
    'Each sync carries the move on; the sheets keep every row until the copy is proven.'
  );
}
