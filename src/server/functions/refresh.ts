/**
 * "Never silently stale": Sheets recalculates a custom function only when its arguments change,
 * so after a sync that changed data (and from the menu's "Refresh formulas") the add-on
 * 1. moves the formula generation on, so no answer cached before is read again, and
 * 2. re-enters every formula that calls one of its functions: each is written once with the
 *    add-on's function names in lower case (Sheets reads function names case-insensitively, so the
 *    cell keeps working even if the execution ended here) and then back as it was. A formula whose
 *    text changed is recalculated, the second write leaves it exactly as the user typed it.
 * Only cells that hold a formula are re-entered, never text that looks like one (FORMULA_FIELDS).
 * A KPI cell of a dashboard inserted by an earlier version gets today's KPI formula in the second
 * write (upgradedDashboardFormula); no other cell changes.
 * One read and two Values.batchUpdate calls for the whole spreadsheet, whatever the number of
 * cells. The add-on's own data sheets hold no user formulas and are not read (they can hold a
 * million cells).
 */
import { currentSpreadsheet } from '../platform/context';
import { a1Range } from '../sheets/a1';
import { readSheetInfos, sheetsService } from '../sheets/sheet-snapshot';
import { TABLE_METADATA_KEY } from '../sheets/sheet-tags';
import { sheetsRequest } from '../sheets/sheets-requests';
import { clearFormulasOwed } from '../state/formulas-owed';
import { upgradedDashboardFormula } from '../finance/dashboard-upgrade';
import { nextFormulaGeneration } from './generation';

/** The add-on's functions, and those other modules add with the same prefixes. */
const ADD_ON_CALL = /\b(PROFIT_[A-Z0-9_]+|PRODUCT_COST|MA_[A-Z0-9_]+)(\s*\()/gi;

/** Managed data sheets (by name; a renamed one is skipped by size below). */
const DATA_SHEETS: readonly string[] = [
  'Orders',
  'Line items',
  'Products',
  'Variants',
  'Daily P&L',
  'Monthly P&L',
  'Restatements',
  'Sync log',
];
/** A sheet bigger than this is data, not a report: its formulas are not scanned. */
const MAX_SCANNED_CELLS = 200_000;

export interface FormulaRefresh {
  generation: string;
  formulas: number;
}

export function usesAddOnFunction(formula: string): boolean {
  ADD_ON_CALL.lastIndex = 0;
  return ADD_ON_CALL.test(formula);
}

/** The same formula with the add-on's function names in lower case (a different text, the same meaning). */
export function lowerCasedCalls(formula: string): string {
  return formula.replace(ADD_ON_CALL, (_, name: string, paren: string) => `${name.toLowerCase()}${paren}`);
}

/** A sheet as the Sheets API lists it: its grid size, and whether the add-on manages it (a table tag). */
export interface ScannedSheet {
  title: string;
  rows: number;
  columns: number;
  managed: boolean;
}

/**
 * Only a formula cell's userEnteredValue has a formulaValue. Text that merely starts with "="
 * (a form response, a pasted CSV, anything written RAW or typed after an apostrophe) is a
 * stringValue there, while Values.get with FORMULA and getValues return it exactly like a formula:
 * re-entering that text USER_ENTERED would make it a live formula that no one wrote.
 */
const FORMULA_FIELDS =
  'sheets(properties.title,data(startRow,startColumn,rowData.values.userEnteredValue.formulaValue))';

interface FormulaGrid {
  sheets?: Array<{
    properties?: { title?: string };
    data?: Array<{
      startRow?: number;
      startColumn?: number;
      rowData?: Array<{ values?: Array<{ userEnteredValue?: { formulaValue?: unknown } }> }>;
    }>;
  }>;
}

/** A sheet the refresh scans for formulas when it holds anything: not managed data, not too big to be a report. */
export function mayHoldReport(s: ScannedSheet): boolean {
  return !s.managed && !DATA_SHEETS.includes(s.title) && s.rows * s.columns <= MAX_SCANNED_CELLS;
}

/**
 * Re-enters every add-on formula of the report sheets: ONE Spreadsheets.get of their formulas
 * (nothing else of the cells) and, when there are any, the two writes described above. Managed
 * data sheets, and sheets too big to be reports, are not read.
 */
export function reenterFormulas(spreadsheetId: string, sheets: readonly ScannedSheet[]): number {
  const scanned = sheets.filter((s) => mayHoldReport(s) && s.rows > 0 && s.columns > 0);
  if (scanned.length === 0) return 0;
  const service = sheetsService();
  const got = sheetsRequest('read', () =>
    service.get(spreadsheetId, {
      ranges: scanned.map((s) => a1Range(s.title, 1, 1, s.rows, s.columns)),
      fields: FORMULA_FIELDS,
    }),
  ) as FormulaGrid;
  const cells: Array<{ range: string; formula: string; now: string }> = [];
  for (const sheet of got.sheets ?? []) {
    const title = sheet.properties?.title;
    if (title === undefined || !scanned.some((s) => s.title === title)) continue;
    for (const grid of sheet.data ?? []) {
      (grid.rowData ?? []).forEach((row, r) =>
        (row.values ?? []).forEach((cell, c) => {
          const formula = cell.userEnteredValue?.formulaValue;
          if (typeof formula !== 'string' || !usesAddOnFunction(formula)) return;
          const [atRow, atColumn] = [(grid.startRow ?? 0) + r + 1, (grid.startColumn ?? 0) + c + 1];
          cells.push({
            range: a1Range(title, atRow, atColumn, atRow, atColumn),
            formula,
            now: upgradedDashboardFormula(title, atRow, atColumn, formula),
          });
        }),
      );
    }
  }
  if (cells.length === 0) return 0;
  const write = (text: (cell: (typeof cells)[number]) => string) =>
    sheetsRequest('write', () =>
      service.Values!.batchUpdate(
        { valueInputOption: 'USER_ENTERED', data: cells.map((c) => ({ range: c.range, values: [[text(c)]] })) },
        spreadsheetId,
      ),
    );
  write((c) => lowerCasedCalls(c.formula));
  write((c) => c.now);
  return cells.length;
}

/** The menu's "Refresh formulas": a new generation, then every add-on formula re-entered. */
export function refreshFormulas(): FormulaRefresh {
  const generation = nextFormulaGeneration();
  const spreadsheetId = currentSpreadsheet('refreshing formulas').getId();
  const sheets = readSheetInfos(spreadsheetId).map((s) => ({
    title: s.title,
    rows: s.rows,
    columns: s.columns,
    managed: s.tags.some((t) => t.key === TABLE_METADATA_KEY),
  }));
  return { generation, formulas: reenterFormulas(spreadsheetId, sheets) };
}

/**
 * A connection adopted after the consent window (a reconnect): formulas that answered "not
 * connected" or "reconnect" meanwhile recalculate now, not only after a sync that changes data.
 * A failure leaves them owed for the next successful sync (the owed formulas); never fails the caller.
 */
export function refreshFormulasAfterReconnect(): void {
  try {
    refreshFormulas();
    clearFormulasOwed();
  } catch (e) {
    console.warn(`Formulas were not refreshed after reconnecting: ${e instanceof Error ? e.message : String(e)}`);
  }
}
