/**
 * Insert P&L dashboard: the `Dashboard` sheet with a KPI block — each period's From and To date
 * cells (refreshDashboardPeriods) and PROFIT_SUMMARY formulas referencing them — and
 * native charts built with EmbeddedChartBuilder over whole columns of the Daily and Monthly P&L
 * sheets (row 1 to the sheet's last grid row, so the chart covers the data as rows fill in).
 * Inserting again updates the block and the charts it made (found by title), never duplicates.
 * A sync that grows a P&L sheet's grid re-points the charts (the finance refresh).
 */
import { currentSpreadsheet } from '../platform/context';
import { PERCENT_FORMAT } from '../sheets/percent';
import { PERCENT_FRACTION, PERCENT_METADATA_KEY } from '../sheets/percent-upgrade';
import { numberFormatFor } from '../sheets/rows';
import { savedStoreCurrency } from '../state/saved-store-currency';
import type { DashboardResult } from '../../contract/sidebar';
import { PERIOD_FORMAT, dashboardStoreZone, refreshDashboardPeriods } from './dashboard-periods';
import {
  DASHBOARD_CHARTS,
  DASHBOARD_SHEET,
  FIRST_METRIC_ROW,
  KPI_HEADER_ROW,
  KPI_METRICS,
  PERIOD_LABELS,
  PERIOD_START_ROW,
  kpiBlock,
  sourceColumn,
  type DashboardChart,
} from './dashboard-spec';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
/** A sheet of the spreadsheet by its title, as it is now. */
type SheetByName = (title: string) => Sheet | null;
type Builder = GoogleAppsScript.Spreadsheet.EmbeddedChartBuilder;

export type { DashboardResult };

export function insertDashboard(): DashboardResult {
  const spreadsheet = currentSpreadsheet('inserting the dashboard');
  const missing = ['Daily P&L', 'Monthly P&L'].filter((name) => spreadsheet.getSheetByName(name) === null);
  if (missing.length > 0) {
    return {
      status: 'refused',
      message: `Sync first: the dashboard draws the ${missing.join(' and ')} sheet${missing.length > 1 ? 's' : ''}, which this spreadsheet does not have yet.`,
      charts: 0,
    };
  }
  let sheet = spreadsheet.getSheetByName(DASHBOARD_SHEET);
  const existed = sheet !== null;
  if (!sheet) sheet = spreadsheet.insertSheet(DASHBOARD_SHEET, 0);
  writeKpiBlock(sheet, spreadsheet.getSpreadsheetTimeZone());
  const charts = placeCharts((title) => spreadsheet.getSheetByName(title), sheet);
  sheet.activate();
  const verb = existed ? 'Updated' : 'Inserted';
  return {
    status: existed ? 'updated' : 'inserted',
    message: `${verb} the P&L dashboard: ${charts} charts over the Daily and Monthly P&L, and this month's, last month's and this year's figures.`,
    charts,
  };
}

/** Re-points the dashboard's charts at the P&L sheets' current grids (after the sync grew one). */
export function refreshDashboardRanges(sheetByName: SheetByName): void {
  const sheet = sheetByName(DASHBOARD_SHEET);
  if (sheet) placeCharts(sheetByName, sheet);
}

