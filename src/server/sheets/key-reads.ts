/**
 * Reads of the managed tables: each table's key index (from the run's first read), the index cells
 * that read left out, and whole tables, named columns or named rows, each in ONE Sheets API call,
 * at the catalog's column positions whatever the sheet's layout.
 */
import { a1Range } from './a1';
import { catalogRow, columnRuns } from './column-runs';
import { planCompletion, type CompletionPlan } from './index-completion';
import { KeyIndex } from './key-index';
import type { OpenSheet } from './open-sheet';
import { ReadAlong } from './read-along';
import { toCatalogRow } from './sheet-layout';
import { valuesService } from './sheet-snapshot';
import { sheetsRequest } from './sheets-requests';
import { batchGetByFilters } from './values-batches';
import type { TableSheets } from './table-sheets';
import type { WorkbookSnapshot } from './workbook-snapshot';
import { columnIndex, LINE_ITEMS, ORDERS, type TableSchema } from './schema';
import { ROW_INDEX_METADATA_KEY, type RowIndex } from './row-index';
import { NUMBER_COLUMN } from './order-number-buckets';

const ORDER_NUMBER_AT = columnIndex(ORDERS, 'order_number');

export class KeyReads {
  /** The columns and cells read along with a page's index cells (readAlong), until the next write. */
  private readonly along: ReadAlong;

  constructor(
    private readonly timeZone: string,
    private readonly snapshot: WorkbookSnapshot,
    private readonly tables: TableSheets,
    /** Whole rows as they stand once this run's deferred writes of the table are sent. */
    private readonly withDeferred: (schema: TableSchema, rows: unknown[][]) => unknown[][],
    private readonly rowIndex: RowIndex,
  ) {
    this.along = new ReadAlong(tables);
    rowIndex.attach({
      indexes: () => {
        if (!this.tables.isOpen(ORDERS) || !this.tables.isOpen(LINE_ITEMS)) return null;
        const orders = this.tables.sheetFor(ORDERS);
        const lines = this.tables.sheetFor(LINE_ITEMS);
        return orders.index && lines.index ? { orders: orders.index, lines: lines.index } : null;
      },
      gridRows: () => ({
        orders: this.tables.sheetFor(ORDERS).maxRows,
        lines: this.tables.sheetFor(LINE_ITEMS).maxRows,
      }),
      read: (ranges) => this.readRanges(ranges),
      readWhole: () => this.readWhole(null),
      create: (title, rows) => this.tables.createHidden(title, rows, NUMBER_COLUMN, ROW_INDEX_METADATA_KEY),
      grow: (sheetId, from, to) => this.tables.growHidden(sheetId, from, to),
    });
    rowIndex.numbers.attach({
      ordersOpen: () => this.tables.isOpen(ORDERS),
      title: () => rowIndex.sheetTitle(),
      readNumbers: () => this.readColumns(ORDERS, ['id', 'order_number']).map((r) => [r[0], r[ORDER_NUMBER_AT]]),
    });
  }

  /** The key index of a table: from its index columns, read with every store table's in ONE call per run. */
  index(schema: TableSchema): KeyIndex {
    const opened = this.tables.sheetFor(schema);
    if (opened.index) return opened.index;
    // New rows go below the sheet's last row with ANY content (a user's rows too): asked only when a row is added.
    const lastRow = opened.created ? null : () => this.tables.lastRowOf(opened);
    opened.index = new KeyIndex(
      opened.keys,
      this.timeZone,
      {
        keyIsDate: schema.columns[0].kind === 'date',
        keyPrefix: schema.keyPrefix,
        keyPattern: schema.keyPattern,
        // A sheet created in this run holds no row of an earlier one: nothing pending.
        parent: opened.created ? undefined : schema.parentKey,
      },
      2,
      lastRow,
    );
    if (schema.sheetName === ORDERS.sheetName || schema.sheetName === LINE_ITEMS.sheetName) this.keyedByIndex(opened);
    return opened.index;
  }

