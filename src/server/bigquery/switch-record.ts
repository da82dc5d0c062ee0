/**
 * The move of what the Orders and Line items sheets hold into BigQuery, as it stands between
 * executions: one document property written after each chunk's MERGE (so an execution ended
 * mid-chunk does that chunk again, and the MERGE on the key makes the repeat harmless), with the
 * sheets' own figures the copy is proven against once every chunk is in.
 */
import type { BigQueryDestination } from './destination-setting';

export const SWITCH_PROPERTY_KEY = 'ma.sync.switch';

export interface SwitchRecord {
  to: BigQueryDestination;
  /** The instant every moved row carries as its synced_at: the copy's proof counts the rows with it. */
  stamp: number;
  phase: 'orders' | 'line items' | 'copied';
  /** The next sheet row (1-based) of the sheet being copied. */
  nextRow: number;
  /** What the sheets held, summed as the chunks went in. */
  orders: number;
  lineItems: number;
  netRevenueCents: number;
  netProfitCents: number;
  /** When the copy was proven equal to the sheets: a tie-out after it frees their cells. */
  copiedAt: number | null;
}

export function startSwitch(to: BigQueryDestination, now: number): SwitchRecord {
  return {
    to,
    stamp: now,
    phase: 'orders',
    nextRow: 2,
    orders: 0,
    lineItems: 0,
    netRevenueCents: 0,
    netProfitCents: 0,
    copiedAt: null,
  };
}

/** The stored record, or null when no move is under way (an unreadable one is none: the sheets keep every cell). */
export function readSwitch(stored: string | null | undefined): SwitchRecord | null {
  if (!stored) return null;
  try {
    const r = JSON.parse(stored) as SwitchRecord;
    if (r && typeof r === 'object' && r.to && r.to.kind === 'bigquery' && typeof r.stamp === 'number') return r;
  } catch {
    // Unreadable: no move.
  }
  return null;
}
