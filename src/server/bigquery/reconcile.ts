/**
 * The repair of a day whose orders were listed whole (the ✗ day's refetch), after its orders were
 * MERGEd again. The ids the service listed are loaded into the spreadsheet's own ids stage table;
 * then, only among this store's rows (store-scope.ts):
 * - orders that vanished from the service (spec 4.4 rule 7: an order the API no longer returns)
 *   leave, with their line items: a DELETE … NOT EXISTS per table;
 * - a key held more than once (a row copied by hand: the MERGE updates every row that matches its
 *   key, "DML syntax", MERGE, and never removes one), in orders (id) or line items (order_id, id),
 *   of an order listed on the day, on whatever day each copy sits (a copy dated after today
 *   included): left once, in one MERGE … ON FALSE a table whose WHEN NOT MATCHED BY SOURCE deletes
 *   the copies and WHEN NOT MATCHED inserts the one chosen with QUALIFY ROW_NUMBER() ("DML syntax",
 *   MERGE statement; "Query syntax", QUALIFY clause), every column the table has included. The
 *   tie-out query finds such keys (held-twice-sql.ts) and turns their days ✗, which brings the
 *   repair. A day without duplicates is untouched.
 * The day and the store are named parameters ("Running parameterized queries"), so no id list is
 * ever spliced into the SQL. The Sheets keep such rows marked gone; a table keeps one row per order
 * the service has, as a data engineer querying it expects.
 */
import { currentSpreadsheetId } from '../platform/context';
import type { JobContext } from '../sync/job-context';
import { runDestination } from './destination';
import { noteOrdersRowsModified } from './orders-modified';
import { tablePath, type TableNames } from './merge-sql';
import { bigQuery, insertJob, waitForJobs } from './service';
import { withStageTables } from './stage-tables';
import { STORE_PARAMETER, storeIdOfRun } from './store-scope';
import { LINE_ITEMS_TABLE, ORDERS_TABLE, PLACED_DAY, type WarehouseTable } from './table-schemas';

const ID_SCHEMA = { fields: [{ name: 'id', type: 'STRING', mode: 'REQUIRED' }] };
const STORE = `@${STORE_PARAMETER}`;

/** The condition on line items (alias T) that they are not another store's: their order, if any, is this store's. */
const notOtherStores = (names: TableNames): string =>
  `NOT EXISTS (SELECT 1 FROM ${tablePath(names, ORDERS_TABLE.tableId)} O WHERE O.id = T.order_id AND O.store_id != ${STORE})`;

/** The condition that a row (alias T) is this store's on @day. */
function ofStoreDay(names: TableNames, table: WarehouseTable): string {
  const store = table === ORDERS_TABLE ? `T.store_id = ${STORE}` : notOtherStores(names);
  return `T.${PLACED_DAY} = @day AND ${store}`;
}

/** The DELETE of a table's rows of this store placed on @day whose order is not among the staged ids (`orderColumn`: the order's id in that table). */
export function vanishedSql(
  names: TableNames,
  table: WarehouseTable,
  orderColumn: string,
  idStageId: string | null,
): string {
  const notListed = idStageId
    ? ` AND NOT EXISTS (SELECT 1 FROM ${tablePath(names, idStageId)} S WHERE S.id = T.${orderColumn})`
    : '';
  return `DELETE FROM ${tablePath(names, table.tableId)} T WHERE ${ofStoreDay(names, table)}${notListed}`;
}

/**
 * The MERGE that leaves one row per key (orders: id; line items: order_id, id) among the rows of the
 * orders the service listed on @day (the ids stage), whatever day a copy is on: the copy kept is
 * one on @day (where the refetch's MERGE just put the service's values), the one synced last. Every
 * column the table has now (`columns`, from tables.get) is copied, so a column a data engineer
 * added keeps its value ("Modifying table schemas": added columns are NULLABLE). Reads every
 * partition's key columns (a copy may be on any day); runs only in a ✗ day's repair.
 */
