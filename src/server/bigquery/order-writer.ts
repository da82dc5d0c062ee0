/**
 * How order pages reach BigQuery (the destination the user chose instead of the sheets): each
 * queued page turned into rows, and at flush the queued pages loaded into the spreadsheet's own
 * stage tables and MERGEd on id into orders and line_items. Per flush: one load into each stage
 * table (WRITE_TRUNCATE), or for a small flush none (its rows go as query parameters,
 * row-parameters.ts), and one MERGE into each table, the line items' one also deleting the lines
 * staged orders no longer list. Pages are held until about 9 MB are queued or the run's work ends,
 * not written at each pause for the API's minute (holdsAtPause). The feed's checkpoint moves after
 * flush() returns, so an execution ended before loses nothing and the next run's MERGE of the same
 * pages adds no duplicate.
 */
import { recordProblem, skippedRecord, updatedAtMs, type SkippedRecord } from '../api/record-check';
import { utf8Bytes } from '../platform/property-size';
import type { JobContext } from '../sync/job-context';
import type { OrderWriter } from '../sync/order-writer';
import { lastOccurrences } from '../sync/order-page';
import { noteSkipped } from '../sync/skipped-records';
import type { BigQueryDestination } from './destination-setting';
import { dayZones, orderDays } from './day-zones';
import {
  DAYS_PARAMETER,
  lineItemsMergeSql,
  mergeFromSql,
  removedLineItemsSql,
  stagedIdsSql,
  tablePath,
} from './merge-sql';
import { inlineSources, type FlushSources, type Parameter } from './flush-sources';
import { daysParameter, INLINE_ROWS_BYTES } from './row-parameters';
import { loadQuotaExceeded, pauseForLoadQuota } from './load-quota';
import { partitionBudget, partitionQuotaExceeded, pauseForPartitionQuota } from './partition-budget';
import { PARTITIONS_PER_JOB } from './partition-limits';
import { orderRows, type OrderRows } from './rows';
import { attemptId, runDml } from './dml-retry';
import { BigQueryJobError, insertJob, notFound, waitForJobs } from './service';
import { withStageTables } from './stage-tables';
import { ensureTables, forgetTables } from './tables';
import { LINE_ITEMS_TABLE, ORDERS_TABLE, schemaResource, type WarehouseTable } from './table-schemas';

/**
 * A load's media at most: the API's 10 MB request ("Quotas and limits", API requests: maximum
 * request size; the runtime refuses more), less room for the multipart request's job resource.
 */
export const LOAD_MEDIA_BYTES = 9 * 1024 * 1024;

interface QueuedOrder {
  rows: OrderRows;
  updatedMs: number;
  orderBytes: number;
  lineBytes: number;
}

export interface BigQueryWriterOptions {
  /**
   * Every staged order's row replaced, changed or not (the reconciliation pass: it stamps synced_at
   * on every order it listed, and takes the rows it did not stamp for gone). Otherwise only rows
   * whose values differ are updated, so the Sync log's "updated" counts the orders that changed.
   */
  mergeAll?: boolean;
}

