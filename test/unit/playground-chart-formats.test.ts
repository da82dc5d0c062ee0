/**
 * A chart drawn in the playground carries its source cells' number format: each series its own
 * (tooltips) and the value axis the first series' (Sheets' "From source data"), read from the
 * first number under the header; a column of no numbers has none.
 */
import { describe, expect, it } from 'vitest';
import { chartView } from '../../dev/playground/chart-data';
import type { ChartJson } from '../../dev/gas-runtime/spreadsheet/export';

const chart: ChartJson = {
  chartId: 1,
  type: 'LINE',
  ranges: ["'Monthly P&L'!A1:A4", "'Monthly P&L'!B1:B4", "'Monthly P&L'!C1:C4", "'Monthly P&L'!D1:D4"],
  title: 'Net margin % by month',
  options: {},
  position: { anchorRow: 1, anchorColumn: 1, offsetX: 0, offsetY: 0 },
  numHeaders: 1,
};
const sheets = {
  'Monthly P&L': [
    ['month', 'net_margin_pct', 'net_profit', 'note'],
    ['2026-01', '', 10, 'x'],
    ['2026-02', 0.5508, 20, 'y'],
    ['2026-03', 0.5, 30, 'z'],
  ],
};
const formats: Record<string, string> = { '3:2': '0.00%', '2:3': '$#,##0.00', '2:2': 'should not be read' };

describe('chartView number formats', () => {
  it("gives each series its source format and the axis the first series'", () => {
    const view = chartView(chart, sheets, (sheet, row, column) =>
      sheet === 'Monthly P&L' ? formats[`${row}:${column}`] : undefined,
    );
    expect(view.axisFormat).toBe('0.00%');
    expect(view.series.map((s) => s.format)).toEqual(['0.00%', '$#,##0.00', undefined]);
    expect(view.series[0]!.data).toEqual([null, 0.5508, 0.5]);
  });
});
