/** What the sidebar says about records the sync could not write (the skipped records). Pure. */

/** The sync state's list of skipped records, as the sidebar receives it (no request of its own). */
export interface SkippedView {
  /** Oldest first; `day` is the placement day (store zone) when known: its tie-out shows ✗. */
  orders: Array<{ id: string; day: string | null; reason: string }>;
  products: Array<{ id: string; reason: string }>;
  /** Daily P&L days (YYYY-MM-DD) left as they were: never shown as a day without figures. */
  days?: Array<{ day: string; reason: string }>;
}

/** "Not synced: order ord_1 (placed 2026-11-20). The service sent values …", or null when none. */
export function skippedRecordsText(view: SkippedView): string | null {
  const named = [
    ...view.orders.map((o) => `order ${o.id}${o.day ? ` (placed ${o.day})` : ''}`),
    ...view.products.map((p) => `product ${p.id}`),
    ...(view.days ?? []).map((d) => `the Daily P&L of ${d.day}`),
  ];
  if (named.length === 0) return null;
  return `Not synced: ${named.join(', ')}. The service sent values that cannot be written to the sheet; every other record is synced and these are tried again on every run.`;
}
