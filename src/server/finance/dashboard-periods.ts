/**
 * The dashboard's period cells: each KPI period's first and last day, written by the add-on as date
 * values in the spreadsheet's time zone. The KPI formulas reference them instead of calling TODAY():
 * a custom function whose arguments hold a volatile function never runs ("Loading..." for good,
 * developers.google.com/apps-script/guides/sheets/functions, "Arguments"), and Sheets recalculates a
 * custom function when a cell it references changes. Refreshed when the dashboard is inserted, after
 * a sync and when the spreadsheet opens: one read of the cells, one setValues only when a day moved.
 * The periods are the STORE's (the API's days are store-local, spec 2.9, as every other period of
 * the add-on): a spreadsheet ahead of the store, on the 1st, is still in the store's last month.
 */
import { dayStartInstant, instantToLocalDate } from '../platform/calendar';
import { savedStoreTimeZone } from '../state/saved-store-zone';
import { DASHBOARD_SHEET, KPI_PERIODS, PERIOD_LABELS, PERIOD_START_ROW, periodDays } from './dashboard-spec';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

export const PERIOD_FORMAT = 'yyyy-mm-dd';

const isDate = (value: unknown): value is Date => Object.prototype.toString.call(value) === '[object Date]';

/**
 * Writes the store's periods of today into the period cells (dates shown in the spreadsheet's zone,
 * `timeZone`) unless they hold them already; returns whether it wrote. A sheet without the labels
 * From and To beside them (not the add-on's dashboard, or one inserted before it had period cells)
 * is left as it is.
 */
export function refreshDashboardPeriods(sheet: Sheet, timeZone: string, storeZone: string, now: number): boolean {
  const held = sheet.getRange(PERIOD_START_ROW, 1, PERIOD_LABELS.length, KPI_PERIODS.length + 1).getValues();
  if (PERIOD_LABELS.some((label, r) => held[r]?.[0] !== label)) return false;
  const wanted = periodDays(instantToLocalDate(now, storeZone));
  const current = wanted.every((days, r) =>
    days.every((day, c) => {
      const value = held[r]?.[c + 1];
      return isDate(value) && instantToLocalDate(value.getTime(), timeZone) === day;
    }),
  );
  if (current) return false;
  sheet
    .getRange(PERIOD_START_ROW, 2, wanted.length, KPI_PERIODS.length)
    .setValues(wanted.map((days) => days.map((day) => new Date(dayStartInstant(day, timeZone) ?? 0))));
  return true;
}

/**
 * The store's zone as the last sync saved it (one document property read), else the spreadsheet's,
 * as the sync itself does before it knows one.
 */
export function dashboardStoreZone(spreadsheetZone: string): string {
  return savedStoreTimeZone() ?? spreadsheetZone;
}

/**
 * onOpen: the period cells move to today's periods. An add-on's onOpen in AuthMode.LIMITED may
 * read and write the document it runs in, and read its document properties (the store's zone: the
 * AuthMode reference's own onOpen example reads them outside NONE,
 * developers.google.com/apps-script/reference/script/auth-mode); in NONE (installed, not used in
 * this document) it may not touch it (developers.google.com/workspace/add-ons/concepts/editor-auth-lifecycle,
 * "Authorization modes"; apps-script-facts.md). Never fails onOpen: the menu matters more.
 */
export function refreshDashboardPeriodsOnOpen(authMode: unknown): void {
  if (authMode !== ScriptApp.AuthMode.LIMITED && authMode !== ScriptApp.AuthMode.FULL) return;
  try {
    const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
    const sheet = spreadsheet?.getSheetByName(DASHBOARD_SHEET);
    if (!sheet) return;
    const zone = spreadsheet.getSpreadsheetTimeZone();
    refreshDashboardPeriods(sheet, zone, dashboardStoreZone(zone), Date.now());
  } catch {
    // Left for the next sync, which refreshes them too.
  }
}
