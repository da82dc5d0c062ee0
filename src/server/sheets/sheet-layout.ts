/**
 * Where each column of an Orders or Line items sheet is, once the user chooses columns. A sheet is
 * set up with the chosen columns in the catalog's order; a column chosen later goes to the right of
 * everything the sheet holds (no column moves, nothing of the user's is overwritten); a column no
 * longer chosen stays where it is, its values cleared and its header note saying since when (a
 * figure left there would contradict its row after the next change). The layout lists the
 * sheet's columns by position: a header the sync writes or has retired, or null for a column that
 * is not the add-on's (the user's own, between ours). Pure.
 */
import { chosenHeaders, type TableChoice } from './column-choice';
import type { CellValue } from './cells';
import type { RowWrite } from './row-writes';
import type { ColumnSpec, TableSchema } from './schema';

export interface TableLayout {
  /** 1-based column N holds columns[N - 1]; null is a column that is not the add-on's. */
  columns: Array<string | null>;
  /** Headers of the layout the sync no longer writes (removed from the choice). */
  retired: string[];
  /**
   * The day (YYYY-MM-DD, spreadsheet time zone) each retired column's values were cleared. A retired
   * column missing here (retired by an older version, which kept its values) is cleared next.
   */
  cleared?: Record<string, string>;
}

/** The layout of a sheet set up now: the chosen columns, in the table's sheet order (else the catalog's). */
export function newLayout(catalog: TableSchema, choice: TableChoice | undefined): TableLayout {
  const chosen = chosenHeaders(catalog, choice);
  const order = catalog.sheetOrder;
  if (!order) return { columns: chosen, retired: [] };
  const rank = (h: string): number => {
    const i = order.indexOf(h);
    return i < 0 ? order.length + chosen.indexOf(h) : i;
  };
  return { columns: chosen.slice().sort((a, b) => rank(a) - rank(b)), retired: [] };
}

/** What an older version set up (every catalog column), for a sheet with no stored layout. */
export function catalogLayout(catalog: TableSchema): TableLayout {
  return { columns: catalog.columns.map((c) => c.header), retired: [] };
}

/** The header note of a retired column, cleared on `day` (null: not cleared yet). */
export function retiredNote(day: string | null): string {
  const since = day === null ? '' : ` since ${day}`;
  const cleared = day === null ? '' : '; values cleared, so that none is taken for a current figure';
  return `No longer synced${since}${cleared}. It was removed from the chosen columns (sidebar → Columns): choose it again to have it filled for every order. Clearing frees no cells: delete the column to free them.`;
}

/**
 * The schema the sync writes a sheet by: the catalog's columns at the layout's positions. A retired
 * column or one that is not the add-on's is a `skip` column: its header is not checked and its cells
 * are never written. Index and change columns are always kept, wherever the layout places them:
 * found by header (indexColumnPositions, changeSpan).
 */
export function layoutSchema(catalog: TableSchema, layout: TableLayout): TableSchema {
  const byHeader = new Map(catalog.columns.map((c) => [c.header, c]));
  const retired = new Set(layout.retired);
  const columns: ColumnSpec[] = layout.columns.map((header) => {
    const spec = header === null ? undefined : byHeader.get(header);
    if (!spec) return { header: '', kind: 'text', skip: 'foreign' };
    return retired.has(spec.header)
      ? {
          header: spec.header,
          kind: spec.kind,
          skip: 'retired',
          note: retiredNote(layout.cleared?.[spec.header] ?? null),
        }
      : spec;
  });
  // A sheet's own schema given again keeps its index headers (its leading columns are not its keys).
  const indexHeaders = catalog.indexHeaders ?? catalog.columns.slice(0, catalog.indexColumns).map((c) => c.header);
  return { ...catalog, columns, addedColumns: undefined, indexHeaders };
}

export interface LayoutChange {
  /** Chosen headers the sheet lacks: added to the right (1-based columns), then filled for existing rows. */
  add: Array<{ header: string; column: number }>;
  /** Retired headers chosen again: written again, and filled for existing rows. */
  revive: string[];
  /** Synced headers no longer chosen. */
  retire: string[];
  /** Retired headers whose values are still in the sheet: cleared now (withClearedOn stamps the day). */
  clear: string[];
  layout: TableLayout;
}

/**
 * How a sheet's layout follows the choice. `firstFree` is the first column right of everything the
 * sheet holds (Sheet.getLastColumn() + 1); `headerRow` the header row as far as it reaches, so a
 * column a cut-short run already added is taken back rather than added twice. Null when nothing changes.
 */
