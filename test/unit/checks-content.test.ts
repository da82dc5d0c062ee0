/**
 * Which Checks rows a tie-out writes (checks-content.ts changedChecksRows): the rows whose content
 * or place changed and the scope line; the digests kept fit a property value beside the rest of
 * the tie-out's state, however many years of days the sheet lists.
 */
import { describe, expect, it } from 'vitest';
import { changedChecksRows } from '../../src/server/finance/checks-content';
import type { CellValue } from '../../src/server/sheets/cells';
import { CHECKS, columnIndex } from '../../src/server/sheets/schema';

const WIDTH = CHECKS.columns.length;
const CHECKED_AT = columnIndex(CHECKS, 'checked_at');
const ORDERS = columnIndex(CHECKS, 'orders');

function day(n: number): string {
  return new Date(Date.UTC(2020, 0, 1 + n)).toISOString().slice(0, 10);
}

/** `days` day rows and the scope line, checked at `at`. */
function lines(days: number, at = '2026-11-16T09:00:00.000Z'): CellValue[][] {
  const rows: CellValue[][] = [];
  for (let n = 0; n < days; n++) {
    const cells: CellValue[] = new Array<CellValue>(WIDTH).fill('');
    cells[0] = day(n);
    cells[1] = 'day';
    cells[ORDERS] = n % 7;
    cells[CHECKED_AT] = at;
    rows.push(cells);
  }
  const scope: CellValue[] = new Array<CellValue>(WIDTH).fill('');
  scope[0] = `${day(0)} … ${day(days - 1)}`;
  scope[1] = 'scope';
  scope[CHECKED_AT] = at;
  return [...rows, scope];
}

const keysOf = (rows: CellValue[][]): unknown[][] => rows.map((r) => [r[0], r[1]]);

describe('a tie-out writes only the Checks rows that changed', () => {
  it('nothing when every row says what it said, in place (checked_at aside)', () => {
    const first = changedChecksRows(lines(400), { rows: 0 }, null);
    expect(first.writes).toHaveLength(401);
    const again = lines(400, '2026-11-16T10:00:00.000Z');
    const second = changedChecksRows(again, { rows: 401, ...first }, keysOf(again));
    expect(second.writes).toEqual([]);
    expect(second.rowDigests).toBe(first.rowDigests);
  });

  it('a changed row and the scope line, as rows 2 down count them', () => {
    const held = changedChecksRows(lines(400), { rows: 0 }, null);
    const now = lines(400);
    now[120][ORDERS] = 99;
    const plan = changedChecksRows(now, { rows: 401, ...held }, keysOf(now));
    expect(plan.writes.map((w) => w.row)).toEqual([122, 402]);
  });

  it('rows out of place (the sheet sorted by hand) are written again, the digests alike', () => {
    const now = lines(10);
    const held = changedChecksRows(now, { rows: 0 }, null);
    const sheet = keysOf(now);
    [sheet[3], sheet[4]] = [sheet[4], sheet[3]];
    expect(changedChecksRows(now, { rows: 11, ...held }, sheet).writes.map((w) => w.row)).toEqual([5, 6, 12]);
  });

  it('rows below the last line that the sheet held are blanked', () => {
    const held = changedChecksRows(lines(10), { rows: 0 }, null);
    const now = lines(8);
    const plan = changedChecksRows(now, { rows: 11, ...held }, keysOf(lines(10)));
    const blanks = plan.writes.filter((w) => w.cells.every((c) => c === ''));
    expect(blanks.map((w) => w.row)).toEqual([11, 12]);
  });

  /** The rows as a whole read gives them: checked_at a serial number, the last check that wrote them at `WRITTEN`. */
  const WRITTEN = 46_342.375;
  const readWhole = (rows: CellValue[][]): CellValue[][] =>
    rows.map((r) => r.map((c, i) => (i === CHECKED_AT ? WRITTEN - 1 : c)));

  it('read whole (Checks → Run), a cell cleared by hand rewrites its row', () => {
    const now = lines(10);
    const held = changedChecksRows(now, { rows: 0 }, null);
    const sheet = readWhole(now);
    expect(
      changedChecksRows(now, { rows: 11, ...held }, keysOf(now), { rows: sheet, checkedBy: WRITTEN }).writes,
    ).toEqual([]);
    sheet[2][ORDERS] = '';
    const plan = changedChecksRows(now, { rows: 11, ...held }, keysOf(now), { rows: sheet, checkedBy: WRITTEN });
    expect(plan.writes.map((w) => w.row)).toEqual([4, 12]);
  });

  it('read whole, a checked_at later than the last check that wrote a row, cleared, or not a date-time rewrites its row', () => {
    const now = lines(10);
    const held = changedChecksRows(now, { rows: 0 }, null);
    const sheet = readWhole(now);
    sheet[1][CHECKED_AT] = WRITTEN;
    sheet[2][CHECKED_AT] = WRITTEN + 1 / 24;
    sheet[4][CHECKED_AT] = '';
    sheet[6][CHECKED_AT] = 'yesterday';
    const plan = changedChecksRows(now, { rows: 11, ...held }, keysOf(now), { rows: sheet, checkedBy: WRITTEN });
    expect(plan.writes.map((w) => w.row)).toEqual([4, 6, 8, 12]);
    expect(plan.linesWritten).toBe(true);
  });

  it('years of days: one digest per block of rows, within 3,600 characters; a changed row rewrites its block', () => {
    const now = lines(2_000);
    const held = changedChecksRows(now, { rows: 0 }, null);
    expect(held.rowsPerDigest).toBe(4);
    expect(held.rowDigests.length).toBeLessThanOrEqual(3_600);
    now[1_000][ORDERS] = 99;
    const plan = changedChecksRows(now, { rows: 2_001, ...held }, keysOf(now));
    // Row 1,000 (0-based) is in the block of rows 1,000-1,003: sheet rows 1,002-1,005, and the scope line.
    expect(plan.writes.map((w) => w.row)).toEqual([1_002, 1_003, 1_004, 1_005, 2_002]);
  });
});
