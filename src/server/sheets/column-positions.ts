/** Where a table's columns sit in its sheet, by header. */
import type { TableSchema } from './table-schema';

/** 0-based [start, end) of a schema's change columns, or null when it has none. */
export function changeSpan(schema: TableSchema): { start: number; end: number } | null {
  if (!schema.changeColumns) return null;
  return {
    start: columnIndex(schema, schema.changeColumns.from),
    end: columnIndex(schema, schema.changeColumns.to) + 1,
  };
}

/** 0-based position of a column in its sheet; throws for a header the schema lacks. */
export function columnIndex(schema: TableSchema, header: string): number {
  const i = schema.columns.findIndex((c) => c.header === header);
  if (i < 0) throw new Error(`${schema.sheetName} has no column ${header}`);
  return i;
}
