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

/**
 * 0-based sheet positions of a table's index columns (id first, then the others in the catalog's
 * order), found by header in the sheet's schema: a layout may place them anywhere (Orders shows
 * them last). With columnIndex, the one lookup of where a key column is.
 */
export function indexColumnPositions(schema: TableSchema): number[] {
  const headers = schema.indexHeaders ?? schema.columns.slice(0, schema.indexColumns).map((c) => c.header);
  return headers.map((header) => columnIndex(schema, header));
}

/** 0-based position of a column in its sheet (the sheet's schema: a layout's, or the catalog); throws for a header the schema lacks. */
export function columnIndex(schema: TableSchema, header: string): number {
  const i = schema.columns.findIndex((c) => c.header === header);
  if (i < 0) throw new Error(`${schema.sheetName} has no column ${header}`);
  return i;
}
