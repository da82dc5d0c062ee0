/**
 * Exports of the host workbook: the JSON contract of the demo (out/workbook.json) and an .xlsx.
 * JSON values: numbers, booleans and text as held; "" for empty cells and for formula cells (their
 * results are not computed; the formula is listed under "formulas"); date cells as ISO 8601 —
 * "YYYY-MM-DD" when the format has no time part, else the UTC instant ("2024-01-15T15:30:00.000Z").
 */
import ExcelJS from 'exceljs';
import { chartRangeA1 } from './charts';
import { serialToEpoch } from './dates';
import { isDateFormat, type CellScalar } from './number-format';
import type { SheetModel } from './sheet-model';
import type { Workbook } from './workbook';

export type JsonCell = string | number | boolean;

export interface WorkbookJson {
  sheets: Record<string, JsonCell[][]>;
  /** Per sheet: [row, column, "=..."] with 1-based positions. */
  formulas: Record<string, Array<[number, number, string]>>;
  stats: Record<string, unknown>;
  /** Per sheet with embedded charts: each chart's type, ranges in A1 notation with their sheet, title, options, position. */
  charts?: Record<string, ChartJson[]>;
  /** Per sheet with conditional format rules (first rule first): the ranges in A1 notation, the condition and the format. */
  conditionalFormats?: Record<string, ConditionalFormatJson[]>;
}

export interface ConditionalFormatJson {
  /** "N2:N", "BD2:BD": open-ended ranges run to the sheet's end. */
  ranges: string[];
  condition: { type: string; values: string[] };
  format: Record<string, unknown>;
}

function columnName(n: number): string {
  let s = '';
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s;
  return s;
}

/** A GridRange (0-based, half-open, open ends to the sheet's end) in A1 notation without the sheet. */
function gridRangeA1(
  r: { startRowIndex?: number; endRowIndex?: number; startColumnIndex?: number; endColumnIndex?: number },
  sheet: SheetModel,
): string {
  const c1 = columnName((r.startColumnIndex ?? 0) + 1);
  const c2 = columnName(r.endColumnIndex ?? sheet.maxColumns);
  const r1 = (r.startRowIndex ?? 0) + 1;
  return r.endRowIndex === undefined ? `${c1}${r1}:${c2}` : `${c1}${r1}:${c2}${r.endRowIndex}`;
}

export interface ChartJson {
  chartId: number | null;
  type: string;
  /** "'Daily P&L'!A1:A1000": each range with its sheet's current name. */
  ranges: string[];
  title: string | null;
  options: Record<string, unknown>;
  position: { anchorRow: number; anchorColumn: number; offsetX: number; offsetY: number };
  numHeaders: number;
}

