/**
 * The move's last step: once a tie-out in BigQuery after the proven copy is ✓, the Orders and Line
 * items sheets' rows are removed, which frees their cells (every grid cell counts toward the 10 M,
 * filled or not). Each sheet keeps its header row and one empty row: a formula, named range or
 * conditional format over its data rows (Orders!A2:A, a SUM over net_profit) shrinks to that row
 * and reads empty instead of breaking into #REF!, as Sheets adjusts a reference when rows inside
 * it are deleted.
 * The hidden row index, which maps ids to rows no longer there, goes with them. While the tie-out
 * shows a ✗ day, the sheets keep every row (the ✗ days are fetched again into BigQuery).
 */
import { currentSpreadsheet } from '../platform/context';
import { documentProperties } from '../platform/properties';
import { ROW_INDEX_METADATA_KEY } from '../sheets/row-index-buckets';
import { LINE_ITEMS, ORDERS } from '../sheets/schema';
import { locateSheet, taggedSheets } from '../sheets/sheet-tags';
import type { JobContext } from '../sync/job-context';
import { currentSwitch } from './switch-copy';
import { SWITCH_PROPERTY_KEY } from './switch-record';

/** The Sync log's words, or null when no proven copy waits for its cells to be freed. */
export function freeSheetsAfterTieout(ctx: JobContext): string | null {
  const record = currentSwitch(ctx);
  if (record === null || record.phase !== 'copied' || record.copiedAt === null) return null;
  const tieout = ctx.state.get('tieout');
  if (tieout.checkedAt === null || tieout.checkedAt < record.copiedAt) return null;
  if (tieout.failedCount > 0)
    return (
      `The Orders and Line items sheets keep their rows until the tie-out in BigQuery is ✓ ` +
      `(${tieout.failedCount} day(s) ✗, fetched again into BigQuery).`
    );
  const spreadsheet = currentSpreadsheet('freeing the Orders and Line items sheets');
  const sheets = ctx.workbook.sheets();
  let freed = 0;
  for (const schema of [ORDERS, LINE_ITEMS]) {
    const located = locateSheet(sheets, schema, () => taggedSheets(sheets));
    const sheet = located ? spreadsheet.getSheetByName(located.name) : null;
    if (!sheet) continue;
    const rows = sheet.getMaxRows();
    const columns = sheet.getMaxColumns();
    if (rows > 2) {
      sheet.deleteRows(3, rows - 2);
      freed += (rows - 2) * columns;
    }
    if (rows >= 2) sheet.getRange(2, 1, 1, columns).clearContent();
  }
  for (const info of sheets) {
    if (!info.tags.some((t) => t.key === ROW_INDEX_METADATA_KEY)) continue;
    const index = spreadsheet.getSheetByName(info.title);
    if (index) {
      freed += info.rows * info.columns;
      spreadsheet.deleteSheet(index);
    }
  }
  documentProperties().deleteProperty(SWITCH_PROPERTY_KEY);
  ctx.state.update('orders', { rowCounts: null });
  return (
    `The orders are in BigQuery (${record.to.projectId}.${record.to.datasetId}) and the tie-out there is ✓: ` +
    `the Orders and Line items sheets’ rows were removed, freeing ${freed.toLocaleString('en-US')} cells.`
  );
}
