/**
 * Reads of the managed tables: each table's key index (from the run's first read), the index cells
 * that read left out, and whole tables, named columns or named rows, each in ONE Sheets API call,
 * at the catalog's column positions whatever the sheet's layout.
 */
import { a1Range } from './a1';
import { adjacentRuns, readSpans } from './adjacent-runs';
import type { CellValue } from './cells';
import { KeyIndex, type IndexedRow } from './key-index';
import type { OpenSheet } from './open-sheet';
import { toCatalogRow } from './sheet-layout';
import { valuesService } from './sheet-snapshot';
import { sheetsRequest } from './sheets-requests';
import type { TableSheets } from './table-sheets';
import type { WorkbookSnapshot } from './workbook-snapshot';
import { changeSpan, columnIndex, indexColumnPositions } from './column-positions';
import { LINE_ITEMS, ORDERS, type SheetName, type TableSchema } from './schema';
import { ROW_INDEX_METADATA_KEY, type RowIndex } from './row-index';

export class KeyReads {
  /** Columns read with a page's rows for a readRows of the same rows before the next write (readAlong). */
  private readonly along = new Map<SheetName, readonly string[]>();
  /** Sheet cells (by sheet column) of rows read along with their index cells, until the next write. */
  private readonly rowCells = new Map<SheetName, Map<number, Map<number, unknown>>>();

  constructor(
    private readonly timeZone: string,
    private readonly snapshot: WorkbookSnapshot,
    private readonly tables: TableSheets,
    /** Whole rows as they stand once this run's deferred writes of the table are sent. */
    private readonly withDeferred: (schema: TableSchema, rows: unknown[][]) => unknown[][],
    private readonly rowIndex: RowIndex,
  ) {
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
      create: (title, rows) => this.tables.createHidden(title, rows, ROW_INDEX_METADATA_KEY),
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
   * columns and the change columns), for every table asked, in ONE Values.batchGet: for named keys,
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
  ): { ranges: string[]; apply: (got: unknown[][][]) => boolean } | null {
    const opened = this.tables.sheetFor(schema);
    const keyRead = opened.schema.keyReadColumns;
    if (keyRead === undefined || opened.created) return null;
    const index = this.index(schema);
    const lazy = opened.schema.parentKey !== undefined;
    // Rows the row index points to are read with their key cells (the parent's, for a lazy table):
    // a row sorted, moved or cleared since is found out before anything is written there.
    const verify = index.isSparse;
    // A lazy table's pending rows are read from the key on; the others' partial rows past the key-read columns.
    const first = lazy || verify ? 0 : keyRead;
    const width = indexWidth(opened.schema);
    const partial = new Map<IndexedRow, string>();
    let rows: number[];
    let pending: ReadonlyMap<number, string> = new Map();
    if (lazy) {
      pending = index.takePending(keys !== undefined || parents !== undefined ? (parents ?? []) : null, opened.maxRows);
      rows = [...pending.keys()];
    } else {
      if (keys) {
        for (const key of keys) {
          const entry = index.get(key);
          if (entry && entry.cells.length < width) partial.set(entry, key);
        }
      } else for (const [key, entry] of index.entries()) if (entry.cells.length < width) partial.set(entry, key);
      rows = [...partial.keys()].map((e) => e.row);
    }
    if (rows.length === 0) return null;
    const span = changeSpan(opened.schema);
    const columns: number[] = [];
    // The parent's key of a pending row was read at the start: not read again.
    const parentColumn = opened.schema.parentKey?.column;
    // Each index column where the sheet holds it (found by header: a layout may place it anywhere).
    const positions = indexColumnPositions(opened.schema);
    for (let c = first; c < opened.schema.indexColumns; c++)
      if (c !== parentColumn || verify) columns.push(positions[c] + 1);
    if (span) for (let c = span.start + 1; c <= span.end; c++) columns.push(c);
    // Columns a readRows of these rows will ask for before the next write (readAlong): read now, in this call.
    const named = keys !== undefined || parents !== undefined;
    const along = named && !lazy ? this.alongColumns(opened, schema, columns) : [];
    // One range per run of adjacent rows and span of columns, across column gaps cheaper to read
    // than a range per row (what a page reads then depends on its rows alone, not the sheet's size).
    const columnSpans = readSpans(
      [...columns, ...along].sort((a, b) => a - b),
      named ? 1 : opened.maxRows,
    );
    const rowSpans: Array<[number, number]> = named
      ? adjacentRuns(rows).map((run) => [run[0], run[run.length - 1]])
      : [[2, Math.max(2, opened.maxRows)]];
    const ranges: string[] = [];
    for (const [top, bottom] of rowSpans)
      for (const [left, right] of columnSpans) ranges.push(a1Range(opened.name, top, left, bottom, right));
    // Where each index column is in what is read: its span, and its place in the span.
    const placeOf = (column: number): { c: number; k: number } => {
      const c = columnSpans.findIndex(([left, right]) => column >= left && column <= right);
      return { c, k: column - columnSpans[c][0] };
    };
    const at = columns.map(placeOf);
    const apply = (got: unknown[][][]): boolean => {
      const byRow = new Map<number, CellValue[]>();
      rowSpans.forEach(([top, bottom], r) => {
        const spans = columnSpans.map((_, c) => got[r * columnSpans.length + c]);
        for (let row = top; row <= bottom; row++)
          byRow.set(
            row,
            at.map(({ c, k }) => cellOf(spans[c][row - top]?.[k])),
          );
      });
      if (lazy) {
        if (verify) for (const [row, parent] of pending) if (byRow.get(row)?.[parentColumn!] !== parent) return false;
        for (const [row, parent] of pending) {
          const cells = byRow.get(row) ?? columns.map(() => '');
          if (!verify) cells.splice(parentColumn!, 0, parent);
          index.adopt(row, cells);
        }
        return true;
      }
      if (verify) for (const [entry, key] of partial) if (byRow.get(entry.row)?.[0] !== key) return false;
      if (along.length > 0)
        this.keepAlong(
          schema,
          rowSpans,
          columnSpans,
          got,
          [...columns, ...along].map((c) => [c, placeOf(c)] as const),
        );
      for (const [entry] of partial) {
        const keyCells = entry.cells.slice(0, first);
        while (keyCells.length < first) keyCells.push('');
        entry.cells = keyCells.concat(byRow.get(entry.row) ?? columns.map(() => ''));
        index.verified(entry);
      }
      return true;
    };
    return { ranges, apply };
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
    return map ? rows.map((row) => toCatalogRow(map, row)) : rows;
  }

  /**
   * Only the named columns of a table, row 2 down, at their catalog positions (other cells empty),
   * in ONE Values.batchGet of the runs of adjacent columns: the tie-out needs 13 of Orders' 54.
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
   * ONE Values.batchGet of one range per row and run of adjacent columns: a few rows, never the sheet.
   */
  readRows(table: TableSchema, sheetRows: readonly number[], headers: readonly string[]): unknown[][] {
    if (sheetRows.length === 0) return [];
    const readAlong = this.rowsReadAlong(table, sheetRows, headers);
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
    this.along.set(table.sheetName, headers);
  }

  /** After a write: the cells read along no longer stand. */
  forgetRows(): void {
    this.rowCells.clear();
  }

  /** The named columns of the rows, when every one was read along since the last write; else null. */
  private rowsReadAlong(
    table: TableSchema,
    sheetRows: readonly number[],
    headers: readonly string[],
  ): unknown[][] | null {
    const held = this.rowCells.get(table.sheetName);
    if (!held) return null;
    const { runs, catalogAt } = columnRuns(this.tables.sheetFor(table), table, headers);
    const columns = [...catalogAt.keys()];
    if (!sheetRows.every((row) => columns.every((c) => held.get(row)?.has(c)))) return null;
    return sheetRows.map((row) => catalogRow(table, runs, catalogAt, (i) => runs[i].map((c) => held.get(row)!.get(c))));
  }

  /** Sheet columns of the table's read-along headers that the index cells do not cover. */
  private alongColumns(opened: OpenSheet, schema: TableSchema, columns: readonly number[]): number[] {
    const headers = this.along.get(schema.sheetName);
    if (!headers) return [];
    const taken = new Set(columns);
    return [...columnRuns(opened, schema, headers).catalogAt.keys()].filter((c) => !taken.has(c));
  }

  private keepAlong(
    schema: TableSchema,
    rowSpans: ReadonlyArray<[number, number]>,
    columnSpans: ReadonlyArray<[number, number]>,
    got: unknown[][][],
    places: ReadonlyArray<readonly [number, { c: number; k: number }]>,
  ): void {
    let held = this.rowCells.get(schema.sheetName);
    if (!held) this.rowCells.set(schema.sheetName, (held = new Map()));
    rowSpans.forEach(([top, bottom], r) => {
      for (let row = top; row <= bottom; row++) {
        const cells = new Map<number, unknown>();
        for (const [column, { c, k }] of places)
          cells.set(column, got[r * columnSpans.length + c][row - top]?.[k] ?? '');
        held.set(row, cells);
      }
    });
  }

  /** Values of A1 ranges (quoted sheet names), unformatted, in ONE Values.batchGet. */
  readRanges(ranges: readonly string[]): unknown[][][] {
    if (ranges.length === 0) return [];
    const id = this.snapshot.id();
    const got = sheetsRequest('read', () =>
      valuesService().batchGet(id, {
        ranges: ranges.slice(),
        valueRenderOption: 'UNFORMATTED_VALUE',
        dateTimeRenderOption: 'SERIAL_NUMBER',
      }),
    );
    return ranges.map((_, i) => (got.valueRanges?.[i]?.values ?? []) as unknown[][]);
  }
}

