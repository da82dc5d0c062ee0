/**
 * The workbook as the playground's grid draws it, read from the runtime's workbook model: sheets
 * in the workbook's order with their frozen rows and column widths, and windows of rows with
 * each cell's displayed text — the runtime's own `displayValue` for its number format (the text
 * `Range.getDisplayValues` gives), so what the page shows is what Sheets would show — its notes,
 * bold, formula results (the formula cells) spilled into the cells around them, and the fills and
 * text styles of the sheet's conditional format rules (the conditional drawing).
 */
import {
  displayValue,
  DEFAULT_DATE_FORMAT,
  DEFAULT_DATETIME_FORMAT,
  isDateFormat,
  isPercentFormat,
  type CellScalar,
} from '../gas-runtime/spreadsheet/number-format';
import type { SheetModel } from '../gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../gas-runtime/spreadsheet/workbook';
import { ruleDrawer } from './conditional-draw';
import type { FormulaCells, SpilledCell } from './formula-cells';
import type { GridCell, GridSheet } from './grid-types';

/** Empty rows drawn below the last row with content (the sheet's other empty rows are not drawn). */
export const EMPTY_ROWS_BELOW = 10;
/** The most rows one window request returns. */
export const MAX_WINDOW_ROWS = 500;

export type { GridCell, GridSheet };

export interface GridWindow {
  sheet: string;
  from: number;
  rows: Array<Array<GridCell | null>>;
  /** Conditional format rules the playground could not evaluate (drawn as no format, never guessed). */
  undrawnRules?: string[];
}

function kindOf(value: CellScalar): GridCell['k'] {
  return typeof value === 'number' ? 'n' : typeof value === 'boolean' ? 'b' : undefined;
}

/**
 * The text Sheets' formula bar shows for a value: a date as a date, a percent-formatted number as
 * its percent (0.5508 under 0.00% edits as 55.08%, as Sheets and Excel show it), a number unformatted.
 */
function editText(value: CellScalar, format: string | undefined): string {
  if (typeof value === 'number' && isDateFormat(format)) {
    return displayValue(value, Number.isInteger(value) ? DEFAULT_DATE_FORMAT : DEFAULT_DATETIME_FORMAT);
  }
  if (typeof value === 'number' && isPercentFormat(format))
    return `${displayValue(Number((value * 100).toPrecision(15)), undefined)}%`;
  return displayValue(value, undefined);
}

function valueCell(value: CellScalar, format: string | undefined): GridCell {
  const t = displayValue(value, format);
  const cell: GridCell = { t };
  const k = kindOf(value);
  if (k) cell.k = k;
  const edit = editText(value, format);
  if (edit !== t) cell.edit = edit;
  return cell;
}

function spilledCell(spilled: SpilledCell): GridCell {
  return { ...valueCell(spilled.value, spilled.format), spill: true };
}

function extent(sheet: SheetModel, formulas: FormulaCells): { rows: number; columns: number } {
  let rows = sheet.lastRow();
  let columns = sheet.lastColumn();
  for (const s of formulas.spills(sheet)) {
    if (s.blockedBy) continue;
    rows = Math.max(rows, s.row + s.cells.length - 1);
    columns = Math.max(columns, s.column + Math.max(...s.cells.map((r) => r.length)) - 1);
  }
  return { rows, columns };
}

export function gridSheets(workbook: Workbook, formulas: FormulaCells): GridSheet[] {
  return workbook.sheets.map((sheet) => {
    // A formula re-entered since its answer (Refresh formulas, a sync that changed data) runs again now.
    void formulas.recalculateStale(sheet);
    const used = extent(sheet, formulas);
    const columnCount = Math.max(sheet.maxColumns, used.columns);
    return {
      name: sheet.name,
      sheetId: sheet.sheetId,
      hidden: sheet.hidden,
      lastRow: used.rows,
      rowCount: Math.max(used.rows, Math.min(sheet.maxRows, Math.max(used.rows + EMPTY_ROWS_BELOW, 100))),
      columnCount,
      frozenRows: sheet.frozenRows,
      frozenColumns: sheet.frozenColumns,
      widths: Array.from({ length: columnCount }, (_, c) => sheet.columnWidth(c + 1)),
      computing: formulas.pending(sheet),
      charts: sheet.charts.length,
    };
  });
}

