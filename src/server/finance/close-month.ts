/**
 * Month-end close: `Close YYYY-MM` keeps the month as the Daily P&L holds it now (its summary, its
 * days, the basis, when it was closed and the orders sync watermark), protected as a snapshot.
 * Later syncs compare the Daily P&L against it (the finance refresh → Restatements). The values written are
 * sealed (the close seal) so the tie-out proves the sheet still holds them. Closing a month that
 * is already closed asks first (status 'confirm'); with `replace: true` the snapshot is replaced.
 */
import { PERCENT_FORMAT } from '../sheets/percent';
import { documentLock, storeTag } from '../auth';
import { currentSpreadsheet } from '../platform/context';
import { documentProperties } from '../platform/properties';
import { a1Range } from '../sheets/a1';
import { instantToLocalDate } from '../platform/calendar';
import { ManagedWorkbook } from '../sheets/managed-workbook';
import { numberFormatFor } from '../sheets/rows';
import { sheetsService } from '../sheets/sheet-snapshot';
import { sheetsRequest } from '../sheets/sheets-requests';
import { DAILY, MONTHLY, ORDERS, columnIndex } from '../sheets/schema';
import { columnSettings } from '../state/column-settings';
import { SyncStateStore } from '../state/sync-state';
import type { ClosedMonthRecord } from '../state/finance-state';
import { monthWithYear } from '../../contract/closed-month-text';
import type { CloseMonthResult } from '../../contract/sidebar';
import { CLOSE_ORDER_COLUMNS, ORDER_FIGURE_COLUMNS, orderFiguresOf, type OrderFigures } from './close-orders';
import {
  CLOSE_COLUMNS,
  CLOSE_FIRST_DAY_ROW,
  CLOSE_HEADER_ROW,
  CLOSE_ORDERS_HEADER_ROW,
  CLOSE_ORDERS_TITLE_ROW,
  closeSheetName,
  closeSheetValues,
  isMonth,
  type CloseRecord,
} from './close-sheet';
import { dailyFigures } from './daily-figures';
import { saveCloseSeal } from './close-seal';
import { byId, closeIndexOf, saveCloseIndex } from './close-index';
import type { CellValue } from '../sheets/cells';
import { monthOf, sumByPeriod } from './period-sums';

export type { CloseMonthResult };

const LOCK_WAIT_MS = 10_000;

function refused(month: string | null, message: string): CloseMonthResult {
  return { status: 'refused', month, message, sheetName: null };
}

function monthLabel(month: string): string {
  return monthWithYear(month);
}

export function closeMonth(request: unknown): CloseMonthResult {
  const body = request && typeof request === 'object' ? (request as Record<string, unknown>) : {};
  const month = body.month;
  if (!isMonth(month))
    return refused(
      null,
      `Give the month to close as YYYY-MM (for example 2026-10); got ${JSON.stringify(month ?? null)}.`,
    );
  const replace = body.replace === true;
  const store = storeTag();
  if (store === null)
    return refused(month, 'Connect a store and sync before closing a month: there are no figures to close yet.');
  const lock = documentLock();
  if (!lock.tryLock(LOCK_WAIT_MS))
    return refused(month, 'A sync of this spreadsheet is running: close the month again in a minute.');
  try {
    const state = new SyncStateStore(documentProperties());
    const meta = state.get('meta');
    // The close sheet is not a managed table: the close edits it in the spreadsheet the workbook reads.
    const spreadsheet = currentSpreadsheet('opening the sheets to sync');
    const workbook = new ManagedWorkbook(spreadsheet);
    workbook.bindStore(store, meta.storeCurrency);
    workbook.useColumns(columnSettings(state, () => Date.now()));
    const today = instantToLocalDate(Date.now(), meta.storeTimeZone ?? workbook.timeZone);
    const label = monthLabel(month);
    if (month >= monthOf(today))
      return refused(
        month,
        `${label} is not over yet (today is ${today} in the store's time zone): close it once it has ended.`,
      );
    const days = dailyFigures(workbook.readTable(DAILY)).filter((d) => monthOf(d.date) === month);
    if (days.length === 0)
      return refused(
        month,
        `The Daily P&L has no days of ${label}: sync first, or choose a month within the store's history.`,
      );
    const name = closeSheetName(month);
    const existing = spreadsheet.getSheetByName(name);
    if (existing && !replace) {
      return {
        status: 'confirm',
        month,
        message: `${label} is closed already. Replace its snapshot with the figures as they are now? The old snapshot is deleted.`,
        sheetName: name,
      };
    }
    const record: CloseRecord = {
      month,
      closedAt: Date.now(),
      basis: basisOfMonth(workbook, month) ?? state.get('basis').text ?? 'unknown',
      currency: meta.storeCurrency,
      watermark: state.get('orders').watermark,
      summary: sumByPeriod(days)[0],
      days,
      // Sorted by id: a run finds an order's row from the close's index (close-index.ts).
      orders: ordersOfMonth(workbook, month).sort(byId),
    };
    if (existing) spreadsheet.deleteSheet(existing);
    saveCloseSeal(month, writeCloseSheet(spreadsheet, workbook, name, record), record.closedAt);
    saveCloseIndex(month, closeIndexOf(record.orders));
    const others = state.get('closedMonths').filter((c) => c.month !== month);
    const fresh: ClosedMonthRecord = {
      month,
      netProfitChange: 0,
      changedDays: 0,
      changedValues: 0,
      basisChanged: false,
      currency: meta.storeCurrency,
    };
    state.save(
      'closedMonths',
      [...others, fresh].sort((a, b) => (a.month < b.month ? 1 : -1)),
    );
    const partial =
      record.summary.days < Number(record.summary.lastDay.slice(8)) || record.summary.firstDay !== `${month}-01`
        ? ` (the Daily P&L holds ${record.summary.days} of its days)`
        : '';
    return {
      status: 'closed',
      month,
      message: `Closed ${label}${partial}: the "${name}" sheet keeps its figures; the Restatements sheet will list what changes after the next syncs.`,
      sheetName: name,
    };
  } finally {
    lock.releaseLock();
  }
}

