/**
 * What the Checks sheet says, apart from when it was said: a digest of each row's cells (its
 * checked-at cell aside), kept in the document state, so a tie-out writes only the rows whose
 * content or place changed, and the scope line that carries the check's time with them. A
 * reconciliation that finds nothing writes nothing; an hourly run that changed a few days writes
 * those days, their months and the scope line. A row is found by its place: the run's first read
 * takes each row's period and kind, so a sheet sorted, or a row deleted or inserted by hand, has
 * the rows out of place rewritten. When the user asks for the check (Checks → Run), and with the
 * Orders sheet's daily whole read, the rows are read whole and compared cell by cell instead: a cell
 * cleared or typed over by hand is put back, a checked-at cell among them when it is empty, not a
 * date-time, or later than the check that last changed a row (no row looks proven later than it was).
 */
import type { CellValue } from '../sheets/cells';
import type { RowWrite } from '../sheets/row-writes';
import { CHECKS, columnIndex } from '../sheets/schema';
import { SIX_BITS } from '../platform/six-bits';
import { fnv1a } from '../platform/fnv1a';

const CHECKED_AT = columnIndex(CHECKS, 'checked_at');
const PERIOD = columnIndex(CHECKS, 'period');
const KIND = columnIndex(CHECKS, 'kind');

/**
 * Digests kept at most: 6 characters each, 3,600 of a property value's 9 KB (apps-script-facts.md),
 * the rest of the tie-out's state beside them (its refetched days grow with the ✗ days). A longer
 * sheet (past a year and a half of days) keeps one digest per block of rows, and a changed row
 * rewrites its block.
 */
const MAX_DIGESTS = 600;
const DIGEST_CHARS = 6;

/** What the last tie-out wrote, as the document state keeps it. */
export interface ChecksHeld {
  /** Data rows the sheet holds (the scope line among them). */
  rows: number;
  /** A digest per block of `rowsPerDigest` rows, row 2 first; absent before the first tie-out that kept them. */
  rowDigests?: string;
  rowsPerDigest?: number;
  /** When the last check that wrote a row ran (the scope line's checked-at): no row's checked-at is later. */
  rowsWrittenAt?: number;
}

/** The Checks rows as read whole (unformatted), and the latest checked-at a row may hold (a serial in the sheet's zone). */
export interface ChecksRead {
  rows: ReadonlyArray<readonly unknown[]>;
  checkedBy: number;
}

/** Slack for a checked-at serial read back against the one written: a second. */
const SERIAL_SECOND = 1 / 86_400;

export interface ChecksWrites {
  writes: RowWrite[];
  /** Whether a line of the check is among the writes (not only blanks below the last). */
  linesWritten: boolean;
  rowDigests: string;
  rowsPerDigest: number;
}

function blockDigest(lines: ReadonlyArray<readonly CellValue[]>): string {
  let h: number | undefined;
  for (const cells of lines) h = fnv1a(JSON.stringify(cells.map((c, i) => (i === CHECKED_AT ? null : c))), h);
  let text = '';
  for (let k = 0; k < DIGEST_CHARS; k++, h = (h ?? 0) >>> 6) text += SIX_BITS[(h ?? 0) & 63];
  return text;
}

const keyText = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

/**
 * Whether the sheet's row (as read, unformatted) holds the line's cells, and a checked-at a check
 * that changed a row could have written (a serial, at most `checkedBy`).
 */
function holds(read: readonly unknown[] | undefined, cells: readonly CellValue[], checkedBy: number): boolean {
  const at = read?.[CHECKED_AT];
  const checked = typeof at === 'number' && at > 0 && at <= checkedBy + SERIAL_SECOND;
  return checked && cells.every((c, i) => i === CHECKED_AT || keyText(read?.[i]) === keyText(c));
}

/**
 * The writes of a tie-out's rows (`lines`, row 2 down, the scope line last): the blocks whose
 * digest differs from the one kept, or whose rows the sheet does not hold in place (`sheetKeys`:
 * each row's period and kind as the run's first read found them; null when the sheet is not
 * there), with the scope line whenever another row goes; then blanks below the last line where
 * the sheet held more. `sheetRead`: the sheet's rows read whole, compared instead of the digests.
 * No writes when the sheet already says it all.
 */
export function changedChecksRows(
  lines: ReadonlyArray<readonly CellValue[]>,
  held: ChecksHeld,
  sheetKeys: ReadonlyArray<readonly unknown[]> | null,
  sheetRead: ChecksRead | null = null,
): ChecksWrites {
  const per = Math.max(1, Math.ceil(lines.length / MAX_DIGESTS));
  const comparable = sheetKeys !== null && held.rowDigests !== undefined && held.rowsPerDigest === per;
  const inPlace = (i: number): boolean =>
    sheetKeys !== null &&
    keyText(sheetKeys[i]?.[PERIOD]) === keyText(lines[i][PERIOD]) &&
    keyText(sheetKeys[i]?.[KIND]) === keyText(lines[i][KIND]);
  let rowDigests = '';
  const changed: number[] = [];
  for (let first = 0; first < lines.length; first += per) {
    const block = lines.slice(first, first + per);
    const digest = blockDigest(block);
    rowDigests += digest;
    const at = (first / per) * DIGEST_CHARS;
    const same = sheetRead
      ? block.every((cells, k) => holds(sheetRead.rows[first + k], cells, sheetRead.checkedBy))
      : comparable &&
        held.rowDigests!.slice(at, at + DIGEST_CHARS) === digest &&
        block.every((_, k) => inPlace(first + k));
    if (!same) for (let k = 0; k < block.length; k++) changed.push(first + k);
  }
  const scope = lines.length - 1;
  if (changed.length > 0 && changed[changed.length - 1] !== scope) changed.push(scope);
  const writes: RowWrite[] = changed.map((i) => ({ row: i + 2, column: 1, cells: lines[i].slice() }));
  const lastHeld = Math.max(held.rows, sheetKeys?.length ?? 0, sheetRead?.rows.length ?? 0) + 1;
  for (let row = lines.length + 2; row <= lastHeld; row++)
    writes.push({ row, column: 1, cells: CHECKS.columns.map(() => '') });
  return { writes, linesWritten: changed.length > 0, rowDigests, rowsPerDigest: per };
}
