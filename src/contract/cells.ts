/**
 * Room in the spreadsheet: the cells gauge and the orders window offered when it fills up.
 * Part of the sidebar contract: JSON-safe, as everything crossing google.script.run.
 */

export interface CellsView {
  used: number;
  limit: number;
  /** used / limit * 100, rounded to one decimal. */
  percent: number;
  /** true from 70 %: the sidebar warns and suggests a created_after window. */
  warn: boolean;
  /** The orders window in force: only orders placed on or after this day (YYYY-MM-DD) are synced; null = all. */
  ordersWindow: string | null;
  /** Offered when the sheets fill up or a sync stopped for lack of room; null otherwise. */
  offer: WindowOfferView | null;
}

/** Why the sidebar offers a created_after window. */
export type WindowOfferReason = 'filling_up' | 'stopped' | 'would_not_fit';

export interface WindowOfferView {
  reason: WindowOfferReason;
  /** A sentence a finance person understands, with the figures behind the offer. */
  message: string;
  /** The day the sidebar proposes (YYYY-MM-DD, store time zone): it would fit at the store's order rate. */
  suggestedFrom: string;
  /** The latest day that can be chosen (today in the store's time zone). */
  latest: string;
}

/** Sidebar → "Keep only orders placed since…": the first day to keep, or null for the full history. */
export interface OrdersWindowRequest {
  createdAfter: string | null;
}
