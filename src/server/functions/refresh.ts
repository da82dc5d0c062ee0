/**
 * "Never silently stale": Sheets recalculates a custom function only when its arguments change,
 * so after a sync that changed data (and from the menu's "Refresh formulas") the add-on
 * 1. moves the formula generation on, so no answer cached before is read again, and
 * 2. re-enters every formula that calls one of its functions: each is written once with the
 *    add-on's function names in lower case (Sheets reads function names case-insensitively, so the
 *    cell keeps working even if the execution ended here) and then back as it was. A formula whose
 *    text changed is recalculated, the second write leaves it exactly as the user typed it.
 * Two Values.batchUpdate calls for the whole spreadsheet, whatever the number of cells. The
 * add-on's own data sheets hold no user formulas and are not read (they can hold a million cells).
 */
import { currentSpreadsheet } from '../platform/context';
import { a1Range } from '../sheets/a1';
import { sheetsService } from '../sheets/sheet-snapshot';
import { nextFormulaGeneration } from './generation';

/** The add-on's functions, and those other modules add with the same prefixes. */
const ADD_ON_CALL = /\b(PROFIT_[A-Z0-9_]+|PRODUCT_COST|MA_[A-Z0-9_]+)(\s*\()/gi;

/** Managed data sheets (by name; a renamed one is skipped by size below). */
const DATA_SHEETS: readonly string[] = ['Orders', 'Line items', 'Products', 'Variants', 'Daily P&L', 'Monthly P&L', 'Restatements', 'Sync log'];
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

export function refreshFormulas(): FormulaRefresh {
  const generation = nextFormulaGeneration();
  const spreadsheet = currentSpreadsheet('refreshing formulas');
  const cells: Array<{ range: string; formula: string }> = [];
  for (const sheet of spreadsheet.getSheets()) {
    const name = sheet.getName();
    if (DATA_SHEETS.includes(name)) continue;
    const rows = sheet.getLastRow();
    const columns = sheet.getLastColumn();
    if (rows === 0 || columns === 0 || rows * columns > MAX_SCANNED_CELLS) continue;
    const formulas = sheet.getRange(1, 1, rows, columns).getFormulas();
    formulas.forEach((row, r) =>
      row.forEach((formula, c) => {
        if (formula !== '' && usesAddOnFunction(formula)) cells.push({ range: a1Range(name, r + 1, c + 1, r + 1, c + 1), formula });
      }),
    );
  }
  if (cells.length > 0) {
    const service = sheetsService();
    const write = (text: (formula: string) => string) =>
      service.Values!.batchUpdate({ valueInputOption: 'USER_ENTERED', data: cells.map((c) => ({ range: c.range, values: [[text(c.formula)]] })) }, spreadsheet.getId());
    write(lowerCasedCalls);
    write((formula) => formula);
  }
  return { generation, formulas: cells.length };
}