function writeKpiBlock(sheet: Sheet, timeZone: string): void {
  const block = kpiBlock();
  const width = block.header.length;
  const periodRows = PERIOD_LABELS.length;
  sheet.getRange(1, 1).setValue('P&L dashboard').setFontWeight('bold');
  sheet
    .getRange(2, 1)
    .setValue(
      "Figures from Merchant Analytics (store's time zone). Charts draw the Daily P&L and Monthly P&L sheets and follow them as they fill.",
    );
  const header = sheet.getRange(KPI_HEADER_ROW, 1, 1, width);
  header.setValues([block.header]).setFontWeight('bold');
  const rows = [...block.rows, block.notes];
  sheet
    .getRange(PERIOD_START_ROW, 1, periodRows + rows.length, 1)
    .setValues([...PERIOD_LABELS, ...rows.map((r) => r.label)].map((label) => [label]));
  sheet.getRange(PERIOD_START_ROW, 2, periodRows, width - 1).setNumberFormat(PERIOD_FORMAT);
  refreshDashboardPeriods(sheet, timeZone, dashboardStoreZone(timeZone), Date.now());
  sheet.getRange(FIRST_METRIC_ROW, 2, rows.length, width - 1).setFormulas(rows.map((r) => r.formulas));
  // The KPIs are in the store's currency (spec 2.3), shown as its amount columns show it.
  const amount = numberFormatFor('amount', savedStoreCurrency()) ?? '#,##0.00';
  sheet.getRange(FIRST_METRIC_ROW, 2, block.rows.length - 1, width - 1).setNumberFormat(amount);
  formatPercentRow(sheet);
  if (!holdsFractionTag(sheet.getDeveloperMetadata()))
    sheet.addDeveloperMetadata(PERCENT_METADATA_KEY, PERCENT_FRACTION);
}

/** The margin row's cells in Sheets' percent format: PROFIT_SUMMARY answers a margin as a fraction (percent.ts). */
function formatPercentRow(sheet: Sheet): void {
  const width = kpiBlock().header.length;
  sheet.getRange(FIRST_METRIC_ROW + KPI_METRICS.length - 1, 2, 1, width - 1).setNumberFormat(PERCENT_FORMAT);
}

const holdsFractionTag = (tags: ReadonlyArray<{ getKey(): string; getValue(): string | null }>): boolean =>
  tags.some((t) => t.getKey() === PERCENT_METADATA_KEY && t.getValue() === PERCENT_FRACTION);

/**
 * A dashboard inserted by an earlier version shows its margin row with 0.00"%" (points): once,
 * the row gets the percent format and the sheet the fraction tag (`tags`: the sheet's tags as the
 * run's snapshot read them, so a tagged dashboard costs no call).
 */
export function upgradeDashboardPercents(
  sheet: Sheet,
  tags: ReadonlyArray<{ key: string; value: string | null }>,
): void {
  if (tags.some((t) => t.key === PERCENT_METADATA_KEY && t.value === PERCENT_FRACTION)) return;
  formatPercentRow(sheet);
  sheet.addDeveloperMetadata(PERCENT_METADATA_KEY, PERCENT_FRACTION);
}

/** Inserts the charts missing from the sheet, updates the ones it has (by title); returns how many. */
function placeCharts(sheetByName: SheetByName, sheet: Sheet): number {
  const existing = sheet.getCharts();
  let placed = 0;
  for (const spec of DASHBOARD_CHARTS) {
    const source = sheetByName(spec.source.sheetName);
    if (!source) continue;
    const found = existing.find((c) => c.getOptions().get('title') === spec.title);
    const builder = configure(found ? found.modify().clearRanges() : sheet.newChart(), spec, source);
    if (found) sheet.updateChart(builder.build());
    else sheet.insertChart(builder.build());
    placed++;
  }
  return placed;
}

function configure(start: Builder, spec: DashboardChart, source: Sheet): Builder {
  const typed = spec.type === 'LINE' ? start.asLineChart() : start.asColumnChart();
  const rows = source.getMaxRows();
  let builder = typed as unknown as Builder;
  for (const header of spec.columns)
    builder = builder.addRange(source.getRange(1, sourceColumn(spec, header), rows, 1));
  builder = builder
    .setNumHeaders(1)
    .setPosition(spec.row, spec.column, 0, 0)
    .setOption('title', spec.title)
    .setOption('legend', { position: 'bottom' })
    .setOption('width', 600)
    .setOption('height', 360);
  if (spec.stacked) builder = builder.setOption('isStacked', true);
  return builder;
}
