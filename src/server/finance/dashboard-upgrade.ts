/**
 * Dashboards inserted before the KPI cells asked PROFIT_SUMMARY for the number alone hold the
 * 3-argument formula `=PROFIT_SUMMARY($B$5, $B$6, "net_revenue")`: a note (another currency, a cut
 * history) spills into the next period's cell and Sheets shows #REF! there. Where the add-on
 * re-enters its formulas anyway (after a sync that changed data, Refresh formulas), such a cell gets
 * today's formula. The add-on's cells are known by where they are and what they hold: a KPI cell of
 * the Dashboard sheet holding exactly the text the earlier version wrote there. Any other formula —
 * a user's, even the same text in another cell — is left as it is.
 */
import { columnLetter } from '../sheets/a1';
import {
  DASHBOARD_SHEET,
  FIRST_METRIC_ROW,
  KPI_METRICS,
  PERIOD_END_ROW,
  PERIOD_START_ROW,
  kpiBlock,
} from './dashboard-spec';

/** Per KPI cell ("row:column"), the formula the earlier version wrote there and the one written now. */
function kpiCells(): Map<string, { earlier: string; now: string }> {
  const cells = new Map<string, { earlier: string; now: string }>();
  const ref = (column: number, row: number): string => `$${columnLetter(column)}$${row}`;
  kpiBlock().rows.forEach((metricRow, m) =>
    metricRow.formulas.forEach((now, i) => {
      const column = i + 2;
      const earlier = `=PROFIT_SUMMARY(${ref(column, PERIOD_START_ROW)}, ${ref(column, PERIOD_END_ROW)}, "${KPI_METRICS[m]!.metric}")`;
      cells.set(`${FIRST_METRIC_ROW + m}:${column}`, { earlier, now });
    }),
  );
  return cells;
}

/** Sheets may give the formula back with other spacing or casing outside its strings. */
function normalized(formula: string): string {
  return formula.replace(/"[^"]*"|[^"]+/g, (part) =>
    part.startsWith('"') ? part : part.replace(/\s+/g, '').toUpperCase(),
  );
}

/** The formula the add-on writes now in place of `formula`, or `formula` when the cell is not an earlier KPI cell. */
export function upgradedDashboardFormula(sheetTitle: string, row: number, column: number, formula: string): string {
  if (sheetTitle !== DASHBOARD_SHEET) return formula;
  const cell = kpiCells().get(`${row}:${column}`);
  return cell !== undefined && normalized(formula) === normalized(cell.earlier) ? cell.now : formula;
}
