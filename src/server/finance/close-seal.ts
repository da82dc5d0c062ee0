/**
 * A close's seal: a fingerprint of the values the close wrote into its `Close YYYY-MM` sheet, kept
 * in one document property, so the tie-out proves each close sheet still holds what the close
 * saved. The sheet is protected, yet its owner can still edit it, and the Restatements compare
 * the months' figures against whatever it holds: an edited snapshot would move them silently. The
 * seal cannot put the values back (the figures at close are not kept elsewhere): a sheet that no
 * longer matches is ✗ in Checks, with what to do.
 */
import { fnv1a } from '../platform/fnv1a';
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
  return `${text.length}:${fnv1a(text).toString(16)}`;
}

/** The same fingerprint of any values (one range of rows). */
export function fingerprintOf(rows: ReadonlyArray<ReadonlyArray<unknown>>): string {
  return seal([rows]);
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

export function saveCloseSeal(month: string, values: ReadonlyArray<ReadonlyArray<unknown>>, now: number): void {
  const properties = documentProperties();
  properties.setProperty(
    KEY,
    JSON.stringify({ ...sealsOf(properties.getProperty(KEY)), [month]: sealOfWritten(values) }),
  );
  // The sheet holds what the close just wrote: checked now, so the next tie-out need not read it.
  const checked: Checked = { sealed: true, rows: values.length, at: now };
  properties.setProperty(
    CHECKED_KEY,
    JSON.stringify({ ...checkedOf(properties.getProperty(CHECKED_KEY)), [month]: checked }),
  );
}

export interface CloseCheck {
  month: string;
  /** true: the sheet holds what the close saved; false: it differs; null: closed before seals were kept. */
  sealed: boolean | null;
  /** When the sheet was last read and compared, when not in this tie-out. */
  checkedAt?: number;
}

const CHECKED_KEY = 'ma.closeChecks';
/** How long a close sheet's check stands before the sheet is read again (its hand edit shows within a day). */
const RECHECK_MS = 86_400_000;

interface Checked {
  sealed: boolean | null;
  rows: number;
  at: number;
}

function checkedOf(text: string | null | undefined): Record<string, Checked> {
  try {
    const saved = JSON.parse(text ?? '{}') as unknown;
    return saved && typeof saved === 'object' && !Array.isArray(saved) ? (saved as Record<string, Checked>) : {};
  } catch {
    return {};
  }
}

/**
 * Every close sheet beside its seal. A sheet is read (one Values.batchGet of those due, the ranges
 * the Restatements read; none when no month is closed) when it was never checked, its row count
 * moved, its last check is a day old, or the tie-out reads everything (`whole`: Checks → Run, Sync
 * now, the daily whole read); otherwise the last check stands, with its time, so an
 * hourly tie-out does not read every close's order section. The seals and the last
 * checks come from the run's one whole read of the document properties (`readAtStart`). Without
 * `kept` (no run: a check on its own), every close sheet is read and nothing is kept.
 */
export function checkCloses(
  sheets: ReadonlyArray<{ title: string; rows: number }>,
  readRanges: (ranges: readonly string[]) => unknown[][][],
  readAtStart: Readonly<Record<string, string>>,
  kept: { now: number; whole: boolean } | null = null,
): CloseCheck[] {
  const now = kept?.now ?? 0;
  const closes = sheets.filter((s) => closedMonthOf(s.title) !== null);
  if (closes.length === 0) return [];
  const seals = sealsOf(readAtStart[KEY]);
  const last = kept ? checkedOf(readAtStart[CHECKED_KEY]) : {};
  const stands = (sheet: { title: string; rows: number }): Checked | null => {
    const before = last[closedMonthOf(sheet.title)!];
    return before && !kept?.whole && before.rows === sheet.rows && now - before.at < RECHECK_MS ? before : null;
  };
  const due = closes.filter((s) => stands(s) === null);
  const read = readRanges(due.flatMap(closeSheetRanges));
  let at = 0;
  const checked: Record<string, Checked> = {};
  const out = closes.map((sheet): CloseCheck => {
    const month = closedMonthOf(sheet.title)!;
    const stood = stands(sheet);
    if (stood) {
      checked[month] = stood;
      return { month, sealed: stood.sealed, checkedAt: stood.at };
    }
    const ranges = closeSheetRanges(sheet).map(() => read[at++] ?? []);
    const saved = seals[month];
    const sealed = saved === undefined ? null : seal(ranges) === saved;
    checked[month] = { sealed, rows: sheet.rows, at: now };
    return { month, sealed };
  });
  if (kept && (due.length > 0 || Object.keys(last).length !== closes.length))
    documentProperties().setProperty(CHECKED_KEY, JSON.stringify(checked));
  return out.sort((a, b) => (a.month < b.month ? -1 : 1));
}