export function oneRowPerKeySql(
  names: TableNames,
  table: WarehouseTable,
  columns: readonly string[],
  idStageId: string,
): string {
  const path = tablePath(names, table.tableId);
  const stage = tablePath(names, idStageId);
  // The listed orders' rows (alias a): orders of this store only; a line item by its order.
  const listed = (a: string): string =>
    table === ORDERS_TABLE
      ? `${a}.id IN (SELECT id FROM ${stage}) AND ${a}.store_id = ${STORE}`
      : `${a}.order_id IN (SELECT id FROM ${stage})`;
  const key = (a: string): string => table.key.map((k) => `${a}.${k}`).join(', ');
  // A key of two ids as one value to match with IN (the API's ids hold no space).
  const keyText = (a: string): string =>
    table.key.length === 1 ? `${a}.${table.key[0]}` : `CONCAT(${table.key.map((k) => `${a}.${k}`).join(", ' ', ")})`;
  return [
    `MERGE ${path} D`,
    `USING (SELECT * FROM ${path} T WHERE ${listed('T')}`,
    `  QUALIFY COUNT(*) OVER (PARTITION BY ${key('T')}) > 1`,
    `  AND ROW_NUMBER() OVER (PARTITION BY ${key('T')} ORDER BY IF(T.${PLACED_DAY} = @day, 0, 1), T.synced_at DESC) = 1) S`,
    'ON FALSE',
    `WHEN NOT MATCHED BY SOURCE AND ${listed('D')} AND ${keyText('D')} IN (`,
    `  SELECT ${keyText('T')} FROM ${path} T WHERE ${listed('T')} GROUP BY ${key('T')} HAVING COUNT(*) > 1) THEN DELETE`,
    `WHEN NOT MATCHED THEN INSERT (${columns.join(', ')}) VALUES (${columns.map((c) => `S.${c}`).join(', ')})`,
  ].join('\n');
}

/** The table's columns as they are now (a data engineer may have added some). */
function columnsNow(names: TableNames, table: WarehouseTable): string[] {
  const resource = bigQuery().Tables!.get(names.projectId, names.datasetId, table.tableId) as {
    schema?: { fields?: Array<{ name?: string }> };
  };
  return (resource.schema?.fields ?? []).map((f) => String(f.name));
}

/**
 * After `day`'s orders were listed whole: the rows of orders the listing did not give are deleted
 * from orders and line_items, and an order held twice is left once; returns how many orders left.
 * Nothing for the sheets destination.
 */
export function deleteVanishedOrders(ctx: JobContext, day: string, listedIds: readonly string[]): number {
  const destination = runDestination(ctx);
  if (destination.kind !== 'bigquery') return 0;
  const spreadsheetId = currentSpreadsheetId();
  if (spreadsheetId === null) throw new Error('No spreadsheet: the BigQuery stage tables are named after it.');
  const { projectId, datasetId } = destination;
  const names = { projectId, datasetId };
  const storeId = storeIdOfRun();
  const idStage = `order_ids_stage_${spreadsheetId}`;
  const jobId = (step: string): string => `ma_${spreadsheetId}_${ctx.now()}_vanished_${day}_${step}`;
  const ids = [...new Set(listedIds)];
  const stage = ids.length > 0 ? idStage : null;
  const dml = (step: string, sql: string) =>
    insertJob(projectId, jobId(step), {
      query: {
        query: sql,
        useLegacySql: false,
        parameterMode: 'NAMED',
        queryParameters: [
          { name: 'day', parameterType: { type: 'DATE' }, parameterValue: { value: day } },
          { name: STORE_PARAMETER, parameterType: { type: 'STRING' }, parameterValue: { value: storeId } },
        ],
      },
    });
  const deletions = () => {
    if (stage !== null)
      waitForJobs(projectId, [
        insertJob(
          projectId,
          jobId('load_ids'),
          {
            load: {
              sourceFormat: 'NEWLINE_DELIMITED_JSON',
              destinationTable: { projectId, datasetId, tableId: stage },
              schema: ID_SCHEMA,
              writeDisposition: 'WRITE_TRUNCATE',
              createDisposition: 'CREATE_NEVER',
            },
          },
          Utilities.newBlob(ids.map((id) => JSON.stringify({ id })).join('\n'), 'application/octet-stream'),
        ),
      ]);
    // Different tables: the two DELETEs run together (the line items' reads only other stores' orders, which the orders' leaves alone).
    const deleted = waitForJobs(projectId, [
      dml('delete_orders', vanishedSql(names, ORDERS_TABLE, 'id', stage)),
      dml('delete_line_items', vanishedSql(names, LINE_ITEMS_TABLE, 'order_id', stage)),
    ]);
    // Then, on the same tables ("DML": mutating statements on a table queue), one row per key.
    if (stage !== null) {
      const [orders] = waitForJobs(
        projectId,
        [ORDERS_TABLE, LINE_ITEMS_TABLE].map((table) =>
          dml(`one_row_per_key_${table.tableId}`, oneRowPerKeySql(names, table, columnsNow(names, table), stage)),
        ),
      );
      if (Number(orders.statistics?.query?.numDmlAffectedRows ?? 0) > 0) noteOrdersRowsModified(ctx);
    }
    return deleted;
  };
  const [orders] =
    stage === null
      ? deletions()
      : withStageTables([{ projectId, datasetId, tableId: stage, schema: ID_SCHEMA }], deletions);
  const gone = Number(orders.statistics?.query?.numDmlAffectedRows ?? 0);
  ctx.tally.counts.ordersGone += gone;
  return gone;
}
