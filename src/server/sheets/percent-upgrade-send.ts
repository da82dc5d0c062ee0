/**
 * The percent upgrade of one sheet sent (percent-upgrade.ts): its percent columns read unformatted,
 * their formats too when an earlier run was cut short half way (percent-formats.ts), then its
 * batchUpdates in order.
 */
import { fractionCells } from './percent-formats';
import { percentColumns, percentRanges, percentUpgradeBatches, upgradeInProgress } from './percent-upgrade';
import { sheetsRequest } from './sheets-requests';
import { sheetsService, valuesService, type SheetInfo } from './sheet-snapshot';
import type { TableSchema } from './schema';
import { batchGetValues } from './values-batches';

/**
 * Upgrades the sheet's rows 2..`rows`; returns, after a run cut short, which cells already held
 * fractions (converted[k][i]: the k-th percent column, sheet row i + 2), else null (none did).
 */
export function sendPercentUpgrade(
  spreadsheetId: string,
  sheetName: string,
  info: SheetInfo,
  schema: TableSchema,
  rows: number,
): boolean[][] | null {
  const columns = percentColumns(schema);
  const ranges = percentRanges(sheetName, columns, rows);
  const read = batchGetValues((sheet, options) => valuesService().batchGet(sheet, options), spreadsheetId, ranges, {
    valueRenderOption: 'UNFORMATTED_VALUE',
  });
  const values = columns.map((_, k) => read[k]?.values ?? []);
  const converted = upgradeInProgress(info) ? fractionCells(spreadsheetId, ranges) : null;
  for (const requests of percentUpgradeBatches(info.sheetId, schema, values, rows, converted))
    sheetsRequest('write', () => sheetsService().batchUpdate({ requests }, spreadsheetId));
  return converted;
}
