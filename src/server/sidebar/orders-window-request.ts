import type { OrdersWindowRequest } from '../../contract/sidebar';
import { isCalendarDate } from '../platform/calendar';

/** Checks what the sidebar sent before anything is changed: bad input gets a clear error and changes nothing. */
export function parseOrdersWindowRequest(input: unknown): OrdersWindowRequest {
  const value = input !== null && typeof input === 'object' ? (input as Record<string, unknown>) : null;
  if (!value || !('createdAfter' in value))
    throw new Error('Nothing was changed: choose the first day of orders to keep.');
  const createdAfter = value.createdAfter;
  if (createdAfter === null) return { createdAfter: null };
  if (typeof createdAfter !== 'string' || !isCalendarDate(createdAfter)) {
    throw new Error('Nothing was changed: the first day must be a date like 2025-01-31.');
  }
  return { createdAfter };
}