  /** Orders and Line items: rows found by the row index (sparse) while both sheets are as it describes. */
  private keyedByIndex(opened: OpenSheet): void {
    const index = opened.index!;
    if (opened.sparse) {
      const counts = this.rowIndex.counts();
      const orders = opened.schema.sheetName === ORDERS.sheetName;
      index.makeSparse({
        size: orders ? counts.orders : counts.lines,
        lastRow: orders ? counts.lastOrderRow : 1,
        whole: () => this.readWhole(null),
      });
    }
    const other = this.tables.sheetFor(opened.schema.sheetName === ORDERS.sheetName ? LINE_ITEMS : ORDERS);
    if (!other.index) return;
    // Both built: a sheet made afresh in this run leaves nothing the index describes.
    const [orders, lines] = opened.schema.sheetName === ORDERS.sheetName ? [index, other.index] : [other.index, index];
    if (this.tables.createdThisRun(ORDERS) || this.tables.createdThisRun(LINE_ITEMS)) {
      this.rowIndex.needsRebuild();
      if (orders.isSparse || lines.isSparse) this.readWhole(null);
    }
    this.rowIndex.watch(orders, lines);
    this.rowIndex.ensureSheet();
  }

  /**
   * Orders id and Line items order_id read whole (ONE Values.batchGet) into their key indexes:
   * asked for every entry, or the row index fell short (`why`, said in the Sync log).
   */
  private readWhole(why: 'mismatch' | 'unreadable' | null): void {
    this.rowIndex.goneWhole(why);
    const orders = this.tables.sheetFor(ORDERS);
    const lines = this.tables.sheetFor(LINE_ITEMS);
    const sparse = [orders, lines].filter((o) => o.sparse);
    if (sparse.length === 0) return;
    // The catalog tables, not the sheets' own schemas: the start read places each by its stored layout.
    const read = this.tables.readKeysWhole(
      sparse.map((o) => (o === orders ? ORDERS : LINE_ITEMS)),
      { orders: orders.maxRows, lines: lines.maxRows },
    );
    for (const opened of sparse) {
      opened.sparse = false;
      opened.keys = read.get(opened.schema.sheetName) ?? [];
      opened.index?.fill(opened.keys);
    }
  }

  /**
   * Fills in the index cells the run's start read left out (schema.keyReadColumns: the other index
   * columns and the change columns), for every table asked, in ONE Values.batchGetByDataFilter: for named keys,
   * one range per run of adjacent rows (what a page touches, never the sheet); without keys, the
   * whole columns (a pass over all orders: reconciliation, restatements). Rows written in this run
   * already hold their cells and are not read; nothing to read, no call. A table whose start read
   * took only the parent's key (schema.parentKey) has the rows of the named parents read whole
   * (index columns), or every row without parents.
   */
  completeIndex(
    ...tables: ReadonlyArray<{ schema: TableSchema; keys?: Iterable<string>; parents?: Iterable<string> }>
  ): void {
    if (!this.loadFromRowIndex(tables)) this.readWhole('unreadable');
    const plans = tables
      .map(({ schema, keys, parents }) => this.planCompletion(schema, keys, parents))
      .filter((p) => p !== null);
    const got = this.readRanges(plans.flatMap((p) => p.ranges));
    let at = 0;
    let wrong = false;
    for (const plan of plans) {
      if (!plan.apply(got.slice(at, at + plan.ranges.length))) wrong = true;
      at += plan.ranges.length;
    }
    if (!wrong) return;
    // A row the index points to holds another key (sorted, moved, cleared): read whole, then again.
    this.readWhole('mismatch');
    this.completeIndex(...tables);
  }

  /**
   * For sparse Orders and Line items: the named orders' rows from the row index's buckets; a pass
   * over every order reads the key columns whole instead. False when a bucket could not be read.
   */
  private loadFromRowIndex(
    tables: ReadonlyArray<{ schema: TableSchema; keys?: Iterable<string>; parents?: Iterable<string> }>,
  ): boolean {
    const ids: string[] = [];
    for (const { schema, keys, parents } of tables) {
      if (schema.sheetName !== ORDERS.sheetName && schema.sheetName !== LINE_ITEMS.sheetName) continue;
      if (!this.index(schema).isSparse) continue;
      const named = schema.sheetName === ORDERS.sheetName ? keys : parents;
      if (named === undefined && keys === undefined) {
        this.readWhole(null);
        return true;
      }
      if (named) for (const id of named) ids.push(id);
    }
    if (ids.length === 0) return true;
    const orders = this.index(ORDERS);
    const lines = this.index(LINE_ITEMS);
    if (!orders.isSparse || !lines.isSparse) return true;
    return this.rowIndex.load(ids, orders, lines);
  }

  private planCompletion(
    schema: TableSchema,
    keys: Iterable<string> | undefined,
    parents: Iterable<string> | undefined,
  ): CompletionPlan | null {
    const opened = this.tables.sheetFor(schema);
    const keyRead = opened.schema.keyReadColumns;
    if (keyRead === undefined || opened.created) return null;
    const index = this.index(schema);
    return planCompletion({ opened, schema, index, keyRead }, keys, parents, this.along);
  }

