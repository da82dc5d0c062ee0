/**
 * Switching a spreadsheet that holds Orders and Line items to BigQuery: what the sheets hold is
 * copied into the tables in chunks (each chunk's rows read in one Values.batchGet, loaded into the
 * move's own stage table and MERGEd on the key), the orders first, then the line items (whose
 * placed_day is their order's). The record moves after each chunk's MERGE: an execution ended
 * mid-chunk does that chunk again next time, and the MERGE leaves one row per key. Once every
 * chunk is in, the copy is proven equal to the sheets (switch-proof.ts); the sheets keep every
 * cell until a tie-out in BigQuery after that is ✓ (switch-free.ts). Meanwhile the orders feed
 * waits: its checkpoint stays where the sheets left it, and it continues from there into BigQuery.
 */
import { documentProperties } from '../platform/properties';
import { LINE_ITEMS, ORDERS, type TableSchema } from '../sheets/schema';
import { a1Range } from '../sheets/a1';
import { locateSheet, taggedSheets } from '../sheets/sheet-tags';
import { utf8Bytes } from '../platform/property-size';
import type { JobContext } from '../sync/job-context';
import { currentSpreadsheetId } from '../platform/context';
import { DESTINATION_PROPERTY_KEY, destinationText, SHEETS_DESTINATION } from './destination-setting';
import { requireDestinationPermission } from './destination-consent';
import { lineItemsWithOrderDay, mergeFromSql, mergeSql, tablePath, type TableNames } from './merge-sql';
import { LOAD_MEDIA_BYTES } from './order-writer';
import type { WarehouseRow } from './rows';
import { insertJob, waitForJobs } from './service';
import { withStageTables } from './stage-tables';
import { centsOf, copiedFigures, copyDifferences } from './switch-proof';
import { readSwitch, SWITCH_PROPERTY_KEY, type SwitchRecord } from './switch-record';
import { settleAmbiguousInstants } from './switch-instants';
import { warehouseRowsOf } from './switch-rows';
import { createTables, TABLES_MADE_KEY, tablesMark } from './tables';
import { LINE_ITEMS_TABLE, ORDERS_TABLE, PLACED_DAY, schemaResource, type WarehouseTable } from './table-schemas';

/** Sheet rows read per chunk (at most; a chunk whose NDJSON passes the load's media size is cut shorter). */
export const SWITCH_CHUNK_ROWS = 4000;

export interface SwitchStepResult {
  message: string | null;
  /** False while the copy is not done: the run's jobs wait (the orders feed must not pass the copy). */
  done: boolean;
}

/** The move's record as it stands now (the run's start read, or this run's last write). */
export function currentSwitch(ctx: JobContext): SwitchRecord | null {
  if (!ctx.state.readAtStart[SWITCH_PROPERTY_KEY]) return null;
  return readSwitch(documentProperties().getProperty(SWITCH_PROPERTY_KEY));
}

function save(record: SwitchRecord | null): void {
  if (record === null) documentProperties().deleteProperty(SWITCH_PROPERTY_KEY);
  else documentProperties().setProperty(SWITCH_PROPERTY_KEY, JSON.stringify(record));
}

/** The run's step before its jobs: copies chunks while the budget lasts; done once the copy is proven (or no move is under way). */
export function runSwitchCopy(ctx: JobContext): SwitchStepResult {
  const record = currentSwitch(ctx);
  if (record === null || record.phase === 'copied') return { message: null, done: true };
  requireDestinationPermission(record.to);
  const names = { projectId: record.to.projectId, datasetId: record.to.datasetId };
  const spreadsheetId = currentSpreadsheetId();
  if (spreadsheetId === null) throw new Error('No spreadsheet: the move copies its sheets.');
  if (ctx.state.readAtStart[TABLES_MADE_KEY] !== tablesMark(record.to)) {
    createTables(record.to);
    documentProperties().setProperty(TABLES_MADE_KEY, tablesMark(record.to));
  }
  let chunk = 0;
  for (;;) {
    if (!ctx.budget.canStartStep())
      return {
        message: `Moving the sheets’ orders into BigQuery: ${record.orders} orders and ${record.lineItems} line items copied so far; the next run continues.`,
        done: false,
      };
    const schema = record.phase === 'orders' ? ORDERS : LINE_ITEMS;
    const located = locateSheet(ctx.workbook.sheets(), schema, () => taggedSheets(ctx.workbook.sheets()));
    if (!located || record.nextRow > located.info.rows) {
      if (record.phase === 'orders') Object.assign(record, { phase: 'line items', nextRow: 2 });
      else return prove(ctx, record, names);
      save(record);
      continue;
    }
    copyChunk(ctx, record, names, spreadsheetId, schema, located.name, located.info, ++chunk);
    save(record);
  }
}

