/**
 * The playground's "Report" sheet: a few formulas a finance person would start a report with,
 * over last month (from the store's "today"), typed into a new sheet as a user would type them
 * (dates as date cells, formulas referring to them).
 */
import { userEnteredWrite } from '../gas-runtime/spreadsheet/input';
import type { SheetModel } from '../gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../gas-runtime/spreadsheet/workbook';

export const REPORT_SHEET = 'Report';

/** First and last day of the month before `today` ("YYYY-MM-DD"). */
function lastMonth(today: string): { start: string; end: string; yearStart: string } {
  const [y, m] = today.split('-').map(Number) as [number, number];
  const year = m === 1 ? y - 1 : y;
  const month = m === 1 ? 12 : m - 1;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const mm = String(month).padStart(2, '0');
  return { start: `${year}-${mm}-01`, end: `${year}-${mm}-${lastDay}`, yearStart: `${year}-01-01` };
}

/** [row, column, what is typed] */
function reportCells(today: string): Array<[number, number, string]> {
  const { start, end, yearStart } = lastMonth(today);
  return [
    [1, 1, 'Report: example formulas (click a cell to see its formula; type your own anywhere)'],
    [3, 1, 'Period start'],
    [3, 2, start],
    [4, 1, 'Period end'],
    [4, 2, end],
    [6, 1, 'Net profit'],
    [6, 2, '=PROFIT_SUMMARY(B3, B4, "net_profit")'],
    [7, 1, 'Contribution margin (CM3)'],
    [7, 2, '=PROFIT_SUMMARY(B3, B4, "cm3")'],
    [8, 1, 'Net margin %'],
    [8, 2, '=PROFIT_SUMMARY(B3, B4, "net_margin_pct")'],
    [10, 1, 'How fresh the data is'],
    [11, 1, '=MA_FRESHNESS()'],
    [10, 4, 'Last 7 days of the period'],
    [11, 4, `=PROFIT_DAILY("${addDays(end, -6)}", B4, "net_revenue, net_profit")`],
    [20, 1, 'Month by month this year'],
    [21, 1, `=PROFIT_MONTHLY("${yearStart}", B4, "net_revenue, cm3, net_profit")`],
  ];
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The Report sheet, created (last in the workbook) with its example formulas when it does not exist yet. */
export function ensureReportSheet(workbook: Workbook, today: string): SheetModel {
  const existing = workbook.sheetByName(REPORT_SHEET);
  if (existing) return existing;
  const sheet = workbook.insertSheet(REPORT_SHEET);
  for (const [row, column, typed] of reportCells(today)) {
    sheet.write(row, column, typed.startsWith('=') ? { formula: typed } : userEnteredWrite(typed, workbook.timeZone));
  }
  // As a user formats a margin cell (Format → Number → Percent): PROFIT_SUMMARY answers a margin
  // as Sheets' fraction, 0.5508 for 55.08 %.
  sheet.setFormat(8, 2, '0.00%');
  sheet.setStyle(1, 1, { fontWeight: 'bold' });
  sheet.setColumnWidths(1, 1, 190);
  sheet.setColumnWidths(2, 1, 120);
  return sheet;
}
