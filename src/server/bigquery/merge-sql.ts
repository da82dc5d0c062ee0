/**
 * The GoogleSQL a flush runs ("DML syntax": MERGE, DELETE): the staged rows MERGEd on the table's
 * key, so a page written twice (an execution ended before its checkpoint, the feed's overlap)
 * leaves one row per key; and an order's line items that the staged order no longer lists deleted
 * by the same MERGE.
 */
import type { WarehouseTable } from './table-schemas';

export interface TableNames {
  projectId: string;
  datasetId: string;
}

export const tablePath = (names: TableNames, tableId: string): string =>
  `\`${names.projectId}.${names.datasetId}.${tableId}\``;

/**
 * A flush's MERGE reads only the partitions of its orders' days (day-zones.ts), given as the
 * ARRAY<DATE> parameter @days: a constant filter on the partitioning column, which BigQuery prunes
 * on ("Query partitioned tables"; "Updating partitioned table data using DML", a MERGE prunes its
 * target by a filter in its merge_condition, and the rows a WHEN NOT MATCHED BY SOURCE clause reads
 * by a filter in that clause's own search_condition).
 */
export const DAYS_PARAMETER = 'days';
const inDays = `T.placed_day IN UNNEST(@${DAYS_PARAMETER})`;

/** The sync's bookkeeping column: when it wrote the row, not a value of the order. */
const SYNCED_AT = 'synced_at';

/**
 * MERGE the stage into the table: new rows inserted; matched rows replaced whole, or with
 * `changedOnly` only those whose values differ (any column but synced_at, NULL-safe), so the job's
 * dmlStats.updatedRowCount counts the orders that changed, not every order the feed read again.
 */
export function mergeSql(names: TableNames, table: WarehouseTable, stageId: string, changedOnly = false): string {
  return mergeFromSql(names, table, tablePath(names, stageId), changedOnly);
}

/**
 * The move's line items (switch-copy.ts): the Line items sheet has no day column, so each staged
 * line takes its order's placed_day from the orders table, where the move put its order first.
 * One day per order id: a table that holds an order twice (a row inserted by hand) would otherwise
 * give each of its lines two source rows, inserted twice, or failing the MERGE once the line is
 * there ("UPDATE/MERGE must match at most one source row for each target row").
 */
export function lineItemsWithOrderDay(names: TableNames, ordersTableId: string, lineStageId: string): string {
  const days = `(SELECT id, MAX(placed_day) AS placed_day FROM ${tablePath(names, ordersTableId)} GROUP BY id)`;
  return `(SELECT S.*, O.placed_day FROM ${tablePath(names, lineStageId)} S JOIN ${days} O ON O.id = S.order_id)`;
}

/**
 * The line items MERGE of a flush: the staged lines (`lineSource`, a table path or a parenthesized
 * SELECT) MERGEd on (order_id, id), and in the same statement the lines of the staged orders
 * (`stagedOrderIds`, a SELECT of their `id`) that the stage no longer lists deleted ("DML syntax",
 * MERGE: `WHEN NOT MATCHED BY SOURCE [AND search_condition] THEN DELETE`), so a flush runs one
 * statement on line_items, not a MERGE and a DELETE queued one after the other.
 */
export function lineItemsMergeSql(
  names: TableNames,
  table: WarehouseTable,
  lineSource: string,
  stagedOrderIds: string,
  pruned = false,
): string {
  const unlisted = `WHEN NOT MATCHED BY SOURCE AND ${pruned ? `${inDays} AND ` : ''}T.order_id IN (${stagedOrderIds}) THEN DELETE`;
  return `${mergeFromSql(names, table, lineSource, false, pruned)}\n${unlisted}`;
}

/** The ids of the orders in a stage table, as a SELECT. */
export const stagedIdsSql = (names: TableNames, orderStageId: string): string =>
  `SELECT id FROM ${tablePath(names, orderStageId)}`;

/**
 * MERGE `source` (a table path or a parenthesized SELECT) into the table, on its key; `pruned`:
 * only inside the partitions of @days.
 */
export function mergeFromSql(
  names: TableNames,
  table: WarehouseTable,
  source: string,
  changedOnly = false,
  pruned = false,
): string {
  const columns = table.fields.map((f) => f.name);
  // A table that says whose store a row is: another store's row (same dataset) is never matched.
  const scope = table.fields.some((f) => f.name === 'store_id') ? ['store_id'] : [];
  const on = [...[...table.key, ...scope].map((k) => `T.${k} = S.${k}`), ...(pruned ? [inDays] : [])].join(' AND ');
  const set = columns
    .filter((c) => table.key.indexOf(c) < 0)
    .map((c) => `${c} = S.${c}`)
    .join(', ');
  return [
    `MERGE ${tablePath(names, table.tableId)} T`,
    `USING ${source} S`,
    `ON ${on}`,
    `WHEN MATCHED${changedOnly ? ` AND (${differs(table)})` : ''} THEN UPDATE SET ${set}`,
    `WHEN NOT MATCHED THEN INSERT (${columns.join(', ')}) VALUES (${columns.map((c) => `S.${c}`).join(', ')})`,
  ].join('\n');
}

/**
 * Deletes the line items of the staged orders (`stagedOrderIds`, a SELECT of their `id`) when the
 * stage lists none at all; otherwise lineItemsMergeSql deletes the unlisted ones in its MERGE.
 */
export function removedLineItemsSql(
  names: TableNames,
  lineTableId: string,
  stagedOrderIds: string,
  pruned = false,
): string {
  return `DELETE FROM ${tablePath(names, lineTableId)} T WHERE ${pruned ? `${inDays} AND ` : ''}T.order_id IN (${stagedOrderIds})`;
}

function differs(table: WarehouseTable): string {
  return (
    table.fields
      .map((f) => f.name)
      .filter((c) => table.key.indexOf(c) < 0 && c !== SYNCED_AT)
      // IS DISTINCT FROM spelled out (NULL-safe): the same in GoogleSQL, and no FROM a reader could take for a table.
      .map((c) => `NOT COALESCE(T.${c} = S.${c}, T.${c} IS NULL AND S.${c} IS NULL)`)
      .join(' OR ')
  );
}
