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

export class StartReads {
  /** Header rows and key columns of the store tables, by table, read once per run. */
  private reads: Map<SheetName, SheetReads> | null = null;

  constructor(
    private readonly snapshot: WorkbookSnapshot,
    private readonly layouts: TableLayouts,
  ) {}

  /** The first reads of every store table that exists, in one batchGet (a sheet that cannot be located unambiguously is left to the set-up). */
  of(schema: TableSchema): SheetReads {
    if (!this.reads) {
      const requests: ReadRequest[] = [];
      for (const table of STORE_TABLES) {
        // A run that never opens Orders or Line items (the Sync log's note, a close) has no layouts to read them by.
        if (isChoosable(table) && !this.layouts.loaded()) continue;
        const located = this.snapshot.locateIfClear(table);
        if (located) requests.push(this.readRequest(table, located.info));
      }
      const read = readManagedRows(this.snapshot.id(), requests);
      this.reads = new Map(requests.map((r, i) => [r.schema.sheetName, read[i]]));
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

  /** What the run's start reads of a table: its header and, for every row, its key columns (schema.keyReadColumns; only the parent's key where schema.parentKey says) or index and change columns. */
  private readRequest(table: TableSchema, info: SheetInfo): ReadRequest {
    const request: ReadRequest = {
      schema: this.layouts.placedFor(table, info).schema,
      info,
      wholeRows: WHOLE_ROW_TABLES.has(table.sheetName),
    };
    if (table.keyReadColumns !== undefined) request.keyColumns = table.keyReadColumns;
    if (table.parentKey !== undefined) request.parentColumn = table.parentKey.column;
    return request;
  }
}
