/**
 * Deleting and moving whole columns as Sheets does, with what goes along with a column: its cells
 * (values, formulas, formats, notes, styles), its width, the developer metadata located on it and
 * the conditional-format ranges over it. Google's DeveloperMetadata guide
 * (developers.google.com/workspace/sheets/api/guides/metadata): metadata on a column "moves with"
 * it when columns are inserted, deleted or moved, and "is deleted" when its column is deleted.
 * Stricter than Google where the runtime does not model the effect: a chart over the columns
 * touched, or a column span (metadata or conditional-format range) a move would split, is refused
 * before anything changes.
 */
import type { SheetModel } from './sheet-model';
import type { Workbook } from './workbook';

/** New 1-based position of each old column (0: deleted), from the new order of old columns. */
function positions(order: readonly number[], width: number): number[] {
  const at = new Array<number>(width + 1).fill(0);
  order.forEach((old, i) => (at[old] = i + 1));
  return at;
}

/** A span of old columns [first, last] (1-based) as it stands after the change; null when all of it is gone. */
function spanAfter(at: readonly number[], first: number, last: number, what: string): [number, number] | null {
  const kept = [];
  for (let c = first; c <= last; c++) if (at[c] > 0) kept.push(at[c]);
  if (kept.length === 0) return null;
  kept.sort((a, b) => a - b);
  if (kept[kept.length - 1] - kept[0] + 1 !== kept.length)
    throw new Error(`Splitting ${what} over several columns is not modelled by the local runtime.`);
  return [kept[0], kept[kept.length - 1]];
}

/**
 * Lays the sheet's columns out as `order` lists them (old 1-based columns, left to right); a column
 * not listed is deleted. Everything is checked before anything changes.
 */
export function reorderColumns(workbook: Workbook, sheet: SheetModel, order: readonly number[], action: string): void {
  const at = positions(order, sheet.maxColumns);
  const touched = new Set(Array.from({ length: sheet.maxColumns }, (_, i) => i + 1).filter((c) => at[c] !== c));
  if (touched.size === 0) return;
  const charted = workbook.sheets.some((s) =>
    s.charts.some((chart) =>
      chart.ranges.some(
        (r) =>
          r.sheetId === sheet.sheetId &&
          Array.from({ length: r.numColumns }, (_, k) => r.column + k).some((c) => touched.has(c)),
      ),
    ),
  );
  if (charted) throw new Error(`${action} under a chart is not modelled by the local runtime.`);
  const metadata = workbook.developerMetadata.map((m) => {
    const loc = m.location;
    if (loc.type !== 'COLUMN' || loc.sheetId !== sheet.sheetId) return { m, span: undefined };
    return { m, span: spanAfter(at, loc.start, loc.end, 'developer metadata') };
  });
  const rules = sheet.conditionalFormats.map((rule) =>
    rule.ranges.map((r) => {
      if (r.sheetId !== sheet.sheetId || (r.startColumnIndex === undefined && r.endColumnIndex === undefined))
        return { r, span: undefined };
      const first = (r.startColumnIndex ?? 0) + 1;
      const last = r.endColumnIndex ?? sheet.maxColumns;
      return { r, span: spanAfter(at, first, last, 'a conditional format range') };
    }),
  );

  sheet.reorderColumns(order);
  workbook.developerMetadata = metadata
    .filter(({ span }) => span !== null)
    .map(({ m, span }) => {
      if (span && m.location.type === 'COLUMN') {
        m.location.start = span[0];
        m.location.end = span[1];
      }
      return m;
    });
  sheet.conditionalFormats = sheet.conditionalFormats
    .map((rule, i) => ({
      ...rule,
      ranges: rules[i]
        .filter(({ span }) => span !== null)
        .map(({ r, span }) => (span ? { ...r, startColumnIndex: span[0] - 1, endColumnIndex: span[1] } : r)),
    }))
    .filter((rule) => rule.ranges.length > 0);
}

/** Columns `first`…`first + count - 1` (1-based) deleted: the columns right of them move left. */
export function deleteColumns(workbook: Workbook, sheet: SheetModel, first: number, count: number): void {
  const order = [];
  for (let c = 1; c <= sheet.maxColumns; c++) if (c < first || c >= first + count) order.push(c);
  reorderColumns(workbook, sheet, order, 'Sheet.deleteColumns');
}

/**
 * Columns `first`…`first + count - 1` moved to `destination`, a column index "based on the
 * coordinates before the columns are moved" (Sheet.moveColumns, developers.google.com/apps-script/reference/spreadsheet/sheet#movecolumnscolumnspec,-destinationindex).
 */
export function moveColumns(
  workbook: Workbook,
  sheet: SheetModel,
  first: number,
  count: number,
  destination: number,
): void {
  const block = Array.from({ length: count }, (_, k) => first + k);
  const rest = [];
  for (let c = 1; c <= sheet.maxColumns; c++) if (c < first || c >= first + count) rest.push(c);
  const before = rest.filter((c) => c < destination).length;
  const order = [...rest.slice(0, before), ...block, ...rest.slice(before)];
  reorderColumns(workbook, sheet, order, 'Sheet.moveColumns');
}
