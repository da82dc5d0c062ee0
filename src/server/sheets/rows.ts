/**
 * API record → row of cells, by schema. Pure: the jobs hand in the record and the derived values,
 * this file decides nothing about sync, only how each value becomes a safe cell.
 */
import { booleanCell, dateCell, numberCell, textCell, timestampCell, type CellValue } from './cells';
import { PERCENT_FORMAT, percentCell } from './percent';
import type { ColumnKind, TableSchema } from './schema';

export type DerivedValues = Readonly<Record<string, unknown>>;

export function valueAt(record: unknown, path: readonly string[]): unknown {
  let current: unknown = record;
  for (const key of path) {
    if (current === null || current === undefined || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

export function toCell(value: unknown, kind: ColumnKind, timeZone: string): CellValue {
  switch (kind) {
    case 'text':
      return textCell(value);
    case 'bool':
      return booleanCell(value);
    case 'timestamp':
      return timestampCell(value, timeZone);
    case 'date':
      return dateCell(value);
    case 'pct':
      // API points (0–100) as Sheets' fraction: the column's 0.00% format shows it as the points.
      return numberCell(percentCell(value));
    default:
      return numberCell(value);
  }
}

/** Each schema's column positions by header, made once: a row is built per record, thousands a run. */
const positionsBySchema = new WeakMap<TableSchema, ReadonlyMap<string, readonly number[]>>();

function positionsOf(schema: TableSchema): ReadonlyMap<string, readonly number[]> {
  let positions = positionsBySchema.get(schema);
  if (!positions) {
    const byHeader = new Map<string, number[]>();
    schema.columns.forEach((c, i) => byHeader.set(c.header, [...(byHeader.get(c.header) ?? []), i]));
    positions = byHeader;
    positionsBySchema.set(schema, positions);
  }
  return positions;
}

/** One row: derived values by header win over the record's field at the column's path. */
export function buildRow(schema: TableSchema, record: unknown, derived: DerivedValues, timeZone: string): CellValue[] {
  const columns = schema.columns;
  // Looked up once per derived value, not once per column: most columns are the record's.
  const fromDerived: boolean[] = new Array<boolean>(columns.length).fill(false);
  const positions = positionsOf(schema);
  for (const header of Object.keys(derived)) {
    for (const at of positions.get(header) ?? []) fromDerived[at] = true;
  }
  const cells: CellValue[] = new Array<CellValue>(columns.length);
  for (let i = 0; i < columns.length; i++) {
    const column = columns[i];
    const raw = fromDerived[i] ? derived[column.header] : column.path ? valueAt(record, column.path) : undefined;
    cells[i] = toCell(raw, column.kind, timeZone);
  }
  return cells;
}

/**
 * Number format of a column (a percent column holds a fraction: percent.ts). Amounts of a USD store use Sheets' own
 * "Currency" format (Format → Number → Currency: `[$$]#,##0.00`, shown `$1,234.50`, `-$5.00`);
 * any other currency keeps its ISO code (`1,234.50 EUR`): a bare `$` is shared by CAD, AUD, … and
 * would let a figure be misread.
 */
export function numberFormatFor(kind: ColumnKind, currency: string | null): string | null {
  switch (kind) {
    case 'amount':
      if (currency === 'USD') return '[$$]#,##0.00';
      return currency ? `#,##0.00 [$${currency}]` : '#,##0.00';
    case 'pct':
      return PERCENT_FORMAT;
    case 'int':
      return '0';
    case 'timestamp':
      return 'yyyy-mm-dd hh:mm:ss';
    case 'date':
      return 'yyyy-mm-dd';
    case 'text':
      return '@';
    default:
      return null;
  }
}
