/**
 * A row of the Orders or Line items sheet as a row of its BigQuery table (pure): each cell read
 * back by its column's kind, the inverse of the sheets' cell conversion (sheets/cells.ts): an empty
 * cell is NULL, money a decimal string, an instant's serial (the spreadsheet's zone) an RFC 3339
 * instant, a date's serial YYYY-MM-DD. A cell the column's type cannot hold (text typed into an
 * amount) stops the move with the sheet row named: the sheets keep every cell until it is fixed.
 */
import { serialInstants, serialToDate, serialToInstant } from '../platform/calendar';
import { fractionToPoints } from '../sheets/percent';
import type { ColumnKind, ColumnSpec } from '../sheets/schema';
import { decimalText, type WarehouseRow } from './rows';
import type { WarehouseTable } from './table-schemas';

export class SwitchCellError extends Error {
  constructor(sheet: string, row: number, column: string, value: unknown) {
    super(
      `Row ${row} of ${sheet}: ${column} holds “${String(value).slice(0, 40)}”, which its BigQuery column cannot hold. ` +
        'Correct or clear that cell; the sheets keep every row until the move is done.',
    );
    this.name = 'SwitchCellError';
  }
}

type Cell = string | number | boolean | null;

/**
 * An empty cell of a text column is the empty string where the API's field is a string that is
 * never null (spec 2.2–2.5: "string"), and NULL where the spec allows null ("string or null": the
 * UTM fields) or the column is the sync's own (status, cost status): a cell cannot tell "" from
 * null, the spec's type can.
 */
const NULLABLE_TEXT = new Set(['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content']);

function emptyCell(spec: ColumnSpec): Cell {
  return spec.kind === 'text' && spec.path && !NULLABLE_TEXT.has(spec.header) ? '' : null;
}

function cellValue(cell: unknown, kind: ColumnKind, timeZone: string): Cell | undefined {
  switch (kind) {
    case 'text':
      return typeof cell === 'string' ? cell : String(cell);
    case 'amount':
      return typeof cell === 'number' && Number.isFinite(cell) ? decimalText(cell) : undefined;
    case 'int':
      return typeof cell === 'number' && Number.isSafeInteger(cell) ? cell : undefined;
    case 'number':
      return typeof cell === 'number' && Number.isFinite(cell) ? cell : undefined;
    case 'pct':
      // The sheet holds Sheets' fraction (sheets/percent.ts); the table the API's points.
      return fractionToPoints(cell) ?? undefined;
    case 'bool':
      return typeof cell === 'boolean' ? cell : undefined;
    case 'timestamp': {
      if (typeof cell !== 'number') return undefined;
      // A time the clock skipped (typed in by hand) reads as serialToInstant does.
      const [first] = serialInstants(cell, timeZone);
      return new Date(first ?? serialToInstant(cell, timeZone)).toISOString();
    }
    case 'date':
      return typeof cell === 'number' ? serialToDate(cell) : undefined;
  }
}

export interface SheetRowsRead {
  sheet: string;
  /** Row 1 of the sheet: where each column is, by its header. */
  header: readonly unknown[];
  /** The rows read, the first being sheet row `firstRow`. */
  rows: readonly unknown[][];
  firstRow: number;
  spreadsheetTimeZone: string;
}

/** A timestamp cell in the hour a daylight-saving change repeats: it reads as either instant (the table row holds the first). */
export interface AmbiguousInstant {
  field: string;
  /** Where the API's record holds it; null for the sync's own columns. */
  path: readonly string[] | null;
  instants: number[];
}

export interface WarehouseRowRead {
  row: WarehouseRow;
  sheetRow: number;
  ambiguous: AmbiguousInstant[];
}

/**
 * The table's rows from the sheet's rows: rows without a key and rows of orders the service no
 * longer has (`goneColumn` = 'gone') are left out; `stampColumn` carries the move's instant.
 */
export function warehouseRowsOf(
  read: SheetRowsRead,
  table: WarehouseTable,
  options: { goneColumn: string; stamp: string; stampColumn: string },
): WarehouseRowRead[] {
  const at = new Map<string, number>();
  read.header.forEach((h, i) => {
    if (typeof h === 'string' && !at.has(h)) at.set(h, i);
  });
  const out: WarehouseRowRead[] = [];
  read.rows.forEach((cells, i) => {
    const sheetRow = read.firstRow + i;
    const keysThere = table.key.every((k) => {
      const c = at.get(k);
      return c !== undefined && cells[c] !== '' && cells[c] !== undefined && cells[c] !== null;
    });
    if (!keysThere) return;
    const gone = at.get(options.goneColumn);
    if (gone !== undefined && cells[gone] === 'gone') return;
    const row: WarehouseRow = {};
    const ambiguous: AmbiguousInstant[] = [];
    for (const { spec, field } of table.columns) {
      if (field.name === options.stampColumn) {
        row[field.name] = options.stamp;
        continue;
      }
      const c = at.get(spec.header);
      const cell = c === undefined ? '' : cells[c];
      const value =
        cell === '' || cell === null || cell === undefined
          ? emptyCell(spec)
          : cellValue(cell, spec.kind, read.spreadsheetTimeZone);
      if (value === undefined) throw new SwitchCellError(read.sheet, sheetRow, spec.header, cell);
      row[field.name] = value;
      if (spec.kind === 'timestamp' && typeof cell === 'number') {
        const instants = serialInstants(cell, read.spreadsheetTimeZone);
        if (instants.length > 1) ambiguous.push({ field: field.name, path: spec.path ?? null, instants });
      }
    }
    out.push({ row, sheetRow, ambiguous });
  });
  return out;
}
