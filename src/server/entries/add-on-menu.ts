/**
 * The add-on menu. onOpen runs in AuthMode.NONE or LIMITED, where properties and most services are
 * off limits: it only builds the menu. The menu items run in FULL.
 *
 * The same menu in both modes: in NONE (a copy or a new spreadsheet where nobody has used the
 * add-on yet, so its formulas show #NAME?) every item still works, and choosing one enables the
 * add-on there (workspace/add-ons/concepts/editor-auth-lifecycle); "Open sidebar" is the way Help and
 * the user guide give.
 */

import { currentSpreadsheet, spreadsheetIdOf } from '../platform/context';
import { environmentReport, recordedEnvironments, recordEnvironment } from '../platform/environment';

export const SIDEBAR_TITLE = 'Merchant Analytics';

export const MENU_ITEMS = [
  { caption: 'Open sidebar', functionName: 'showSidebar' },
  { caption: 'Sync now', functionName: 'syncNowFromMenu' },
  { caption: 'Insert P&L dashboard', functionName: 'insertDashboard' },
  { caption: 'Refresh formulas', functionName: 'refreshFormulasFromMenu' },
  { caption: "Check the add-on's environment", functionName: 'showEnvironmentCheck' },
  { caption: 'Help', functionName: 'showHelp' },
] as const;

export function buildAddOnMenu(): void {
  const menu = SpreadsheetApp.getUi().createAddonMenu();
  for (const item of MENU_ITEMS) menu.addItem(item.caption, item.functionName);
  menu.addToUi();
}

export function openSidebar(): void {
  const output = HtmlService.createHtmlOutputFromFile('Sidebar').setTitle(SIDEBAR_TITLE);
  SpreadsheetApp.getUi().showSidebar(output);
}

export const HELP_TEXT = [
  "Merchant Analytics copies your store's orders, line items, products and daily profit and loss into this spreadsheet.",
  '1. Open the sidebar (Extensions → Merchant Analytics → Open sidebar) and connect your store.',
  '2. Press "Sync now" for the first copy; choose a schedule to keep the sheets current.',
  '3. Use =PROFIT_SUMMARY(start, end, "net_profit"), =PROFIT_DAILY(start, end) and =PROFIT_MONTHLY(start, end) in any cell; "Refresh formulas" recalculates them.',
  'Many periods? Put the first days in one column and the last days in the next, then one =PROFIT_SUMMARY(A2:A13, B2:B13, "net_profit") answers them all: one formula is much faster than one per cell. One formula answers up to 40 different periods (the service allows 60 requests a minute): split longer columns. Read single figures from its answer with INDEX.',
  'Formulas work only in a spreadsheet where the add-on has been opened: in a copy or a new spreadsheet they show #NAME? until you choose "Open sidebar" there once, connect, then "Refresh formulas".',
  'Access is read-only. Customers appear only as a pseudonymous reference, never by name or address.',
].join('\n\n');

export function showHelpDialog(): void {
  const ui = SpreadsheetApp.getUi();
  ui.alert('Merchant Analytics — help', HELP_TEXT, ui.ButtonSet.OK);
}

/** Menu → Check the add-on's environment: what each kind of execution found, for this user and spreadsheet. */
export function showEnvironmentDialog(): void {
  recordEnvironment('sidebar');
  const spreadsheet = currentSpreadsheet('checking the environment');
  const report = environmentReport(
    recordedEnvironments(spreadsheetIdOf(spreadsheet)),
    spreadsheet.getSpreadsheetTimeZone(),
  );
  const ui = SpreadsheetApp.getUi();
  ui.alert('Merchant Analytics — environment', report, ui.ButtonSet.OK);
}
