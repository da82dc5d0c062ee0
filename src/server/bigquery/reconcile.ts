/**
 * Orders that vanished from the service (spec 4.4 rule 7: an order the API no longer returns)
 * leave the BigQuery tables. When a day's orders have been listed whole (the ✗ day's refetch), the
 * ids the service listed are loaded into the spreadsheet's own ids stage table and the day's rows
 * the stage does not hold are deleted, with their line items: a DELETE … NOT EXISTS per table, the
 * day a named parameter ("DML syntax", DELETE; "Running parameterized queries"), so no id list is
 * ever spliced into the SQL. The Sheets keep such rows marked gone; a table keeps one row per order
 * the service has, as a data engineer querying it expects.
 */
import { currentSpreadsheetId } from '../platform/context';
import type { JobContext } from '../sync/job-context';
import { runDestination } from './destination';
import { tablePath, type TableNames } from './merge-sql';
import { insertJob, waitForJobs } from './service';
import { LINE_ITEMS_TABLE, ORDERS_TABLE, PLACED_DAY } from './table-schemas';

const ID_SCHEMA = { fields: [{ name: 'id', type: 'STRING', mode: 'REQUIRED' }] };

/** The DELETE of a table's rows placed on @day whose order is not among the staged ids (`orderColumn`: the order's id in that table). */
export function vanishedSql(names: TableNames, tableId: string, orderColumn: string, idStageId: string | null): string {
  const notListed = idStageId
    ? ` AND NOT EXISTS (SELECT 1 FROM ${tablePath(names, idStageId)} S WHERE S.id = T.${orderColumn})`
    : '';
  return `DELETE FROM ${tablePath(names, tableId)} T WHERE T.${PLACED_DAY} = @day${notListed}`;
}

/**
 * After `day`'s orders were listed whole: the rows of orders the listing did not give are deleted
 * from orders and line_items; returns how many orders left. Nothing for the sheets destination.
 */
export function deleteVanishedOrders(ctx: JobContext, day: string, listedIds: readonly string[]): number {
  const destination = runDestination(ctx);
  if (destination.kind !== 'bigquery') return 0;
  const spreadsheetId = currentSpreadsheetId();
  if (spreadsheetId === null) throw new Error('No spreadsheet: the BigQuery stage tables are named after it.');
  const { projectId, datasetId } = destination;
  const names = { projectId, datasetId };
  const idStage = `order_ids_stage_${spreadsheetId}`;
  const jobId = (step: string): string => `ma_${spreadsheetId}_${ctx.now()}_vanished_${day}_${step}`;
  const ids = [...new Set(listedIds)];
  if (ids.length > 0)
    waitForJobs(projectId, [
      insertJob(
        projectId,
        jobId('load_ids'),
        {
          load: {
            sourceFormat: 'NEWLINE_DELIMITED_JSON',
            destinationTable: { projectId, datasetId, tableId: idStage },
            schema: ID_SCHEMA,
            writeDisposition: 'WRITE_TRUNCATE',
            createDisposition: 'CREATE_IF_NEEDED',
          },
        },
        Utilities.newBlob(ids.map((id) => JSON.stringify({ id })).join('\n'), 'application/octet-stream'),
      ),
    ]);
  const stage = ids.length > 0 ? idStage : null;
  const remove = (step: string, sql: string) =>
    insertJob(projectId, jobId(step), {
      query: {
        query: sql,
        useLegacySql: false,
        parameterMode: 'NAMED',
        queryParameters: [{ name: 'day', parameterType: { type: 'DATE' }, parameterValue: { value: day } }],
      },
    });
  // Different tables: the two DELETEs run together.
  const [orders] = waitForJobs(projectId, [
    remove('delete_orders', vanishedSql(names, ORDERS_TABLE.tableId, 'id', stage)),
    remove('delete_line_items', vanishedSql(names, LINE_ITEMS_TABLE.tableId, 'order_id', stage)),
  ]);
  const gone = Number(orders.statistics?.query?.numDmlAffectedRows ?? 0);
  ctx.tally.counts.ordersGone += gone;
  return gone;
}
