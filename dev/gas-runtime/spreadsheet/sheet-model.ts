/** One sheet's grid on the host: values, formulas, formats, notes, styles and grid properties. */
import type { GridRect } from './a1';
import type { CellWrite } from './input';
import { displayValue, isDateFormat, type CellScalar } from './number-format';
import type { ProtectionState } from './protection';
import type { ChartSpec } from './charts';
import type { ConditionalFormatRecord } from './conditional-formats';

export interface CellStyle {
  fontWeight?: string;
  background?: string;
  wrap?: boolean;
  horizontalAlignment?: string;
}

/** A row's cells, column-indexed from 0; arrays are trimmed of trailing empties. */
export interface RowData {
  v: Array<CellScalar | undefined>;
  f?: Array<string | undefined>;
  /** When each formula was entered (a workbook-wide count): a formula whose text changes is entered anew, and Sheets recalculates it. */
  fe?: Array<number | undefined>;
  nf?: Array<string | undefined>;
  note?: Array<string | undefined>;
  style?: Array<CellStyle | undefined>;
}

export interface SheetProperties {
  sheetId: number;
  name: string;
  maxRows: number;
  maxColumns: number;
  frozenRows: number;
  frozenColumns: number;
  hidden: boolean;
  columnWidths: Record<string, number>;
  /** Sheet protection (Sheet.protect()), null when the sheet is not protected. */
  protection?: ProtectionState | null;
  /** Embedded charts (Sheet.insertChart), in insertion order. */
  charts?: ChartSpec[];
  /** Conditional format rules (Sheets API addConditionalFormatRule), first rule first. */
  conditionalFormats?: ConditionalFormatRecord[];
}

type RowField = 'v' | 'f' | 'fe' | 'nf' | 'note' | 'style';

/** Formula entries so far, across every sheet (RowData.fe). */
let formulaEntries = 0;

/** Google Sheets' width of a column nobody resized, in pixels. */
export const DEFAULT_COLUMN_WIDTH = 100;
/** autoResizeColumns: about one character of the default font (Arial 10) per 7 px, plus padding. */
const CHAR_PX = 7;
const FIT_PADDING_PX = 10;

function trim<T>(cells: Array<T | undefined>): void {
  while (cells.length > 0 && cells[cells.length - 1] === undefined) cells.pop();
}

export class SheetModel implements SheetProperties {
  sheetId: number;
  name: string;
  maxRows = 1000;
  maxColumns = 26;
  frozenRows = 0;
  frozenColumns = 0;
  hidden = false;
  columnWidths: Record<string, number> = {};
  protection: ProtectionState | null = null;
  charts: ChartSpec[] = [];
  conditionalFormats: ConditionalFormatRecord[] = [];
  rows: Array<RowData | undefined> = [];
  /** Row objects shared with a snapshot of this sheet (the SpreadsheetWriteBuffer's): copied before this model changes one. */
  private sharedRows: WeakSet<RowData> | null = null;

  constructor(sheetId: number, name: string) {
    this.sheetId = sheetId;
    this.name = name;
  }

  private cell<K extends RowField>(row: number, column: number, field: K): NonNullable<RowData[K]>[number] | undefined {
    const cells = this.rows[row - 1]?.[field];
    return cells ? (cells[column - 1] as NonNullable<RowData[K]>[number] | undefined) : undefined;
  }

  private put<K extends RowField>(
    row: number,
    column: number,
    field: K,
    item: NonNullable<RowData[K]>[number] | undefined,
  ): void {
    let data = this.rows[row - 1];
    if (!data) {
      if (item === undefined) return;
      data = { v: [] };
      this.rows[row - 1] = data;
    } else if (this.sharedRows?.has(data)) {
      data = copyRow(data);
      this.rows[row - 1] = data;
    }
    let cells = data[field] as Array<typeof item> | undefined;
    if (!cells) {
      if (item === undefined) return;
      cells = [];
      (data as unknown as Record<string, unknown>)[field] = cells;
    }
    cells[column - 1] = item;
    if (item === undefined) trim(cells);
  }