export function bigQueryOrderWriter(
  ctx: JobContext,
  destination: BigQueryDestination,
  stageSuffix: string,
  options: BigQueryWriterOptions = {},
): OrderWriter {
  const { projectId } = destination;
  const names = { projectId, datasetId: destination.datasetId };
  const stage = (table: WarehouseTable): string => `${table.tableId}_stage_${stageSuffix}`;
  // Job ids unique to this execution and flush: the same insert retried finds its job (service.ts).
  const jobPrefix = `ma_${stageSuffix}_${ctx.now()}`;
  let flushes = 0;
  /** The zones the tables' days were written in (day-zones.ts), read at the first flush. */
  let zones: string[] | undefined;
  let queued = new Map<string, QueuedOrder>();
  let pages = 0;
  let largestPage = 0;
  let largestPageOrders = 0;
  let skipped: SkippedRecord[] = [];
  const partitions = partitionBudget(ctx);

  const bytes = (): { orders: number; lines: number } => {
    let orders = 0;
    let lines = 0;
    queued.forEach((q) => {
      orders += q.orderBytes;
      lines += q.lineBytes;
    });
    return { orders, lines };
  };

  const writer: OrderWriter = {
    get queued() {
      return pages;
    },
    holdsAtPause: true,
    get full() {
      const { orders, lines } = bytes();
      if (pages === 0) return false;
      // A flush's MERGE modifies one partition per day of its orders; a page adds at most one day per order.
      const days = new Set([...queued.values()].map((q) => q.rows.placedDay)).size;
      return Math.max(orders, lines) + largestPage > LOAD_MEDIA_BYTES || days + largestPageOrders > PARTITIONS_PER_JOB;
    },
    write(orders) {
      const maxUpdatedAt = writer.queue(orders);
      writer.flush();
      return maxUpdatedAt;
    },
    queue(orders) {
      let maxMs = -Infinity;
      let maxUpdatedAt: string | null = null;
      let pageBytes = 0;
      for (const order of lastOccurrences(orders)) {
        const updatedMs = updatedAtMs(order);
        if (!Number.isNaN(updatedMs) && updatedMs > maxMs) {
          maxMs = updatedMs;
          maxUpdatedAt = order.updated_at;
        }
        let rows: OrderRows;
        try {
          const problem = recordProblem(order);
          if (problem !== null) throw new Error(problem);
          rows = orderRows(order, ctx.storeTimeZone, ctx.now());
        } catch (e) {
          skipped.push(skippedRecord(order, null, e));
          continue;
        }
        const before = queued.get(order.id);
        // The feed is at-least-once: of two copies in the queued pages the later change is kept.
        if (before && before.updatedMs > updatedMs) continue;
        const entry: QueuedOrder = {
          rows,
          updatedMs: Number.isNaN(updatedMs) ? -Infinity : updatedMs,
          orderBytes: utf8Bytes(JSON.stringify(rows.order)) + 1,
          lineBytes: rows.lineItems.reduce((n, line) => n + utf8Bytes(JSON.stringify(line)) + 1, 0),
        };
        queued.delete(order.id);
        queued.set(order.id, entry);
        pageBytes += Math.max(entry.orderBytes, entry.lineBytes);
      }
      pages++;
      largestPage = Math.max(largestPage, pageBytes);
      largestPageOrders = Math.max(largestPageOrders, orders.length);
      return maxUpdatedAt;
    },
    flush() {
      const orders = [...queued.values()];
      const flushedPages = pages;
      const flushedSkipped = skipped;
      queued = new Map();
      pages = 0;
      largestPage = 0;
      largestPageOrders = 0;
      skipped = [];
      let merged: MergedCounts | null = null;
      if (orders.length > 0) {
        markDaysStale(ctx, orders);
        merged = writeToBigQuery(orders);
      }
      ctx.tally.pages += flushedPages;
      // The MERGE's own counts when BigQuery gives them (dmlStats); otherwise every flushed order is "updated".
      ctx.tally.counts.ordersAdded += merged ? merged.inserted : 0;
      ctx.tally.counts.ordersUpdated += merged ? merged.updated : orders.length;
      ctx.tally.counts.lineItems += orders.reduce((n, o) => n + o.rows.lineItems.length, 0);
      noteSkipped(
        ctx,
        'orders',
        flushedSkipped,
        orders.map((o) => String(o.rows.order.id)),
      );
    },
  };

  function writeToBigQuery(orders: readonly QueuedOrder[]): MergedCounts | null {
    ensureTables(ctx, destination);
    const n = ++flushes;
    const jobId = (step: string): string => `${jobPrefix}_${n}_${step}`;
    const load = (table: WarehouseTable, lines: string[]) =>
      insertJob(
        projectId,
        jobId(`load_${table.tableId}`),
        {
          load: {
            sourceFormat: 'NEWLINE_DELIMITED_JSON',
            destinationTable: { projectId, datasetId: names.datasetId, tableId: stage(table) },
            schema: schemaResource(table),
            writeDisposition: 'WRITE_TRUNCATE',
            // Made by withStageTables with its expiration: a load never makes one that would stay.
            createDisposition: 'CREATE_NEVER',
          },
        },
        Utilities.newBlob(lines.join('\n'), 'application/octet-stream'),
      );
    zones ??= dayZones(ctx);
    const days = new Set(orders.flatMap((o) => orderDays(o.rows.placedDay, o.rows.order.created_at, zones!)));
    const query = (step: string, sql: string, parameters: Parameter[]) => (attempt: number) =>
      insertJob(projectId, attemptId(jobId(step), attempt), {
        query: {
          query: sql,
          useLegacySql: false,
          parameterMode: 'NAMED',
          queryParameters: [...parameters, daysParameter(DAYS_PARAMETER, [...days].sort())],
        },
      });

    // Each table's MERGE modifies a partition per day of the flushed orders: counted, or the run pauses here.
    partitions.spend(new Set(orders.map((o) => o.rows.placedDay)).size, Date.now());
    const withLines = orders.some((o) => o.rows.lineItems.length > 0);
    const inline =
      orders.reduce((n, o) => n + o.orderBytes, 0) <= INLINE_ROWS_BYTES &&
      orders.reduce((n, o) => n + o.lineBytes, 0) <= INLINE_ROWS_BYTES;
    const merges = (sources: FlushSources) =>
      // One statement a table, the two tables' together ("DML": mutating statements on one table
      // queue, on different tables they run at once); the line items MERGE also deletes the lines
      // a staged order no longer lists.
      runDml(projectId, ctx.budget, [
        query(
          'merge_orders',
          mergeFromSql(names, ORDERS_TABLE, sources.orders, !options.mergeAll, true),
          sources.orderParameters,
        ),
        withLines
          ? query(
              'merge_line_items',
              lineItemsMergeSql(names, LINE_ITEMS_TABLE, sources.lines, sources.orderIds, true),
              sources.lineParameters,
            )
          : query(
              'remove_line_items',
              removedLineItemsSql(names, LINE_ITEMS_TABLE.tableId, sources.orderIds, true),
              sources.lineParameters,
            ),
      ]);
    const stageOf = (table: WarehouseTable) => ({ ...names, tableId: stage(table), schema: schemaResource(table) });
    try {
      let mergedOrders: GoogleAppsScript.BigQuery.Schema.Job;
      if (inline) [mergedOrders] = merges(inlineSources(orders.map((o) => o.rows)));
      else {
        const stages = withLines ? [stageOf(ORDERS_TABLE), stageOf(LINE_ITEMS_TABLE)] : [stageOf(ORDERS_TABLE)];
        [mergedOrders] = withStageTables(stages, () => {
          const loads = [
            load(
              ORDERS_TABLE,
              orders.map((o) => JSON.stringify(o.rows.order)),
            ),
          ];
          if (withLines)
            loads.push(
              load(
                LINE_ITEMS_TABLE,
                orders.flatMap((o) => o.rows.lineItems.map((line) => JSON.stringify(line))),
              ),
            );
          waitForJobs(projectId, loads);
          return merges({
            orders: tablePath(names, stage(ORDERS_TABLE)),
            lines: tablePath(names, stage(LINE_ITEMS_TABLE)),
            orderIds: stagedIdsSql(names, stage(ORDERS_TABLE)),
            orderParameters: [],
            lineParameters: [],
          });
        });
      }
      return mergedCounts(mergedOrders);
    } catch (e) {
      // A table removed since it was made: made again by the next run.
      if (notFound(e) || (e instanceof BigQueryJobError && e.reason === 'notFound')) forgetTables();
      // The day's loads used up: the run pauses with the checkpoint before these pages (load-quota.ts).
      if (loadQuotaExceeded(e)) throw pauseForLoadQuota(Date.now());
      if (partitionQuotaExceeded(e)) throw pauseForPartitionQuota(Date.now());
      throw e;
    }
  }

  return writer;
}

interface MergedCounts {
  inserted: number;
  updated: number;
}

/** A MERGE job's inserted and updated rows (JobStatistics2.dmlStats), or null when the job does not say. */
function mergedCounts(job: GoogleAppsScript.BigQuery.Schema.Job): MergedCounts | null {
  const stats = (job.statistics?.query as { dmlStats?: { insertedRowCount?: string; updatedRowCount?: string } })
    ?.dmlStats;
  if (!stats || stats.insertedRowCount === undefined || stats.updatedRowCount === undefined) return null;
  return { inserted: Number(stats.insertedRowCount), updated: Number(stats.updatedRowCount) };
}

/** The days of the flushed orders' Daily P&L are marked stale before their rows are written (as the sheets' writer does). */
function markDaysStale(ctx: JobContext, orders: readonly QueuedOrder[]): void {
  let from: string | null = null;
  for (const o of orders) if (from === null || o.rows.placedDay < from) from = o.rows.placedDay;
  const daily = ctx.state.get('daily');
  if (from !== null && daily.historyDone && (daily.dirtyFrom === null || from < daily.dirtyFrom))
    ctx.state.update('daily', { dirtyFrom: from });
}
