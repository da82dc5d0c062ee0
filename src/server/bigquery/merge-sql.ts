/**
 * The GoogleSQL a flush runs ("DML syntax": MERGE, DELETE): the staged rows MERGEd on the table's
 * key, so a page written twice (an execution ended before its checkpoint, the feed's overlap)
 * leaves one row per key; and an order's line items that the staged order no longer lists deleted.
 */
import type { WarehouseTable } from './table-schemas';

export interface TableNames {
  projectId: string;
  datasetId: string;
}

export const tablePath = (names: TableNames, tableId: string): string =>
  `\`${names.projectId}.${names.datasetId}.${tableId}\``;

/** MERGE the stage into the table: matched rows replaced whole, new rows inserted. */
export function mergeSql(names: TableNames, table: WarehouseTable, stageId: string): string {
  return mergeFromSql(names, table, tablePath(names, stageId));
}

/**
 * The move's line items (switch-copy.ts): the Line items sheet has no day column, so each staged
 * line takes its order's placed_day from the orders table, where the move put its order first.
 */
export function lineItemsWithOrderDay(names: TableNames, ordersTableId: string, lineStageId: string): string {
  return `(SELECT S.*, O.placed_day FROM ${tablePath(names, lineStageId)} S JOIN ${tablePath(names, ordersTableId)} O ON O.id = S.order_id)`;
}

/** MERGE `source` (a table path or a parenthesized SELECT) into the table, on its key. */
export function mergeFromSql(names: TableNames, table: WarehouseTable, source: string): string {
  const columns = table.fields.map((f) => f.name);
  const on = table.key.map((k) => `T.${k} = S.${k}`).join(' AND ');
  const set = columns
    .filter((c) => table.key.indexOf(c) < 0)
    .map((c) => `${c} = S.${c}`)
    .join(', ');
  return [
    `MERGE ${tablePath(names, table.tableId)} T`,
    `USING ${source} S`,
    `ON ${on}`,
    `WHEN MATCHED THEN UPDATE SET ${set}`,
    `WHEN NOT MATCHED THEN INSERT (${columns.join(', ')}) VALUES (${columns.map((c) => `S.${c}`).join(', ')})`,
  ].join('\n');
}

/**
 * Deletes the line items of the staged orders that the staged line items do not list (the order
 * no longer has them); `lineStageId` null when the staged orders list none at all.
 */
export function removedLineItemsSql(
  names: TableNames,
  lineTableId: string,
  orderStageId: string,
  lineStageId: string | null,
): string {
  const ofStagedOrders = `T.order_id IN (SELECT id FROM ${tablePath(names, orderStageId)})`;
  const notListed = lineStageId
    ? ` AND NOT EXISTS (SELECT 1 FROM ${tablePath(names, lineStageId)} S WHERE S.order_id = T.order_id AND S.id = T.id)`
    : '';
  return `DELETE FROM ${tablePath(names, lineTableId)} T WHERE ${ofStagedOrders}${notListed}`;
}