/** Rows from..from+count-1 of a sheet (1-based), each cell null when empty. */
export function gridWindow(sheet: SheetModel, from: number, count: number, formulas: FormulaCells): GridWindow {
  const first = Math.max(1, Math.floor(from));
  const last = first + Math.min(MAX_WINDOW_ROWS, Math.max(0, Math.floor(count))) - 1;
  const spilled = new Map<string, GridCell>();
  for (const s of formulas.spills(sheet)) {
    if (s.blockedBy) continue;
    s.cells.forEach((cells, r) => {
      const row = s.row + r;
      if (row < first || row > last) return;
      cells.forEach((cell, c) => {
        if (r > 0 || c > 0) spilled.set(`${row}:${s.column + c}`, spilledCell(cell));
      });
    });
  }
  const blocked = new Map(
    formulas
      .spills(sheet)
      .filter((s) => s.blockedBy)
      .map((s) => [`${s.row}:${s.column}`, s.blockedBy!]),
  );
  const columns = Math.max(sheet.maxColumns, sheet.lastColumn());
  const rules = sheet.conditionalFormats.length > 0 ? ruleDrawer(sheet) : null;
  const rows: Array<Array<GridCell | null>> = [];
  for (let r = first; r <= last; r++) {
    const line: Array<GridCell | null> = [];
    for (let c = 1; c <= columns; c++) {
      const formula = sheet.formula(r, c);
      const value = sheet.value(r, c);
      let cell: GridCell | null = null;
      if (formula !== undefined) {
        const result = formulas.resultAt(sheet, r, c);
        const at = `${r}:${c}`;
        if (blocked.has(at)) {
          cell = {
            t: '#REF!',
            k: 'e',
            message: `Array result was not expanded because it would overwrite data in ${blocked.get(at)!}.`,
          };
        } else if (!result || result.state === 'pending' || result.state === 'loading') cell = { t: 'Loading...' };
        else if (result.state === 'error') cell = { t: result.code, k: 'e', message: result.message };
        // A formula's answer shows in its cell's own number format, as in Sheets; else the one its value implies (a date).
        else cell = valueCell(result.cells[0]?.[0]?.value ?? '', sheet.format(r, c) ?? result.cells[0]?.[0]?.format);
        cell.edit = formula;
        delete cell.spill;
      } else if (value !== undefined) {
        cell = valueCell(value, sheet.format(r, c));
      } else cell = spilled.get(`${r}:${c}`) ?? null;
      const note = sheet.note(r, c);
      const bold = sheet.style(r, c)?.fontWeight === 'bold';
      if (note !== undefined || bold) {
        cell ??= { t: '' };
        if (note !== undefined) cell.note = note;
        if (bold) cell.bold = true;
      }
      const drawn = rules?.at(r, c);
      if (drawn && Object.keys(drawn).length > 0) {
        cell ??= { t: '' };
        if (drawn.background) cell.bg = drawn.background;
        if (drawn.color) cell.fg = drawn.color;
        if (drawn.bold) cell.bold = true;
        if (drawn.italic) cell.italic = true;
        if (drawn.strike) cell.strike = true;
      }
      line.push(cell);
    }
    while (line.length > 0 && line[line.length - 1] === null) line.pop();
    rows.push(line);
  }
  const undrawn = rules?.undrawn ?? [];
  return undrawn.length > 0
    ? { sheet: sheet.name, from: first, rows, undrawnRules: undrawn }
    : { sheet: sheet.name, from: first, rows };
}
