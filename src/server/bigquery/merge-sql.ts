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
  const columns = table.fields.map((f) => f.name);
  // A table that says whose store a row is: another store's row (same dataset) is never matched.
  const scope = table.fields.some((f) => f.name === 'store_id') ? ['store_id'] : [];
  const on = [...table.key, ...scope].map((k) => `T.${k} = S.${k}`).join(' AND ');
  const set = columns
    .filter((c) => table.key.indexOf(c) < 0)
    .map((c) => `${c} = S.${c}`)
    .join(', ');
  return [
    `MERGE ${tablePath(names, table.tableId)} T`,
    `USING ${tablePath(names, stageId)} S`,
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
