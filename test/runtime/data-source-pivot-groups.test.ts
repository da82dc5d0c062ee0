/**
 * A data source pivot with two row groups, as Sheets lays it out: the outer group's value on the
 * first row of its block, each block closed by its "<value> Total" row, and the Grand Total only
 * while the outermost group shows its totals (PivotGroup.showTotals).
 */
import { describe, expect, it } from 'vitest';
import { pivotCells } from '../../dev/gas-runtime/spreadsheet/data-source-pivot';

const result = {
  columns: [
    { name: 'currency', type: 'STRING' as const },
    { name: 'month', type: 'STRING' as const },
    { name: 'net_profit', type: 'NUMERIC' as const },
  ],
  rows: [
    ['USD', '2026-02', '10.10'],
    ['EUR', '2026-01', '5.05'],
    ['USD', '2026-01', '1.25'],
    ['USD', '2026-01', '2.50'],
  ],
};
const values = (cells: ReturnType<typeof pivotCells>) => cells.map((row) => row.map((c) => c.value));

describe('a data source pivot grouped by currency, then month', () => {
  it('shows each currency’s months and its own total, and a Grand Total while the outer group shows totals', () => {
    expect(
      values(
        pivotCells(result, { rowGroups: ['currency', 'month'], values: [{ column: 'net_profit', fn: 'SUM' }] }, 'UTC'),
      ),
    ).toEqual([
      ['currency', 'month', 'SUM of net_profit'],
      ['EUR', '2026-01', 5.05],
      ['EUR Total', '', 5.05],
      ['USD', '2026-01', 3.75],
      ['', '2026-02', 10.1],
      ['USD Total', '', 13.85],
      ['Grand Total', '', 18.9],
    ]);
  });

  it('leaves the Grand Total out when the outer group’s totals are hidden: no row adds the two currencies', () => {
    const cells = values(
      pivotCells(
        result,
        { rowGroups: ['currency', 'month'], values: [{ column: 'net_profit', fn: 'SUM' }], hiddenTotals: ['currency'] },
        'UTC',
      ),
    );
    expect(cells[cells.length - 1]).toEqual(['USD Total', '', 13.85]);
    expect(cells.some((row) => row[0] === 'Grand Total')).toBe(false);
  });
});