  value(row: number, column: number): CellScalar | undefined {
    return this.cell(row, column, 'v');
  }

  formula(row: number, column: number): string | undefined {
    return this.cell(row, column, 'f');
  }

  /** When the cell's formula was last entered with a different text (undefined without a formula). */
  formulaEntry(row: number, column: number): number | undefined {
    return this.cell(row, column, 'fe');
  }

  format(row: number, column: number): string | undefined {
    return this.cell(row, column, 'nf');
  }

  note(row: number, column: number): string | undefined {
    return this.cell(row, column, 'note');
  }

  style(row: number, column: number): CellStyle | undefined {
    return this.cell(row, column, 'style');
  }

  /** Writes content; a formula's value is not computed (the cell reads as ""). */
  write(row: number, column: number, content: CellWrite): void {
    this.put(row, column, 'v', content.formula !== undefined ? undefined : content.value);
    if (content.formula === undefined) this.put(row, column, 'fe', undefined);
    else if (content.formula !== this.formula(row, column)) this.put(row, column, 'fe', ++formulaEntries);
    this.put(row, column, 'f', content.formula);
    if (content.impliedFormat !== undefined) {
      const current = this.format(row, column);
      if (current === undefined || (content.dateValue === true && !isDateFormat(current))) {
        this.put(row, column, 'nf', content.impliedFormat);
      }
    }
  }

  setFormat(row: number, column: number, format: string | undefined): void {
    this.put(row, column, 'nf', format === '' ? undefined : format);
  }

  setNote(row: number, column: number, note: string | undefined): void {
    this.put(row, column, 'note', note === '' ? undefined : note);
  }

  setStyle(row: number, column: number, patch: CellStyle): void {
    this.put(row, column, 'style', { ...this.style(row, column), ...patch });
  }

  /** clearContent keeps formats and notes; clear (everything) drops them too. */
  clear(rect: GridRect, everything: boolean): void {
    const lastRow = Math.min(rect.row + rect.numRows - 1, this.rows.length);
    for (let r = rect.row; r <= lastRow; r++) {
      for (let c = rect.column; c < rect.column + rect.numColumns; c++) {
        this.write(r, c, {});
        if (everything) {
          this.put(r, c, 'nf', undefined);
          this.put(r, c, 'note', undefined);
          this.put(r, c, 'style', undefined);
        }
      }
    }
  }

  private rowHasContent(row: RowData | undefined): boolean {
    return !!row && (row.v.length > 0 || (row.f?.length ?? 0) > 0);
  }

  /** Last row with a value or formula (0 when the sheet is empty). */
  lastRow(): number {
    for (let r = this.rows.length; r >= 1; r--) if (this.rowHasContent(this.rows[r - 1])) return r;
    return 0;
  }

  lastColumn(): number {
    let last = 0;
    for (const row of this.rows) if (row) last = Math.max(last, row.v.length, row.f?.length ?? 0);
    return last;
  }

  /** Inserts empty rows after `afterRow`; the caller checks the workbook cell limit. */
  insertRows(afterRow: number, count: number): void {
    // Array literals, not splice(...spread): a spread of 100k+ arguments overflows the stack.
    if (this.rows.length > afterRow) {
      this.rows = [
        ...this.rows.slice(0, afterRow),
        ...new Array<RowData | undefined>(count),
        ...this.rows.slice(afterRow),
      ];
    }
    this.maxRows += count;
  }

  /** Removes rows `first`…`first + count - 1` (1-based); the rows below move up and the grid shrinks. */
  deleteRows(first: number, count: number): void {
    if (this.rows.length >= first)
      this.rows = [...this.rows.slice(0, first - 1), ...this.rows.slice(first - 1 + count)];
    this.maxRows -= count;
  }

