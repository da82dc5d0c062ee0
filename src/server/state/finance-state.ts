/** What the finance sheets keep in the sync state: closed months, the P&L basis, the tie-out and cost gaps. */
import type { CurrencyGap } from '../../contract/cost-gaps-text';

/** A closed month as the last sync found it against its close (the restatements). */
export interface ClosedMonthRecord {
  month: string;
  netProfitChange: number;
  changedDays: number;
  changedValues: number;
  basisChanged: boolean;
  currency: string | null;
}

/** The basis of the P&L figures as the service last reported it (recordBasis), and when. */
export interface BasisState {
  text: string | null;
  checkedAt: number | null;
}

/** The latest tie-out (the tie-out sheet), for the sidebar and the next run's blanking. */
export interface TieoutState {
  checkedAt: number | null;
  days: number;
  /** The first days (YYYY-MM-DD) and months (YYYY-MM, a Monthly P&L row alone) that did not tie out (the Checks sheet lists them all). */
  failedDays: string[];
  failedCount: number;
  /** The first days compared that hold orders in another currency (not ✗: not comparable), and how many there are. */
  notCompared?: string[];
  notComparedCount?: number;
  /** Data rows the Checks sheet holds. */
  rows: number;
  /** The plan window's first day when it cut the range, else null. */
  cutFrom: string | null;
  /** The first day whose Daily P&L and Monthly P&L figures the tie-out proved, and the first day of orders it summed. */
  provenFrom?: string | null;
  ordersFrom?: string | null;
  /** When Sync now last fetched the ✗ days' orders again (the ✗-day refetch): once per tie-out, not on every step. */
  refetchedAt?: number | null;
  /** ✗ days a refetch has fetched again and that have not tied out since: a scheduled run does not fetch them again. */
  refetchedDays?: string[];
  /** Why the last tie-out due did not run ("Tie-out not run this time: …"); cleared by the next one that runs. */
  notRun?: string | null;
  /** When a run that brought the sheets up to date had no budget left for its due tie-out: the next run owes it. */
  owedSince?: number | null;
  /** Closed months whose close sheet no longer holds what the close saved (the close seal). */
  closesChanged?: string[];
  /** Rows of Orders and the Daily P&L that repeat an earlier row's key (the tie-out duplicates): Sync now clears them. */
  duplicateRows?: number;
  /** What the Checks sheet's rows say, their checked-at cells aside: a digest per block of rows (changedChecksRows); unchanged rows are not written again. */
  rowDigests?: string;
  rowsPerDigest?: number;
  /** When the last tie-out that wrote a Checks row ran: a row's checked-at later than it was typed by hand. */
  rowsWrittenAt?: number;
}

/** Orders with incomplete costs as the last read of the whole Orders sheet found them (costGapsOf). */
export interface CostGapsState {
  orders: number;
  /** In the store's currency (meta.storeCurrency); other currencies are in otherCurrencies, never added. null: unknown (a cell holds no number). */
  netRevenue: number | null;
  ordersCounted: number;
  otherCurrencies: CurrencyGap[];
  /** Epoch ms of that read; null before the first. */
  checkedAt: number | null;
}
