/**
 * The full reconciliation pass (spec 4.4 rule 7) for orders kept in BigQuery: every order, oldest
 * change first, MERGEd again whole from the service (which also puts back any row altered in the
 * table, the figure re-check's purpose), in flushes of queued pages whose checkpoint moves only
 * after the MERGE, so it resumes across executions. Every order the pass listed, and every order
 * the feed wrote meanwhile, then carries a synced_at at or after the pass's start: at its end, the
 * rows older than that, within the pass's view (the plan window and the orders window), are the
 * orders the service no longer returns, and are deleted with their line items. A record the sync
 * skipped (a value its column cannot hold) keeps its old row: it is never taken for gone.
 */
import type { Order } from '../api/types';
import { laterDay } from '../platform/calendar';
import { currentSpreadsheetId } from '../platform/context';
import { pageThrough, type Feed } from '../sync/feed';
import {
  laterOf,
  listChangedOrders,
  recordMeta,
  updatedAfterFor,
  type JobContext,
  type JobResult,
} from '../sync/job-context';
import { startPass, widens } from '../sync/reconcile-pass';
import { bigQueryWriterFor, runDestination } from './destination';
import { tablePath, type TableNames } from './merge-sql';
import { PARTITIONS_PER_JOB } from './partition-limits';
import { queryRows, type QueryParameter } from './query';
import { insertJob, waitForJobs } from './service';
import { STORE_PARAMETER, storeIdOfRun, storeParameter } from './store-scope';
import { LINE_ITEMS_TABLE, ORDERS_TABLE, PLACED_DAY } from './table-schemas';

/** Window widenings a pass starts over for within one execution (as the Sheets pass). */
const WINDOW_RESTARTS = 2;

/** The pass for a BigQuery destination; null when the orders are in the sheets (their own pass runs). */
export function runBigQueryReconcile(ctx: JobContext): JobResult | null {
  const destination = runDestination(ctx);
  if (destination.kind !== 'bigquery') return null;
  const writer = bigQueryWriterFor(ctx, { mergeAll: true })!;
  if (ctx.state.get('reconcile').passStartedAt === null) startPass(ctx);
  const createdAfter = ctx.state.get('orders').createdAfter;
  let updatedAfter = updatedAfterFor(ctx.state.get('reconcile').watermark);
  let windowRestarts = 0;
  let queued: { maxUpdatedAt: string | null; passWindow: { from: string | null } } | null = null;
  let gone = 0;
  const checkpoint = (): boolean => {
    if (queued === null) return true;
    const { maxUpdatedAt, passWindow } = queued;
    queued = null;
    writer.flush();
    ctx.state.update('reconcile', {
      watermark: laterOf(ctx.state.get('reconcile').watermark, maxUpdatedAt),
      passWindow,
    });
    return true;
  };
  const feed: Feed<Order> = {
    list: (cursor) => listChangedOrders(ctx, updatedAfter, createdAfter, cursor),
    take(page, { last }) {
      const r = ctx.state.get('reconcile');
      const pageFrom = page.meta ? page.meta.historyAvailableFrom : null;
      const window = queued?.passWindow ?? r.passWindow;
      if (window && widens(window.from, pageFrom) && windowRestarts < WINDOW_RESTARTS) {
        // The pages read so far never showed the orders the wider window adds: start over.
        windowRestarts++;
        checkpoint();
        startPass(ctx);
        updatedAfter = updatedAfterFor(null);
        return 'fresh';
      }
      const maxUpdatedAt = writer.queue(page.data);
      queued = {
        maxUpdatedAt: laterOf(queued?.maxUpdatedAt ?? null, maxUpdatedAt),
        passWindow: { from: window ? laterDay(window.from, pageFrom) : pageFrom },
      };
      recordMeta(ctx, page.meta);
      if (last || writer.full) checkpoint();
      if (!last) return 'next';
      const { passStartedAt, passWindow } = ctx.state.get('reconcile');
      gone = deleteUnseen(
        ctx,
        destination,
        passStartedAt ?? ctx.now(),
        laterDay(passWindow?.from ?? null, createdAfter),
      );
      ctx.state.update('reconcile', {
        passStartedAt: null,
        watermark: null,
        passWindow: null,
        lastCompletedAt: ctx.now(),
      });
      return 'done';
    },
    fromCheckpoint() {
      updatedAfter = updatedAfterFor(ctx.state.get('reconcile').watermark);
    },
    settle: checkpoint,
  };
  if (!pageThrough(ctx.budget, feed))
    return {
      job: 'reconcile',
      caughtUp: false,
      message: 'Reconciliation: stopped before the time limit; the next run continues.',
    };
  return {
    job: 'reconcile',
    caughtUp: true,
    message: `Reconciliation complete: ${gone} order(s) the service no longer has removed from BigQuery; every order written again from the service.`,
  };
}

