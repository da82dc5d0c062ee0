/**
 * A close's seal: a fingerprint of the values the close wrote into its `Close YYYY-MM` sheet, kept
 * in one document property, so the tie-out proves each close sheet still holds what the close
 * saved. The sheet is protected, yet its owner can still edit it, and the Restatements compare
 * the months' figures against whatever it holds: an edited snapshot would move them silently. The
 * seal cannot put the values back (the figures at close are not kept elsewhere): a sheet that no
 * longer matches is ✗ in Checks, with what to do.
 */
import { documentProperties } from '../platform/properties';
import { CLOSE_ORDER_COLUMNS } from './close-orders';
import { CLOSE_COLUMNS, CLOSE_ORDERS_TITLE_ROW, closeSheetRanges, closedMonthOf } from './close-sheet';

const KEY = 'ma.closeSeals';

type Seals = Record<string, string>;

/** FNV-1a of the cells as a read returns them: trailing empty cells and rows are left out. */
function seal(ranges: ReadonlyArray<ReadonlyArray<ReadonlyArray<unknown>>>): string {
  const text = JSON.stringify(
    ranges.map((rows) => {
      const kept = rows.map((row) => {
        const cells = row.map((c) => (c === null || c === undefined ? '' : c));
        while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
        return cells;
      });
      while (kept.length > 0 && kept[kept.length - 1].length === 0) kept.pop();
      return kept;
    }),
  );
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return `${text.length}:${h.toString(16)}`;
}

/** The seal of the values a close writes, cut into the ranges a read of the sheet takes (closeSheetRanges). */
export function sealOfWritten(values: ReadonlyArray<ReadonlyArray<unknown>>): string {
  const head = values.slice(0, CLOSE_ORDERS_TITLE_ROW).map((r) => r.slice(0, CLOSE_COLUMNS.length));
  const orders = values.slice(CLOSE_ORDERS_TITLE_ROW).map((r) => r.slice(0, CLOSE_ORDER_COLUMNS.length));
  return seal(values.length > CLOSE_ORDERS_TITLE_ROW ? [head, orders] : [head]);
}

function sealsOf(text: string | null | undefined): Seals {
  try {
    const saved = JSON.parse(text ?? '{}') as unknown;
    return saved && typeof saved === 'object' && !Array.isArray(saved) ? (saved as Seals) : {};
  } catch {
    return {};
  }
}

export function saveCloseSeal(month: string, values: ReadonlyArray<ReadonlyArray<unknown>>): void {
  documentProperties().setProperty(
    KEY,
    JSON.stringify({ ...sealsOf(documentProperties().getProperty(KEY)), [month]: sealOfWritten(values) }),
  );
}

export interface CloseCheck {
  month: string;
  /** true: the sheet holds what the close saved; false: it differs; null: closed before seals were kept. */
  sealed: boolean | null;
}

/**
 * Every close sheet beside its seal: one Values.batchGet of them all (none when no month is
 * closed), the ranges the Restatements read. The seals come from the run's one whole read of the
 * document properties (`readAtStart`): no call of their own.
 */
export function checkCloses(
  sheets: ReadonlyArray<{ title: string; rows: number }>,
  readRanges: (ranges: readonly string[]) => unknown[][][],
  readAtStart: Readonly<Record<string, string>>,
): CloseCheck[] {
  const closes = sheets.filter((s) => closedMonthOf(s.title) !== null);
  if (closes.length === 0) return [];
  const seals = sealsOf(readAtStart[KEY]);
  const read = readRanges(closes.flatMap(closeSheetRanges));
  let at = 0;
  return closes
    .map((sheet) => {
      const month = closedMonthOf(sheet.title)!;
      const ranges = closeSheetRanges(sheet).map(() => read[at++] ?? []);
      const saved = seals[month];
      return { month, sealed: saved === undefined ? null : seal(ranges) === saved };
    })
    .sort((a, b) => (a.month < b.month ? -1 : 1));
}