function copyChunk(
  ctx: JobContext,
  record: SwitchRecord,
  names: TableNames,
  spreadsheetId: string,
  schema: TableSchema,
  sheetName: string,
  info: { rows: number; columns: number },
  chunk: number,
): void {
  const ordersPhase = record.phase === 'orders';
  const table = ordersPhase ? ORDERS_TABLE : LINE_ITEMS_TABLE;
  const last = Math.min(info.rows, record.nextRow + SWITCH_CHUNK_ROWS - 1);
  const [header, rows] = ctx.workbook.readRanges([
    a1Range(sheetName, 1, 1, 1, info.columns),
    a1Range(sheetName, record.nextRow, 1, last, info.columns),
  ]);
  const read = warehouseRowsOf(
    {
      sheet: schema.sheetName,
      header: header[0] ?? [],
      rows,
      firstRow: record.nextRow,
      spreadsheetTimeZone: ctx.workbook.timeZone,
    },
    table,
    {
      goneColumn: ordersPhase ? 'status' : 'sync_status',
      stamp: new Date(record.stamp).toISOString(),
      stampColumn: 'synced_at',
    },
  );
  // Line items hold no instant of the service's (synced_at is the move's stamp).
  if (ordersPhase) settleAmbiguousInstants(ctx.api, read);
  // One load's media at most: a chunk that would pass it ends before the row that does.
  const lines: string[] = [];
  let bytes = 0;
  let through = last;
  const kept: WarehouseRow[] = [];
  for (const { row, sheetRow } of read) {
    const line = JSON.stringify(row);
    const size = utf8Bytes(line) + 1;
    if (bytes + size > LOAD_MEDIA_BYTES && lines.length > 0) {
      through = sheetRow - 1;
      break;
    }
    bytes += size;
    lines.push(line);
    kept.push(row);
  }
  if (lines.length > 0) loadAndMerge(names, spreadsheetId, record.stamp, chunk, ctx.now(), table, lines);
  if (ordersPhase) {
    record.orders += kept.length;
    for (const row of kept) {
      record.netRevenueCents += centsOf(row.net_revenue);
      record.netProfitCents += centsOf(row.net_profit);
    }
  } else record.lineItems += kept.length;
  record.nextRow = through + 1;
}

/** The move's own stage tables: the feed's are typed for whole pages, the line items' here have no placed_day. */
const moveStage = (table: WarehouseTable, spreadsheetId: string): string => `${table.tableId}_move_${spreadsheetId}`;

function loadAndMerge(
  names: TableNames,
  spreadsheetId: string,
  stamp: number,
  chunk: number,
  now: number,
  table: WarehouseTable,
  lines: string[],
): void {
  const { projectId, datasetId } = names;
  // Unique per execution and chunk: a chunk done again after an ended execution is a new load and MERGE.
  const jobId = (step: string): string => `ma_${spreadsheetId}_move_${stamp}_${now}_${chunk}_${step}`;
  const stage = moveStage(table, spreadsheetId);
  const fields = schemaResource(table).fields.filter((f) => table === ORDERS_TABLE || f.name !== PLACED_DAY);
  const sql =
    table === ORDERS_TABLE
      ? mergeSql(names, ORDERS_TABLE, stage)
      : mergeFromSql(names, LINE_ITEMS_TABLE, lineItemsWithOrderDay(names, ORDERS_TABLE.tableId, stage));
  withStageTables([{ projectId, datasetId, tableId: stage, schema: { fields } }], () => {
    waitForJobs(projectId, [
      insertJob(
        projectId,
        jobId('load'),
        {
          load: {
            sourceFormat: 'NEWLINE_DELIMITED_JSON',
            destinationTable: { projectId, datasetId, tableId: stage },
            schema: { fields },
            writeDisposition: 'WRITE_TRUNCATE',
            createDisposition: 'CREATE_NEVER',
          },
        },
        Utilities.newBlob(lines.join('\n'), 'application/octet-stream'),
      ),
    ]);
    waitForJobs(projectId, [insertJob(projectId, jobId('merge'), { query: { query: sql, useLegacySql: false } })]);
  });
}

/**
 * Every chunk is in: line items BigQuery held from before for a moved order, which the sheets no
 * longer list, are deleted (the sheets are what the order has); then the copy is compared with the
 * sheets' figures. Equal: the move waits for the tie-out. Not equal: orders stay in the sheets
 * (every cell kept, the feed's checkpoint untouched), said with the figures.
 */
function prove(ctx: JobContext, record: SwitchRecord, names: TableNames): SwitchStepResult {
  const spreadsheetId = String(currentSpreadsheetId());
  waitForJobs(names.projectId, [
    insertJob(names.projectId, `ma_${spreadsheetId}_move_${record.stamp}_${ctx.now()}_stale_line_items`, {
      query: {
        query:
          `DELETE FROM ${tablePath(names, LINE_ITEMS_TABLE.tableId)} T WHERE T.synced_at < @stamp ` +
          `AND T.order_id IN (SELECT id FROM ${tablePath(names, ORDERS_TABLE.tableId)} WHERE synced_at = @stamp)`,
        useLegacySql: false,
        parameterMode: 'NAMED',
        queryParameters: [
          {
            name: 'stamp',
            parameterType: { type: 'TIMESTAMP' },
            parameterValue: { value: new Date(record.stamp).toISOString() },
          },
        ],
      },
    }),
  ]);
  const differences = copyDifferences(record, copiedFigures(names, record.stamp));
  const where = `${names.projectId}.${names.datasetId}`;
  if (differences.length > 0) {
    save(null);
    documentProperties().setProperty(DESTINATION_PROPERTY_KEY, destinationText(SHEETS_DESTINATION));
    return {
      message:
        `The copy in BigQuery (${where}) does not equal the sheets: ${differences.join('; ')}. ` +
        'Orders stay in the sheets, which keep every row; choose BigQuery again to retry the move.',
      done: true,
    };
  }
  Object.assign(record, { phase: 'copied', copiedAt: ctx.now() });
  save(record);
  // The tie-out in SQL runs in this run, after the feed's new changes: its ✓ frees the sheets' cells.
  if (typeof ctx.state.get('tieout').owedSince !== 'number') ctx.state.update('tieout', { owedSince: ctx.now() });
  return {
    message:
      `Moved ${record.orders} orders and ${record.lineItems} line items from the sheets into BigQuery (${where}), equal to the sheets ` +
      'in count, net revenue and net profit. The sheets’ rows are removed once the tie-out in BigQuery is ✓.',
    done: true,
  };
}