/** The sheet columns of the named catalog columns, grouped into runs of adjacent ones. */
function columnRuns(
  opened: OpenSheet,
  table: TableSchema,
  headers: readonly string[],
): { runs: number[][]; catalogAt: Map<number, number> } {
  const catalogAt = new Map<number, number>();
  for (const header of headers) {
    const position = columnIndex(table, header);
    const column = opened.map ? opened.map[position] : position + 1;
    if (column > 0) catalogAt.set(column, position);
  }
  return { runs: adjacentRuns([...catalogAt.keys()]), catalogAt };
}

/** One row at catalog positions (other cells empty) from the values read for each run. */
function catalogRow(
  table: TableSchema,
  runs: readonly number[][],
  catalogAt: ReadonlyMap<number, number>,
  valuesOf: (run: number) => readonly unknown[],
): unknown[] {
  const row: unknown[] = new Array<unknown>(table.columns.length).fill('');
  runs.forEach((run, i) => {
    const values = valuesOf(i);
    run.forEach((column, k) => {
      row[catalogAt.get(column)!] = values[k] ?? '';
    });
  });
  return row;
}

/** Cells the key index keeps of a row: its index columns, then its change columns (indexCellsOf). */
function indexWidth(schema: TableSchema): number {
  const span = changeSpan(schema);
  return schema.indexColumns + (span ? span.end - span.start : 0);
}

/** A value as read UNFORMATTED (the API leaves out trailing empty cells). */
function cellOf(value: unknown): CellValue {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return value === null || value === undefined ? '' : String(value);
}
