/** The column declarations the table schemas are written in: an API field, a nested field, a derived column. */
import type { ColumnKind, ColumnSpec } from './table-schema';

/** A field of the API record (at `path`, by default its header). */
export const field = (
  header: string,
  kind: ColumnKind,
  path: readonly string[] = [header],
  note?: string,
): ColumnSpec => (note ? { header, kind, path, note } : { header, kind, path });
/** A column the job fills (no API path). */
export const derived = (header: string, kind: ColumnKind, note?: string): ColumnSpec =>
  note ? { header, kind, note } : { header, kind };
/** A field of a nested API object, flattened under its own name. */
export const nested = (parent: string, kind: ColumnKind, name: string, note?: string): ColumnSpec =>
  field(name, kind, [parent, name], note);