/** Where the pass's unseen rows (alias T) are: this store's, synced before it started, inside its view, not a skipped record. */
function unseenWhere(storeId: string, passStartedAt: number, viewFrom: string | null, skippedIds: readonly string[]) {
  const parameters: QueryParameter[] = [
    storeParameter(storeId),
    { name: 'pass_started', type: 'TIMESTAMP', value: new Date(passStartedAt).toISOString() },
  ];
  let where = `T.store_id = @${STORE_PARAMETER} AND T.synced_at < @pass_started`;
  if (viewFrom !== null) {
    parameters.push({ name: 'view_from', type: 'DATE', value: viewFrom });
    where += ` AND T.${PLACED_DAY} >= @view_from`;
  }
  if (skippedIds.length > 0) {
    skippedIds.forEach((id, i) => parameters.push({ name: `skipped_${i}`, type: 'STRING', value: id }));
    where += ` AND T.id NOT IN (${skippedIds.map((_, i) => `@skipped_${i}`).join(', ')})`;
  }
  return { where, parameters };
}

/**
 * Deletes the orders the pass did not see, their line items first (found through the orders, the
 * only table that says whose store a row is); returns how many orders.
 */
function deleteUnseen(
  ctx: JobContext,
  names: TableNames & { projectId: string },
  passStartedAt: number,
  viewFrom: string | null,
): number {
  const orders = tablePath(names, ORDERS_TABLE.tableId);
  const { where, parameters } = unseenWhere(
    storeIdOfRun(),
    passStartedAt,
    viewFrom,
    ctx.state.get('skipped').orders.map((o) => o.id),
  );
  // The days they leave, oldest first: the daily job reads the Daily P&L again from the first (as the Sheets pass).
  const days = queryRows(
    names.projectId,
    `SELECT T.${PLACED_DAY} AS day FROM ${orders} T WHERE ${where} GROUP BY T.${PLACED_DAY} ORDER BY day`,
    parameters,
  ).map((r) => String(r.day));
  if (days.length === 0) return 0;
  const jobId = (step: string): string => `ma_${currentSpreadsheetId() ?? 'script'}_${ctx.now()}_reconcile_${step}`;
  const dml = (step: string, sql: string, params: QueryParameter[]) =>
    waitForJobs(names.projectId, [
      insertJob(names.projectId, jobId(step), {
        query: {
          query: sql,
          useLegacySql: false,
          parameterMode: 'NAMED',
          queryParameters: params.map((p) => ({
            name: p.name,
            parameterType: { type: p.type },
            parameterValue: { value: p.value },
          })),
        },
      }),
    ])[0];
  let gone = 0;
  // Each DELETE modifies at most PARTITIONS_PER_JOB days' partitions.
  for (let i = 0, n = 0; i < days.length; i += PARTITIONS_PER_JOB, n++) {
    const range = days.slice(i, i + PARTITIONS_PER_JOB);
    const inRange = `${where} AND T.${PLACED_DAY} BETWEEN @range_from AND @range_to`;
    const params: QueryParameter[] = [
      ...parameters,
      { name: 'range_from', type: 'DATE', value: range[0] },
      { name: 'range_to', type: 'DATE', value: range[range.length - 1] },
    ];
    dml(
      `delete_line_items_${n}`,
      `DELETE FROM ${tablePath(names, LINE_ITEMS_TABLE.tableId)} L WHERE L.order_id IN (SELECT T.id FROM ${orders} T WHERE ${inRange})`,
      params,
    );
    const deleted = dml(`delete_orders_${n}`, `DELETE FROM ${orders} T WHERE ${inRange}`, params);
    gone += Number(deleted.statistics?.query?.numDmlAffectedRows ?? 0);
  }
  ctx.tally.counts.ordersGone += gone;
  const daily = ctx.state.get('daily');
  if (daily.historyDone && (daily.dirtyFrom === null || days[0] < daily.dirtyFrom))
    ctx.state.update('daily', { dirtyFrom: days[0] });
  return gone;
}