  /**
   * The managed columns of a table from row 2 down to its last row with content, in ONE
   * Values.get (unformatted; dates as serial numbers). Empty when the sheet does not exist yet.
   */
  readTable(schema: TableSchema): unknown[][] {
    const located = this.snapshot.locate(schema);
    if (!located && !this.tables.isOpen(schema)) return [];
    const opened = this.tables.sheetFor(schema);
    if (opened.rows)
      return this.withDeferred(
        schema,
        opened.rows.map((r) => (r ? r.slice() : [])),
      );
    // The whole grid: the API leaves out trailing empty rows, and rows written in this run are in it.
    if (opened.maxRows < 2) return [];
    const id = this.snapshot.id();
    const range = a1Range(opened.name, 2, 1, opened.maxRows, opened.schema.columns.length);
    const got = sheetsRequest('read', () =>
      valuesService().get(id, range, { valueRenderOption: 'UNFORMATTED_VALUE', dateTimeRenderOption: 'SERIAL_NUMBER' }),
    );
    const rows = (got.values ?? []) as unknown[][];
    // Callers read by the catalog's columns, whatever the sheet's layout.
    const map = opened.map;
    // Rows deferred to the run's next write are read as they will stand.
    return this.withDeferred(schema, map ? rows.map((row) => toCatalogRow(map, row)) : rows);
  }

  /**
   * Only the named columns of a table, row 2 down, at their catalog positions (other cells empty),
   * in ONE Values.batchGetByDataFilter of the runs of adjacent columns: the tie-out needs 13 of Orders' 54.
   */
  readColumns(table: TableSchema, headers: readonly string[]): unknown[][] {
    const located = this.snapshot.locate(table);
    if (!located && !this.tables.isOpen(table)) return [];
    const opened = this.tables.sheetFor(table);
    if (opened.maxRows < 2) return [];
    const { runs, catalogAt } = columnRuns(opened, table, headers);
    const got = this.readRanges(
      runs.map((run) => a1Range(opened.name, 2, run[0], opened.maxRows, run[run.length - 1])),
    );
    const count = got.reduce((n, values) => Math.max(n, values.length), 0);
    const rows: unknown[][] = [];
    for (let r = 0; r < count; r++) rows.push(catalogRow(table, runs, catalogAt, (i) => got[i][r] ?? []));
    return rows;
  }

  /**
   * The named columns of some rows of a table (1-based sheet rows), at their catalog positions, in
   * ONE Values.batchGetByDataFilter of one range per row and run of adjacent columns: a few rows, never the sheet.
   */
  readRows(table: TableSchema, sheetRows: readonly number[], headers: readonly string[]): unknown[][] {
    if (sheetRows.length === 0) return [];
    const readAlong = this.along.rowsReadAlong(table, sheetRows, headers);
    if (readAlong) return readAlong;
    const opened = this.tables.sheetFor(table);
    const { runs, catalogAt } = columnRuns(opened, table, headers);
    const got = this.readRanges(
      sheetRows.flatMap((row) => runs.map((run) => a1Range(opened.name, row, run[0], row, run[run.length - 1]))),
    );
    return sheetRows.map((_, r) => catalogRow(table, runs, catalogAt, (i) => got[r * runs.length + i][0] ?? []));
  }

  /**
   * From now on, the index cells a page reads of a table's rows come with these columns, kept
   * until the next write: a readRows of those rows before it (the Orders day sums read a row back
   * before it is overwritten) takes them from there instead of a call of its own.
   */
  readAlong(table: TableSchema, headers: readonly string[]): void {
    this.along.readAlong(table, headers);
  }

  /** After a write: the cells read along no longer stand. */
  forgetRows(): void {
    this.along.forgetRows();
  }

  /**
   * Values of A1 ranges (quoted sheet names), unformatted, in ONE Values.batchGetByDataFilter: a
   * POST, so the rows of a thousand scattered orders fit one request where a batchGet's URL took five.
   */
  readRanges(ranges: readonly string[]): unknown[][][] {
    if (ranges.length === 0) return [];
    const id = this.snapshot.id();
    const got = batchGetByFilters(
      (request, sheet) => valuesService().batchGetByDataFilter(request, sheet),
      (sheet, options) => valuesService().batchGet(sheet, options),
      id,
      ranges,
      {
        valueRenderOption: 'UNFORMATTED_VALUE',
        dateTimeRenderOption: 'SERIAL_NUMBER',
      },
    );
    return got.map((r) => (r.values ?? []) as unknown[][]);
  }
}
