/**
 * What a sync wrote, in one line a finance person can check against the sheets and the Sync log.
 * Shared by the sidebar and the menu's toast so both say it the same way, with the sums both sides
 * keep. Pure (no DOM, no Apps Script).
 */
import type { SyncCounts } from './sidebar';

export function emptyCounts(): SyncCounts {
  return {
    ordersAdded: 0,
    ordersUpdated: 0,
    ordersCancelled: 0,
    ordersRestored: 0,
    ordersGone: 0,
    lineItems: 0,
    products: 0,
    variants: 0,
    days: 0,
  };
}

export function sumCounts(a: SyncCounts, b: SyncCounts): SyncCounts {
  return {
    ordersAdded: a.ordersAdded + b.ordersAdded,
    ordersUpdated: a.ordersUpdated + b.ordersUpdated,
    ordersCancelled: a.ordersCancelled + b.ordersCancelled,
    ordersRestored: a.ordersRestored + b.ordersRestored,
    ordersGone: a.ordersGone + b.ordersGone,
    lineItems: a.lineItems + b.lineItems,
    products: a.products + b.products,
    variants: a.variants + b.variants,
    days: a.days + b.days,
  };
}

/** Rows written in all: 0 means the run found nothing that changed. */
export function rowsWritten(counts: SyncCounts): number {
  return (
    counts.ordersAdded +
    counts.ordersUpdated +
    counts.ordersGone +
    counts.lineItems +
    counts.products +
    counts.variants +
    counts.days
  );
}

function n(value: number): string {
  return value.toLocaleString('en-US');
}

/** "1 day of P&L", "2 days of P&L": the noun agrees with its number (never "day(s)"). */
export function counted(value: number, one: string, many: string): string {
  return `${n(value)} ${value === 1 ? one : many}`;
}

/**
 * "Orders: 1,200 new, 40 updated (2 cancelled, 1 restored: a deleted row put back) · 3,410 line items · …".
 * Every figure is said, zeros included, so the line reads the same as the run's Sync log row.
 */
export function countsText(counts: SyncCounts): string {
  const parts = [
    counts.ordersCancelled > 0 ? `${n(counts.ordersCancelled)} cancelled` : '',
    counts.ordersRestored > 0
      ? `${n(counts.ordersRestored)} restored: ${counts.ordersRestored === 1 ? 'a deleted row' : 'deleted rows'} put back`
      : '',
  ].filter((p) => p !== '');
  const cancelled = parts.length > 0 ? ` (${parts.join(', ')})` : '';
  const gone = counts.ordersGone > 0 ? `, ${n(counts.ordersGone)} gone` : '';
  return [
    `Orders: ${n(counts.ordersAdded)} new, ${n(counts.ordersUpdated)} updated${cancelled}${gone}`,
    counted(counts.lineItems, 'line item', 'line items'),
    counted(counts.products, 'product', 'products'),
    counted(counts.variants, 'variant', 'variants'),
    counted(counts.days, 'day of P&L', 'days of P&L'),
  ].join(' · ');
}

const ORDER: ReadonlyArray<keyof SyncCounts> = [
  'ordersAdded',
  'ordersUpdated',
  'ordersCancelled',
  'ordersGone',
  'lineItems',
  'products',
  'variants',
  'days',
  // Added later: a record of 8 numbers (an older version's) has none restored.
  'ordersRestored',
];

/** The counts as numbers (kept with each recent run in document properties, where space is short). */
export function packCounts(counts: SyncCounts): number[] {
  return ORDER.map((key) => counts[key]);
}

/** Null when `packed` is not what packCounts wrote (a record from an older version). */
export function unpackCounts(packed: unknown): SyncCounts | null {
  if (
    !Array.isArray(packed) ||
    (packed.length !== ORDER.length && packed.length !== ORDER.length - 1) ||
    !packed.every((n) => typeof n === 'number' && Number.isFinite(n))
  )
    return null;
  const counts = emptyCounts();
  ORDER.forEach((key, i) => (counts[key] = (packed[i] as number | undefined) ?? 0));
  return counts;
}
