/**
 * What a listed page of orders says before it is planned: its latest updated_at and its estimated
 * share of a Values.batchUpdate.
 */
import type { Order } from '../api/types';
import { updatedAtMs } from '../api/record-check';
import { lastOccurrences } from './order-page';

/** The max updated_at of a page as planOrderPage finds it (each id's last occurrence), without planning it. */
export function maxUpdatedAtOf(orders: readonly Order[]): string | null {
  let max: string | null = null;
  let maxMs = -Infinity;
  for (const order of lastOccurrences(orders)) {
    const ms = updatedAtMs(order);
    if (!Number.isNaN(ms) && ms > maxMs) {
      maxMs = ms;
      max = order.updated_at;
    }
  }
  return max;
}

/**
 * A page's share of a Values.batchUpdate before it is planned: a row per order and line item, a
 * cell per field, as rowWritesBytes counts them (field names left out). Only decides when the feed
 * checkpoints; flush splits by the planned rows' own size.
 */
export function estimatedPageBytes(orders: readonly Order[]): number {
  let bytes = 0;
  const walk = (value: unknown, depth: number): void => {
    if (value === null || typeof value !== 'object') {
      bytes += 1 + (typeof value === 'string' ? value.length + 2 : String(value).length);
      return;
    }
    // Hostile records nest deep: what lies below a few levels is not a cell of its own.
    if (depth > 4) return;
    for (const v of Object.values(value as Record<string, unknown>)) walk(v, depth + 1);
  };
  for (const order of orders) {
    if (order === null || typeof order !== 'object') continue;
    bytes += ROW_BYTES;
    for (const [key, value] of Object.entries(order)) {
      if (key === 'line_items' && Array.isArray(value)) {
        for (const item of value) {
          bytes += ROW_BYTES;
          walk(item, 1);
        }
      } else walk(value, 1);
    }
  }
  return bytes;
}
const ROW_BYTES = 32;
