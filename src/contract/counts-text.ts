/**
 * What a sync wrote, in one line a finance person can check against the sheets. Shared by the
 * sidebar and the menu's toast so both say it the same way, with the sums both sides keep. Pure (no
 * DOM, no Apps Script).
 */
import type { SyncCounts } from './sidebar';

export function emptyCounts(): SyncCounts {
  return { ordersAdded: 0, ordersUpdated: 0, lineItems: 0, products: 0, variants: 0, days: 0 };
}

export function sumCounts(a: SyncCounts, b: SyncCounts): SyncCounts {
  return {
    ordersAdded: a.ordersAdded + b.ordersAdded,
    ordersUpdated: a.ordersUpdated + b.ordersUpdated,
    lineItems: a.lineItems + b.lineItems,
    products: a.products + b.products,
    variants: a.variants + b.variants,
    days: a.days + b.days,
  };
}

function count(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** "1,200 orders added, 40 updated · 3,410 line items · 12 products · 30 variants · 90 days of P&L" */
export function countsText(counts: SyncCounts): string {
  const parts: string[] = [];
  if (counts.ordersAdded > 0 || counts.ordersUpdated > 0) parts.push(`${count(counts.ordersAdded, 'order', 'orders')} added, ${counts.ordersUpdated.toLocaleString('en-US')} updated`);
  if (counts.lineItems > 0) parts.push(count(counts.lineItems, 'line item', 'line items'));
  if (counts.products > 0) parts.push(count(counts.products, 'product', 'products'));
  if (counts.variants > 0) parts.push(count(counts.variants, 'variant', 'variants'));
  if (counts.days > 0) parts.push(`${count(counts.days, 'day', 'days')} of P&L`);
  return parts.length > 0 ? parts.join(' · ') : 'Nothing new to write';
}