function hasTimePart(format: string): boolean {
  return /[hs]/i.test(format.replace(/"[^"]*"|\[[^\]]*\]/g, ''));
}

function jsonValue(value: CellScalar | undefined, format: string | undefined, timeZone: string): JsonCell {
  if (value === undefined) return '';
  if (typeof value === 'number' && format && isDateFormat(format)) {
    const iso = new Date(serialToEpoch(value, timeZone)).toISOString();
    if (hasTimePart(format)) return iso;
    const wall = new Date(Math.round((value - 25_569) * 86_400_000)).toISOString();
    return wall.slice(0, 10);
  }
  return value;
}

function sheetValues(sheet: SheetModel, timeZone: string): JsonCell[][] {
  const lastRow = sheet.lastRow();
  const lastColumn = sheet.lastColumn();
  const rows: JsonCell[][] = [];
  for (let r = 1; r <= lastRow; r++) {
    const line: JsonCell[] = [];
    for (let c = 1; c <= lastColumn; c++) {
      line.push(sheet.formula(r, c) !== undefined ? '' : jsonValue(sheet.value(r, c), sheet.format(r, c), timeZone));
    }
    rows.push(line);
  }
  return rows;
}

export function exportWorkbookJson(workbook: Workbook, stats: Record<string, unknown> = {}): WorkbookJson {
  const out: WorkbookJson = { sheets: {}, formulas: {}, stats };
  for (const sheet of workbook.sheets) {
    out.sheets[sheet.name] = sheetValues(sheet, workbook.timeZone);
    const formulas: Array<[number, number, string]> = [];
    sheet.rows.forEach((row, i) =>
      row?.f?.forEach((f, c) => {
        if (f !== undefined) formulas.push([i + 1, c + 1, f]);
      }),
    );
    if (formulas.length > 0) out.formulas[sheet.name] = formulas;
    if (sheet.charts.length > 0) {
      out.charts ??= {};
      out.charts[sheet.name] = sheet.charts.map((c) => ({
        chartId: c.chartId,
        type: c.type,
        ranges: c.ranges.map((r) => chartRangeA1(r, workbook.sheets)),
        title: typeof c.options.title === 'string' ? c.options.title : null,
        options: JSON.parse(JSON.stringify(c.options)) as Record<string, unknown>,
        position: { ...c.position },
        numHeaders: c.numHeaders,
      }));
    }
    if (sheet.conditionalFormats.length > 0) {
      out.conditionalFormats ??= {};
      out.conditionalFormats[sheet.name] = sheet.conditionalFormats.map((rule) => ({
        ranges: rule.ranges.map((r) => gridRangeA1(r, sheet)),
        condition: { type: rule.condition.type, values: rule.condition.values.slice() },
        format: JSON.parse(JSON.stringify(rule.format)) as Record<string, unknown>,
      }));
    }
  }
  return out;
}

/** Wall-clock time of a serial as a Date whose UTC fields are that wall time (how exceljs stores dates). */
function serialAsExcelDate(serial: number): Date {
  return new Date(Math.round((serial - 25_569) * 86_400_000));
}

/**
 * Pixels → Excel's column width in characters of the default font (Calibri 11, 7 px per digit,
 * 5 px of padding): Excel shows a column of width w as trunc(7w + 5) px.
 */
function excelColumnWidth(px: number): number {
  return Math.max(0, Math.round(((px - 5) / 7) * 256) / 256);
}

export async function exportWorkbookXlsx(workbook: Workbook, path: string): Promise<void> {
  const book = new ExcelJS.Workbook();
  for (const sheet of workbook.sheets) {
    const ws = book.addWorksheet(sheet.name, {
      state: sheet.hidden ? 'hidden' : 'visible',
      views:
        sheet.frozenRows || sheet.frozenColumns
          ? [{ state: 'frozen', xSplit: sheet.frozenColumns, ySplit: sheet.frozenRows }]
          : [],
    });
    // Every column of the grid gets its width, as Google's own .xlsx download does: Excel's
    // default (8.43 characters) is narrower than Sheets' 100 px and shows dates as #####.
    for (let c = 1; c <= sheet.maxColumns; c++) ws.getColumn(c).width = excelColumnWidth(sheet.columnWidth(c));
    sheet.rows.forEach((row, i) => {
      if (!row) return;
      const width = Math.max(row.v.length, row.f?.length ?? 0, row.nf?.length ?? 0, row.note?.length ?? 0);
      for (let c = 0; c < width; c++) {
        const value = row.v[c];
        const formula = row.f?.[c];
        const format = row.nf?.[c];
        const note = row.note?.[c];
        const style = row.style?.[c];
        if (
          value === undefined &&
          formula === undefined &&
          format === undefined &&
          note === undefined &&
          style === undefined
        )
          continue;
        const cell = ws.getCell(i + 1, c + 1);
        if (formula !== undefined) cell.value = { formula: formula.replace(/^=/, '') };
        else if (typeof value === 'number' && isDateFormat(format)) cell.value = serialAsExcelDate(value);
        else if (value !== undefined) cell.value = value;
        if (format !== undefined) cell.numFmt = format;
        if (note !== undefined) cell.note = note;
        if (style?.fontWeight === 'bold') cell.font = { bold: true };
      }
    });
  }
  await book.xlsx.writeFile(path);
}
