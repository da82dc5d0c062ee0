/** What the sidebar shows about the sync: last runs, checkpoints, plan window, cell use. */
import { SPREADSHEET_CELL_LIMIT } from '../sheets/managed-workbook';
import { getSchedule, type Schedule } from './schedule';
import { instantToLocalDate } from '../sheets/cells';
import { isCalendarDate } from './calendar';
import { SyncStateStore, type RunRecord } from './state';

export const CELL_WARNING_SHARE = 0.7;

export interface SyncOverview {
  lastRuns: RunRecord[];
  watermarks: { orders: string | null; products: string | null };
  ordersCaughtUp: boolean;
  dailyHistoryDone: boolean;
  reconciliation: { lastCompletedAt: number | null; inProgress: boolean; intervalDays: number };
  historyAvailableFrom: string | null;
  truncated: boolean;
  cells: { used: number; limit: number; percent: number; warn: boolean };
  schedule: Schedule;
}

export function getSyncOverview(): SyncOverview {
  const state = new SyncStateStore(PropertiesService.getDocumentProperties());
  const used = SpreadsheetApp.getActive()
    .getSheets()
    .reduce((n, sheet) => n + sheet.getMaxRows() * sheet.getMaxColumns(), 0);
  const orders = state.get('orders');
  const reconcile = state.get('reconcile');
  const meta = state.get('meta');
  return {
    lastRuns: state.get('lastRuns'),
    watermarks: { orders: orders.watermark, products: state.get('products').watermark },
    ordersCaughtUp: orders.caughtUp,
    dailyHistoryDone: state.get('daily').historyDone,
    reconciliation: { lastCompletedAt: reconcile.lastCompletedAt, inProgress: reconcile.passStartedAt !== null, intervalDays: reconcile.intervalDays },
    historyAvailableFrom: meta.historyAvailableFrom,
    truncated: meta.truncated,
    cells: cellUse(used),
    schedule: getSchedule(),
  };
}

export function cellUse(used: number): SyncOverview['cells'] {
  const share = used / SPREADSHEET_CELL_LIMIT;
  return { used, limit: SPREADSHEET_CELL_LIMIT, percent: Math.round(share * 1000) / 10, warn: share >= CELL_WARNING_SHARE };
}

export class OrdersWindowError extends Error {
  readonly code = 'invalid_window';
  readonly action = 'fix_request';
  constructor(readonly userMessage: string) {
    super(userMessage);
    this.name = 'OrdersWindowError';
  }
}

/**
 * Limits the orders sync to orders placed on or after `createdAfter` (YYYY-MM-DD, store time
 * zone), for a store whose full history would not fit in one spreadsheet; null removes the limit.
 * Rows already in the sheet stay. A wider window (or none) than before restarts the orders feed
 * from the beginning, since older orders were never fetched (upserts keep rows unique).
 */
export function setOrdersWindow(createdAfter: string | null): void {
  if (createdAfter !== null && !isCalendarDate(createdAfter)) {
    throw new OrdersWindowError('The start date must be a real date like 2025-01-31; nothing was changed.');
  }
  const state = new SyncStateStore(PropertiesService.getDocumentProperties());
  const zone = state.get('meta').storeTimeZone ?? SpreadsheetApp.getActive().getSpreadsheetTimeZone();
  if (createdAfter !== null && createdAfter > instantToLocalDate(Date.now(), zone)) {
    throw new OrdersWindowError('The start date is in the future: choose today or an earlier day; nothing was changed.');
  }
  const orders = state.get('orders');
  if (createdAfter === orders.createdAfter) return;
  const widens = orders.createdAfter !== null && (createdAfter === null || createdAfter < orders.createdAfter);
  state.update('orders', widens ? { createdAfter, watermark: null, caughtUp: false } : { createdAfter });
  state.save('capacity', { stoppedAt: null, estimate: null });
}
