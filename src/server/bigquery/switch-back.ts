/**
 * Switching back from BigQuery to the sheets: allowed only for a store whose orders fit the
 * spreadsheet. The estimate counts the orders and line items the BigQuery tables hold (within the
 * orders window the sync keeps), times the columns the Columns card chose, beside the cells the
 * rest of the spreadsheet uses; more than Google's 10 million is refused with the figures. The
 * sheets are then rebuilt by a fresh backfill from the service, not copied from BigQuery: the
 * service is the truth (a table row someone altered is not carried back), and the sheets' own
 * writer lays out the rows, formats, row index and day sums as for any first sync; a store that
 * fits a spreadsheet is a backfill of at most a few hundred thousand orders. The tables stay as
 * they are: they are the user's data, and the add-on deletes nothing there.
 */
import { currentSpreadsheet } from '../platform/context';
import { documentProperties } from '../platform/properties';
import { spreadsheetGridCells, SPREADSHEET_CELL_LIMIT } from '../sheets/cell-count';
import { chosenHeaders } from '../sheets/column-choice';
import { LINE_ITEMS, ORDERS } from '../sheets/schema';
import { SyncStateStore } from '../state/sync-state';
import { DestinationSettingError, type BigQueryDestination } from './destination-setting';
import { tablePath } from './merge-sql';
import { queryRows, type QueryParameter } from './query';
import { notFound } from './service';
import { LINE_ITEMS_TABLE, ORDERS_TABLE, PLACED_DAY } from './table-schemas';

export interface SheetsFit {
  orders: number;
  lineItems: number;
  neededCells: number;
  freeCells: number;
}

/** The tables' rows (0 when the tables are not there: nothing to bring back). */
function tableCounts(from: BigQueryDestination, createdAfter: string | null): { orders: number; lineItems: number } {
  const names = { projectId: from.projectId, datasetId: from.datasetId };
  const parameters: QueryParameter[] = createdAfter ? [{ name: 'from_day', type: 'DATE', value: createdAfter }] : [];
  const within = createdAfter ? ` WHERE ${PLACED_DAY} >= @from_day` : '';
  try {
    const [row] = queryRows(
      from.projectId,
      `SELECT (SELECT COUNT(*) FROM ${tablePath(names, ORDERS_TABLE.tableId)}${within}) AS orders, ` +
        `(SELECT COUNT(*) FROM ${tablePath(names, LINE_ITEMS_TABLE.tableId)}${within}) AS line_items`,
      parameters,
    );
    return { orders: Number(row?.orders ?? 0), lineItems: Number(row?.line_items ?? 0) };
  } catch (e) {
    if (notFound(e)) return { orders: 0, lineItems: 0 };
    throw e;
  }
}

/** The estimate for the store's orders in the sheets; throws the refusal, with the figures, when they cannot fit. */
export function checkSheetsFit(from: BigQueryDestination): SheetsFit {
  const state = new SyncStateStore(documentProperties());
  const { orders, lineItems } = tableCounts(from, state.get('orders').createdAfter);
  const choice = state.get('columns').choice;
  const neededCells =
    orders * chosenHeaders(ORDERS, choice.Orders).length +
    lineItems * chosenHeaders(LINE_ITEMS, choice['Line items']).length;
  // What the Orders and Line items sheets hold now is rewritten in place: only the other sheets' grids stay.
  const spreadsheet = currentSpreadsheet('estimating the sheets’ cells');
  const orderSheets = [ORDERS.sheetName, LINE_ITEMS.sheetName]
    .map((name) => spreadsheet.getSheetByName(name))
    .reduce((n, sheet) => n + (sheet ? sheet.getMaxRows() * sheet.getMaxColumns() : 0), 0);
  const freeCells = SPREADSHEET_CELL_LIMIT - (spreadsheetGridCells(spreadsheet) - orderSheets);
  const fit = { orders, lineItems, neededCells, freeCells };
  if (neededCells > freeCells)
    throw new DestinationSettingError(
      `The store’s ${orders.toLocaleString('en-US')} orders and ${lineItems.toLocaleString('en-US')} line items in BigQuery need about ` +
        `${neededCells.toLocaleString('en-US')} cells, and ${Math.max(0, freeCells).toLocaleString('en-US')} of Google’s 10 million are free in this spreadsheet: ` +
        'they do not fit. Orders keep going to BigQuery. Nothing was changed.',
    );
  return fit;
}
