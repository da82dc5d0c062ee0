/** The created_after window the orders sync keeps to when a store's full history would not fit. */
import { currentSpreadsheet } from '../platform/context';
import { instantToLocalDate, isCalendarDate } from '../platform/calendar';
import { documentProperties } from '../platform/properties';
import { SyncStateStore } from '../state/sync-state';
import { FixRequestError } from './request-error';
import { earlierOf } from './job-context';

export class OrdersWindowError extends FixRequestError {
  constructor(userMessage: string) {
    super('invalid_window', userMessage);
    this.name = 'OrdersWindowError';
  }
}

/**
 * Limits the orders sync to orders placed on or after `createdAfter` (YYYY-MM-DD, store time
 * zone), for a store whose full history would not fit in one spreadsheet; null removes the limit.
 * Rows already in the sheet stay. A wider window (or none) than before restarts the orders feed
 * from the beginning, since older orders were never fetched (upserts keep rows unique). Changes to
 * orders placed before the window are still read, for their days only (the days before the window):
 * from where the orders feed had read (a narrower window), or where that read had got to (a wider one).
 */
export function setOrdersWindow(createdAfter: string | null): void {
  if (createdAfter !== null && !isCalendarDate(createdAfter)) {
    throw new OrdersWindowError('The start date must be a real date like 2025-01-31; nothing was changed.');
  }
  const state = new SyncStateStore(documentProperties());
  const zone =
    state.get('meta').storeTimeZone ?? currentSpreadsheet('setting the orders window').getSpreadsheetTimeZone();
  if (createdAfter !== null && createdAfter > instantToLocalDate(Date.now(), zone)) {
    throw new OrdersWindowError(
      'The start date is in the future: choose today or an earlier day; nothing was changed.',
    );
  }
  const orders = state.get('orders');
  if (createdAfter === orders.createdAfter) return;
  const widens = orders.createdAfter !== null && (createdAfter === null || createdAfter < orders.createdAfter);
  if (createdAfter !== null && !widens) {
    const before = orders.createdAfter === null ? null : (state.get('daily').beforeWindowWatermark ?? null);
    state.update('daily', { beforeWindowWatermark: earlierOf(before, orders.watermark) });
  }
  state.update('orders', widens ? { createdAfter, watermark: null, caughtUp: false } : { createdAfter });
  state.save('capacity', { stoppedAt: null, estimate: null });
}
