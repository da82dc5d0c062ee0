/**
 * A close's seal, beside what a read of the sheet returns (the Sheets API leaves out trailing empty
 * cells and rows): the values the close wrote, read back, are ✓; one cell changed is ✗; a close
 * with no seal is not proven. Pure: the read is a stub of the ranges the tie-out asks for.
 */
import { describe, expect, it } from 'vitest';
import { PROFIT_TOTALS_FIELDS } from '../../src/server/api/types';
import { checkCloses, sealOfWritten } from '../../src/server/finance/close-seal';
import { closeSheetValues } from '../../src/server/finance/close-sheet';
import type { PnlFigures } from '../../src/server/finance/period-sums';

const ZONE = 'Europe/Berlin';
const figures = Object.fromEntries(PROFIT_TOTALS_FIELDS.map((f, i) => [f, i + 0.25])) as PnlFigures;
const record = {
  month: '2026-10',
  closedAt: Date.parse('2026-11-02T09:30:00Z'),
  basis: 'b',
  currency: 'USD',
  watermark: '2026-11-01T23:15:30.250Z',
  summary: {
    key: '2026-10',
    firstDay: '2026-10-04',
    lastDay: '2026-10-05',
    days: 2,
    figures,
    contributionMarginPct: 1,
    netMarginPct: 1,
  },
  days: [
    { date: '2026-10-04', figures },
    { date: '2026-10-05', figures },
  ],
  orders: [
    {
      id: 'ord_1',
      orderNumber: '#1001',
      status: 'active',
      placedDate: '2026-10-04',
      updatedAt: 46300.5,
      refunds: 0,
      netRevenue: 120.5,
      cogs: 40.25,
      profit: 60.1,
    },
  ],
};

/** What Values.batchGet returns for an A1 range of the grid: trailing empty cells and rows left out. */
function readBack(grid: ReadonlyArray<ReadonlyArray<unknown>>, range: string): unknown[][] {
  const m = /!([A-Z]+)(\d+):([A-Z]+)(\d+)$/.exec(range)!;
  const column = (letters: string): number => [...letters].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0);
  const rows = grid.slice(Number(m[2]) - 1, Number(m[4])).map((row) => {
    const cells = row.slice(column(m[1]) - 1, column(m[3]));
    while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
    return cells;
  });
  while (rows.length > 0 && rows[rows.length - 1].length === 0) rows.pop();
  return rows;
}

function check(grid: unknown[][], seals: Record<string, string>): boolean | null {
  const sheets = [{ title: 'Close 2026-10', rows: grid.length }];
  const [only] = checkCloses(sheets, (ranges) => ranges.map((r) => readBack(grid, r)), {
    'ma.closeSeals': JSON.stringify(seals),
  });
  return only.sealed;
}

describe('the close seal', () => {
  const values = closeSheetValues(record, ZONE);
  const seals = { '2026-10': sealOfWritten(values) };

  it('proves a close sheet that holds what the close wrote, as a read returns it', () => {
    expect(
      check(
        values.map((r) => r.slice()),
        seals,
      ),
    ).toBe(true);
  });

  it('finds one day cell and one order cell changed since', () => {
    const day = values.map((r) => r.slice());
    day[9][PROFIT_TOTALS_FIELDS.indexOf('net_profit') + 1] = 500.25;
    expect(check(day, seals)).toBe(false);
    const order = values.map((r) => r.slice());
    order[order.length - 1][1] = '#9999';
    expect(check(order, seals)).toBe(false);
  });

  it('says a close without a seal is not proven', () => {
    expect(
      check(
        values.map((r) => r.slice()),
        {},
      ),
    ).toBeNull();
  });
});
