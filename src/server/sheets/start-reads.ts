/**
 * The run's first read of the store tables: every existing one's header row and key columns (for
 * the Daily and Monthly P&L, whole rows), all in ONE Values.batchGet; a table not among them is
 * read on its own when it is first opened.
 */
import { isChoosable } from './column-choice';
import { WHOLE_ROW_TABLES } from './open-sheet';
import { readManagedRows, type ReadRequest, type SheetInfo, type SheetReads } from './sheet-snapshot';
import type { TableLayouts } from './table-layouts';
import type { WorkbookSnapshot } from './workbook-snapshot';
import { CHECKS, DAILY, LINE_ITEMS, MONTHLY, ORDERS, PRODUCTS, RESTATEMENTS, SYNC_LOG, VARIANTS } from './schema';
import type { SheetName, TableSchema } from './schema';
import type { RowIndex } from './row-index';
import { ROW_INDEX_MIN_ROWS } from './row-index-buckets';

/** The tables whose header row and key columns the first sheet access reads, all in one call (the Sync log: its header). */
const STORE_TABLES: readonly TableSchema[] = [
  ORDERS,
  LINE_ITEMS,
  PRODUCTS,
  VARIANTS,
  DAILY,
  MONTHLY,
  RESTATEMENTS,
  CHECKS,
  SYNC_LOG,
];

/** The tables whose rows the row index finds (row-index.ts). */
const KEYED_BY_INDEX: ReadonlySet<TableSchema> = new Set([ORDERS, LINE_ITEMS]);

export class StartReads {
  /** Header rows and key columns of the store tables, by table, read once per run. */
  private reads: Map<SheetName, SheetReads> | null = null;
  /** The run goes over every order (a reconciliation): Orders and Line items key columns read whole at the start. */
  wholeKeys = false;

  constructor(
    private readonly snapshot: WorkbookSnapshot,
    private readonly layouts: TableLayouts,
    private readonly rowIndex: RowIndex,
  ) {}

  /** The first reads of every store table that exists, in one batchGet (a sheet that cannot be located unambiguously is left to the set-up). */
  of(schema: TableSchema): SheetReads {
    if (!this.reads) {
      const requests: ReadRequest[] = [];
      const infos = new Map<SheetName, SheetInfo>();
      for (const table of STORE_TABLES) {
        // A run that never opens Orders or Line items (the Sync log's note, a close) has no layouts to read them by.
        if (isChoosable(table) && !this.layouts.loaded()) continue;
        const located = this.snapshot.locateIfClear(table);
        if (located) infos.set(table.sheetName, located.info);
      }
      // With a row index, Orders id and Line items order_id are not read whole: the pages read the buckets they touch.
      const orders = infos.get(ORDERS.sheetName);
      const lines = infos.get(LINE_ITEMS.sheetName);
      const big = orders !== undefined && lines !== undefined && orders.rows + lines.rows >= ROW_INDEX_MIN_ROWS;
      const indexed = big ? this.rowIndex.stampRange() : null;
      if (big && indexed === null) this.rowIndex.needsRebuild();
      // A run that goes over every order reads the key columns whole anyway: here, in this call.
      const stampRange = this.wholeKeys ? null : indexed;
      if (this.wholeKeys && indexed !== null) this.rowIndex.goneWhole(null);
      for (const table of STORE_TABLES) {
        const info = infos.get(table.sheetName);
        if (info) requests.push(this.readRequest(table, info, stampRange !== null && KEYED_BY_INDEX.has(table)));
      }
      // The order number index (column B), whole, whatever the store's size: what the run's orders add to.
      const numberRange = orders ? this.rowIndex.numbers.startRange() : null;
      const extra = {
        ranges: [stampRange, numberRange].filter((r) => r !== null),
        values: undefined as unknown[][][] | undefined,
      };
      const read = readManagedRows(this.snapshot.id(), requests, extra);
      this.reads = new Map(requests.map((r, i) => [r.schema.sheetName, read[i]]));
      if (numberRange !== null) this.rowIndex.numbers.begin(extra.values?.[stampRange === null ? 0 : 1]);
      if (stampRange !== null && orders && lines) {
        if (this.rowIndex.begin(extra.values?.[0], orders, lines)) {
          for (const table of KEYED_BY_INDEX) this.reads.get(table.sheetName)!.sparse = true;
        } else {
          // The index does not describe the sheets as they stand: their key columns, read whole (one more call).
          const whole = this.readWhole([ORDERS, LINE_ITEMS], { orders: orders.rows, lines: lines.rows });
          for (const table of KEYED_BY_INDEX) this.reads.get(table.sheetName)!.keys = whole.get(table.sheetName)!;
        }
      }
    }
    const found = this.reads.get(schema.sheetName);
    if (found) return found;
    // Not among the tables read up front: read it on its own.
    const info = this.snapshot.locate(schema);
    const own = info
      ? readManagedRows(this.snapshot.id(), [this.readRequest(schema, info.info)])[0]
      : { header: [], keys: [] };
    this.reads.set(schema.sheetName, own);
    return own;
  }

  /**
   * The key columns of Orders and Line items read whole (the row index fell short), in ONE
   * Values.batchGet, down to each sheet's grid rows now (`rows`).
   */
  readWhole(tables: readonly TableSchema[], rows: { orders: number; lines: number }): Map<SheetName, unknown[][]> {
    const requests: ReadRequest[] = [];
    for (const table of tables) {
      const located = this.snapshot.locate(table);
      if (!located) continue;
      const grid = table.sheetName === ORDERS.sheetName ? rows.orders : rows.lines;
      requests.push(this.readRequest(table, { ...located.info, rows: grid }, false));
    }
    const read = readManagedRows(this.snapshot.id(), requests);
    return new Map(requests.map((r, i) => [r.schema.sheetName, read[i].keys]));
  }

  /** What the run's start reads of a table: its header and, for every row, its key columns (schema.keyReadColumns; only the parent's key where schema.parentKey says) or index and change columns. */
  private readRequest(table: TableSchema, info: SheetInfo, headerOnly = false): ReadRequest {
    const request: ReadRequest = {
      schema: this.layouts.placedFor(table, info).schema,
      info,
      wholeRows: WHOLE_ROW_TABLES.has(table.sheetName),
    };
    if (headerOnly) {
      request.keyColumns = 0;
      return request;
    }
    if (table.keyReadColumns !== undefined) request.keyColumns = table.keyReadColumns;
    if (table.rowKeyColumns !== undefined) request.keyColumns = table.rowKeyColumns;
    if (table.parentKey !== undefined) request.parentColumn = table.parentKey.column;
    return request;
  }
}