export function planLayoutChange(
  layout: TableLayout,
  chosen: readonly string[],
  firstFree: () => number,
  headerRow: () => readonly unknown[],
): LayoutChange | null {
  const placed = new Set(layout.columns.filter((h): h is string => h !== null));
  const retired = new Set(layout.retired);
  const wanted = new Set(chosen);
  const revive = layout.retired.filter((h) => wanted.has(h));
  const retire = [...placed].filter((h) => !retired.has(h) && !wanted.has(h));
  const missing = chosen.filter((h) => !placed.has(h));
  const cleared = layout.cleared ?? {};
  const clear = layout.retired.filter((h) => !wanted.has(h) && cleared[h] === undefined).concat(retire);
  if (revive.length === 0 && clear.length === 0 && missing.length === 0) return null;
  const columns = layout.columns.slice();
  const add: LayoutChange['add'] = [];
  if (missing.length > 0) {
    const row = headerRow().map((v) => (v === null || v === undefined ? '' : String(v).trim()));
    // Right of everything the sheet holds, so an adopted column (always left of it) is never taken twice.
    let next = Math.max(firstFree(), columns.length + 1);
    for (const header of missing) {
      const already = row.indexOf(header, layout.columns.length);
      const column = already >= 0 ? already + 1 : next++;
      while (columns.length < column) columns.push(null);
      columns[column - 1] = header;
      add.push({ header, column });
    }
  }
  const stillRetired = layout.retired.filter((h) => !wanted.has(h)).concat(retire);
  const keptDays: Record<string, string> = {};
  for (const h of stillRetired) if (cleared[h] !== undefined) keptDays[h] = cleared[h];
  return { add, revive, retire, clear, layout: { columns, retired: stillRetired, cleared: keptDays } };
}

/** The layout once `headers` were cleared on `day`. */
export function withClearedOn(layout: TableLayout, headers: readonly string[], day: string): TableLayout {
  const cleared = { ...(layout.cleared ?? {}) };
  for (const h of headers) cleared[h] = day;
  return { ...layout, cleared };
}

/** Headers of the catalog that a layout writes (placed and not retired). */
export function syncedHeaders(layout: TableLayout): string[] {
  const retired = new Set(layout.retired);
  return layout.columns.filter((h): h is string => h !== null && !retired.has(h));
}

/**
 * The sync builds rows in the catalog's column order; a sheet holds them at its layout's columns.
 * For each catalog position, the 1-based sheet column that holds it, or 0 when the sheet does not
 * sync it (never chosen, or retired). Null when the two orders are the same (nothing to translate).
 */
export function columnMap(catalog: TableSchema, layout: TableLayout): number[] | null {
  const retired = new Set(layout.retired);
  const at = new Map<string, number>();
  layout.columns.forEach((h, i) => {
    if (h !== null && !retired.has(h) && !at.has(h)) at.set(h, i + 1);
  });
  const map = catalog.columns.map((c) => at.get(c.header) ?? 0);
  const identity = map.every((column, i) => column === i + 1) && layout.columns.length === catalog.columns.length;
  return identity ? null : map;
}

/**
 * Catalog-ordered row writes as the sheet's writes: a whole row (from column 1, catalog width)
 * becomes a whole row of the sheet's width (cells of columns it does not sync left empty, to be
 * cut by withoutSkipped); a partial write becomes one write per run of adjacent sheet columns.
 */
export function toSheetWrites(map: readonly number[], sheetWidth: number, writes: readonly RowWrite[]): RowWrite[] {
  const out: RowWrite[] = [];
  for (const w of writes) {
    if (w.column === 1 && w.cells.length === map.length) {
      const cells: CellValue[] = new Array<CellValue>(sheetWidth).fill('');
      map.forEach((column, i) => {
        if (column > 0) cells[column - 1] = w.cells[i];
      });
      out.push({ ...w, cells });
      continue;
    }
    const placed = w.cells
      .map((value, k) => ({ column: map[w.column - 1 + k] ?? 0, value }))
      .filter((p) => p.column > 0)
      .sort((a, b) => a.column - b.column);
    let i = 0;
    while (i < placed.length) {
      let j = i;
      while (j + 1 < placed.length && placed[j + 1].column === placed[j].column + 1) j++;
      out.push({ ...w, column: placed[i].column, cells: placed.slice(i, j + 1).map((p) => p.value) });
      i = j + 1;
    }
  }
  return out;
}

/** A sheet row read back in the catalog's column order (columns the sheet does not sync read empty). */
export function toCatalogRow(map: readonly number[], row: readonly unknown[]): unknown[] {
  return map.map((column) => (column > 0 && column <= row.length ? row[column - 1] : ''));
}
