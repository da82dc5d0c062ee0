/**
 * The tie-out of orders kept in BigQuery: the orders table summed per day in one query
 * (tieout-sql.ts), compared with the service's Daily P&L and written to the Checks sheet exactly as
 * the Sheets tie-out does (finance/tieout-sheet.ts); a ✗ day is then fetched again through the
 * refetch path, whose writer MERGEs its orders, so a row altered in BigQuery is put back, and a
 * key the same query found held more than once turns its days ✗ (the repair keeps one row: reconcile.ts).
 */
import { writeTieout } from '../finance/tieout-sheet';
import { instantToLocalDate } from '../platform/calendar';
import type { JobContext } from '../sync/job-context';
import { runDestination } from './destination';
import { heldKeysOf } from './held-twice-sql';
import { tablePath } from './merge-sql';
import { queryRows } from './query';
import { storeIdOfRun } from './store-scope';
import { ORDERS_TABLE } from './table-schemas';
import { tieoutQuery } from './tieout-sql';
import { warehouseDaySums } from './tieout-sums';

/**
 * The tie-out's words for the Sync log when orders go to BigQuery; null for the sheets (their own
 * tie-out runs). `asked`: Checks → Run, which puts back the Checks rows typed over by hand.
 */
export function bigQueryTieout(ctx: JobContext, asked = false): string | null {
  const destination = runDestination(ctx);
  if (destination.kind !== 'bigquery') return null;
  const names = { projectId: destination.projectId, datasetId: destination.datasetId };
  const from = ctx.state.get('orders').createdAfter;
  const today = instantToLocalDate(ctx.now(), ctx.storeTimeZone);
  const { sql, parameters } = tieoutQuery(names, storeIdOfRun(), from, today);
  const { sums: dayRows, held } = heldKeysOf(queryRows(destination.projectId, sql, parameters));
  const { sums, otherCurrencyDays } = warehouseDaySums(dayRows, ctx.state.get('meta').storeCurrency);
  return writeTieout(
    ctx,
    null,
    true,
    {
      sums,
      otherCurrencyDays,
      heldTwice: held,
      how: `Orders side: the BigQuery table ${tablePath(names, ORDERS_TABLE.tableId)} summed by placed_day in one query for this check.`,
    },
    asked,
  );
}