  /** Lays the columns out as `order` lists them (old 1-based columns); one not listed is deleted (column-edits.ts). */
  reorderColumns(order: readonly number[]): void {
    const fields = ['v', 'f', 'fe', 'nf', 'note', 'style'] as const;
    this.rows = this.rows.map((row) => {
      if (!row) return row;
      const out: Record<string, unknown[]> = {};
      for (const field of fields) {
        const cells = row[field] as unknown[] | undefined;
        if (!cells) continue;
        const moved = order.map((c) => cells[c - 1]);
        while (moved.length > 0 && moved[moved.length - 1] === undefined) moved.pop();
        if (field === 'v' || moved.length > 0) out[field] = moved;
      }
      return out as unknown as RowData;
    });
    const widths: Record<string, number> = {};
    order.forEach((c, i) => {
      const px = this.columnWidths[String(c)];
      if (px !== undefined) widths[String(i + 1)] = px;
    });
    this.columnWidths = widths;
    this.maxColumns = order.length;
  }

  insertColumns(afterColumn: number, count: number): void {
    for (let i = 0; i < this.rows.length; i++) {
      let row = this.rows[i];
      if (!row) continue;
      if (this.sharedRows?.has(row)) {
        row = copyRow(row);
        this.rows[i] = row;
      }
      for (const field of ['v', 'f', 'nf', 'note', 'style'] as const) {
        const cells = row[field] as unknown[] | undefined;
        if (cells && cells.length > afterColumn) {
          (row as unknown as Record<string, unknown[]>)[field] = [
            ...cells.slice(0, afterColumn),
            ...new Array<undefined>(count),
            ...cells.slice(afterColumn),
          ];
        }
      }
    }
    const widths: Record<string, number> = {};
    for (const [key, px] of Object.entries(this.columnWidths))
      widths[String(Number(key) > afterColumn ? Number(key) + count : Number(key))] = px;
    this.columnWidths = widths;
    this.maxColumns += count;
  }

  columnWidth(column: number): number {
    return this.columnWidths[String(column)] ?? DEFAULT_COLUMN_WIDTH;
  }

  setColumnWidths(firstColumn: number, count: number, px: number): void {
    for (let c = firstColumn; c < firstColumn + count; c++) this.columnWidths[String(c)] = px;
  }

  /** autoResizeColumns: each column as wide as its widest shown value; a column without values keeps its width. */
  fitColumnWidths(firstColumn: number, count: number): void {
    for (let c = firstColumn; c < firstColumn + count; c++) {
      let widest = 0;
      this.rows.forEach((row, i) => {
        if (row?.v[c - 1] !== undefined)
          widest = Math.max(widest, displayValue(row.v[c - 1], this.format(i + 1, c)).length);
      });
      if (widest > 0) this.columnWidths[String(c)] = widest * CHAR_PX + FIT_PADDING_PX;
    }
  }

  /**
   * Makes `into` hold this sheet's content without copying every row: both share the row objects,
   * and whichever changes a shared row first copies it (the write buffer snapshots a 100k-row sheet
   * at each grid growth).
   */
  _shareInto(into: SheetModel): void {
    const shared = this.sharedRows ?? new WeakSet<RowData>();
    for (const r of this.rows) if (r) shared.add(r);
    Object.assign(into, this.properties());
    into.rows = this.rows.slice();
    into.sharedRows = shared;
    this.sharedRows = shared;
  }

  properties(): SheetProperties {
    const { sheetId, name, maxRows, maxColumns, frozenRows, frozenColumns, hidden, columnWidths } = this;
    return {
      sheetId,
      name,
      maxRows,
      maxColumns,
      frozenRows,
      frozenColumns,
      hidden,
      columnWidths: { ...columnWidths },
      protection: this.protection ? { ...this.protection, editors: this.protection.editors.slice() } : null,
      charts: this.charts.map((c) => JSON.parse(JSON.stringify(c)) as ChartSpec),
      conditionalFormats: JSON.parse(JSON.stringify(this.conditionalFormats)) as ConditionalFormatRecord[],
    };
  }
}

function copyRow(r: RowData): RowData {
  const out: RowData = { v: [...r.v] };
  if (r.f) out.f = [...r.f];
  if (r.fe) out.fe = [...r.fe];
  if (r.nf) out.nf = [...r.nf];
  if (r.note) out.note = [...r.note];
  if (r.style) out.style = [...r.style];
  return out;
}