/** The basis the Monthly P&L row of that month was synced on, when the sheet has it. */
function basisOfMonth(workbook: ManagedWorkbook, month: string): string | null {
  const basisColumn = columnIndex(MONTHLY, 'basis');
  const row = workbook.readTable(MONTHLY).find((r) => r[0] === month);
  const basis = row ? row[basisColumn] : null;
  return typeof basis === 'string' && basis !== '' ? basis : null;
}

/**
 * Every order placed in the month as the Orders sheet holds it: one Values.batchGet of the 11
 * columns it needs (of Orders' 54), once per close.
 */
function ordersOfMonth(workbook: ManagedWorkbook, month: string): OrderFigures[] {
  const at = new Map(ORDER_FIGURE_COLUMNS.map((c) => [c, columnIndex(ORDERS, c)]));
  const out: OrderFigures[] = [];
  for (const row of workbook.readColumns(ORDERS, ORDER_FIGURE_COLUMNS)) {
    const order = orderFiguresOf((c) => row[at.get(c)!]);
    if (order && order.placedDate.slice(0, 7) === month) out.push(order);
  }
  return out;
}

/**
 * Structure and formats with SpreadsheetApp, flushed before the values go in through the Sheets
 * API (RAW: the month stays text), then the grid is cut to the table (cells count toward the
 * 10 M limit) and the sheet protected.
 */
function writeCloseSheet(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  workbook: ManagedWorkbook,
  name: string,
  record: CloseRecord,
): CellValue[][] {
  const values = closeSheetValues(record, workbook.timeZone);
  const width = CLOSE_COLUMNS.length;
  const sheet = spreadsheet.insertSheet(name, spreadsheet.getNumSheets());
  const amount = numberFormatFor('amount', record.currency) ?? '#,##0.00';
  const dayRows = record.days.length;
  const timestamp = numberFormatFor('timestamp', null)!;
  sheet.getRange(1, 1, 6, 1).setFontWeight('bold');
  sheet.getRange(1, 2, 6, 1).setNumberFormat('@');
  // Times as every other sheet shows them: date-times in the spreadsheet's zone.
  sheet.getRange(2, 2).setNumberFormat(timestamp);
  sheet.getRange(5, 2).setNumberFormat(timestamp);
  sheet.getRange(CLOSE_HEADER_ROW, 1, 2, width).setFontWeight('bold');
  sheet.getRange(CLOSE_HEADER_ROW + 1, 2, dayRows + 1, width - 3).setNumberFormat(amount);
  sheet.getRange(CLOSE_HEADER_ROW + 1, width - 1, 1, 2).setNumberFormat(PERCENT_FORMAT);
  sheet.getRange(CLOSE_FIRST_DAY_ROW, 1, dayRows, 1).setNumberFormat('yyyy-mm-dd');
  sheet.getRange(CLOSE_ORDERS_TITLE_ROW, 1, 2, CLOSE_ORDER_COLUMNS.length).setFontWeight('bold');
  const orderRows = record.orders.length;
  if (orderRows > 0) {
    const first = CLOSE_ORDERS_HEADER_ROW + 1;
    const column = (name: (typeof CLOSE_ORDER_COLUMNS)[number]): number => CLOSE_ORDER_COLUMNS.indexOf(name) + 1;
    sheet.getRange(first, 1, orderRows, 3).setNumberFormat('@');
    sheet.getRange(first, column('placed_date'), orderRows, 1).setNumberFormat('yyyy-mm-dd');
    sheet.getRange(first, column('updated_at'), orderRows, 1).setNumberFormat(timestamp);
    sheet.getRange(first, column('refunds'), orderRows, 4).setNumberFormat(amount);
  }
  sheet.setFrozenRows(CLOSE_HEADER_ROW);
  SpreadsheetApp.flush();
  const sheetId = sheet.getSheetId();
  const setUp = {
    requests: [
      {
        updateSheetProperties: {
          properties: { sheetId, gridProperties: { rowCount: values.length, columnCount: width } },
          fields: 'gridProperties.rowCount,gridProperties.columnCount',
        },
      },
      {
        updateDimensionProperties: {
          range: { sheetId, dimension: 'COLUMNS', startIndex: 0, endIndex: width },
          properties: { pixelSize: 150 },
          fields: 'pixelSize',
        },
      },
    ],
  };
  sheetsRequest('write', () => sheetsService().batchUpdate(setUp, workbook.id()));
  const valuesApi = sheetsService().Values as GoogleAppsScript.Sheets.Collection.Spreadsheets.ValuesCollection;
  sheetsRequest('write', () =>
    valuesApi.batchUpdate(
      { valueInputOption: 'RAW', data: [{ range: a1Range(name, 1, 1, values.length, width), values }] },
      workbook.id(),
    ),
  );
  const protection = sheet
    .protect()
    .setDescription(
      `Month-end close of ${monthLabel(record.month)}: a snapshot. Restatements lists what changed since.`,
    );
  // The person closing stays an editor (Google never removes the owner or the current user); nobody else edits a close.
  protection.removeEditors(protection.getEditors());
  if (protection.canDomainEdit()) protection.setDomainEdit(false);
  return values;
}
