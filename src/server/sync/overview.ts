/** What the sidebar shows about the sync: last runs, checkpoints, plan window, cell use. */
import { SPREADSHEET_CELL_LIMIT } from '../sheets/managed-workbook';
import { getSchedule, type Schedule } from './schedule';
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

/**
 * Limits the orders backfill to orders placed on or after `createdAfter` (YYYY-MM-DD), for a store
 * whose full history would not fit in one spreadsheet; null removes the limit.
 */
export function setOrdersWindow(createdAfter: string | null): void {
  if (createdAfter !== null && !/^\d{4}-\d{2}-\d{2}$/.test(createdAfter)) {
    throw new Error('The start date must be a date like 2025-01-31.');
  }
  const state = new SyncStateStore(PropertiesService.getDocumentProperties());
  state.update('orders', { createdAfter });
}
