/**
 * Sheets' percent (pure parts): the Monthly P&L's margins are proven as the
 * fractions the sheet holds, and a sheet an earlier version wrote in points is upgraded by one
 * all-or-nothing batchUpdate that converts every number, formats the column and tags the sheet.
 */
import { describe, expect, it } from 'vitest';
import { PROFIT_TOTALS_FIELDS } from '../../src/server/api/types';
import { checkPnlSheets } from '../../src/server/finance/tieout-pnl-sheets';
import { PERCENT_FRACTION, PERCENT_METADATA_KEY, percentUpgradeBatches } from '../../src/server/sheets/percent-upgrade';
import { MONTHLY, columnIndex, type TableSchema } from '../../src/server/sheets/schema';

/** A month of one day: net revenue 200.00, CM3 110.16 and net profit 110.16 — margins of 55.08 %. */
const service = [
  {
    date: '2026-03-01',
    ...Object.fromEntries(PROFIT_TOTALS_FIELDS.map((f) => [f, 0])),
    net_revenue: 200,
    contribution_margin_cm3: 110.16,
    net_profit: 110.16,
  },
];

function monthRow(margin: number): unknown[] {
  const cells: unknown[] = MONTHLY.columns.map(() => '');
  cells[columnIndex(MONTHLY, 'month')] = '2026-03';
  cells[columnIndex(MONTHLY, 'first_day')] = '2026-03-01';
  cells[columnIndex(MONTHLY, 'last_day')] = '2026-03-01';
  cells[columnIndex(MONTHLY, 'days')] = 1;
  for (const f of PROFIT_TOTALS_FIELDS)
    cells[columnIndex(MONTHLY, f)] = (service[0] as unknown as Record<string, number>)[f];
  for (const f of ['contribution_margin_pct', 'net_margin_pct']) cells[columnIndex(MONTHLY, f)] = margin;
  return cells;
}

describe("the Monthly P&L's margins are proven as Sheets' percent", () => {
  it('0.5508 (shown 55.08%) ties out; the points 55.08 under a percent format (5508.00%) do not, in words of percent', () => {
    expect(checkPnlSheets([], [monthRow(0.5508)], service).months.get('2026-03')).toBe('✓');
    expect(checkPnlSheets([], [monthRow(55.08)], service).months.get('2026-03')).toBe(
      "contribution_margin_pct 5508.00% (service's totals give 55.08%); net_margin_pct 5508.00% (service's totals give 55.08%)",
    );
  });
});

/** Four text columns, then a percent column (sheet column E, 0-based 4). */
const FIFTH_PCT: TableSchema = {
  ...MONTHLY,
  columns: [
    ...['a', 'b', 'c', 'd'].map((header) => ({ header, kind: 'text' as const })),
    { header: 'net_margin_pct', kind: 'pct' },
  ],
};

describe('a sheet in points is upgraded in one batchUpdate', () => {
  it('converts runs of numbers (text and empty cells untouched), formats rows 2..rows as 0.00%, then tags the sheet', () => {
    const [requests, ...more] = percentUpgradeBatches(7, FIFTH_PCT, [[[55.08], [100], [''], ['n/a'], [0.5]]], 1000);
    expect(more).toEqual([]);
    expect(requests).toEqual([
      {
        updateCells: {
          start: { sheetId: 7, rowIndex: 1, columnIndex: 4 },
          rows: [
            { values: [{ userEnteredValue: { numberValue: 0.5508 } }] },
            { values: [{ userEnteredValue: { numberValue: 1 } }] },
          ],
          fields: 'userEnteredValue',
        },
      },
      {
        updateCells: {
          start: { sheetId: 7, rowIndex: 5, columnIndex: 4 },
          rows: [{ values: [{ userEnteredValue: { numberValue: 0.005 } }] }],
          fields: 'userEnteredValue',
        },
      },
      {
        repeatCell: {
          range: { sheetId: 7, startRowIndex: 1, endRowIndex: 1000, startColumnIndex: 4, endColumnIndex: 5 },
          cell: { userEnteredFormat: { numberFormat: { type: 'NUMBER', pattern: '0.00%' } } },
          fields: 'userEnteredFormat.numberFormat',
        },
      },
      {
        createDeveloperMetadata: {
          developerMetadata: {
            metadataKey: PERCENT_METADATA_KEY,
            metadataValue: PERCENT_FRACTION,
            location: { sheetId: 7 },
            visibility: 'DOCUMENT',
          },
        },
      },
    ]);
  });
});
