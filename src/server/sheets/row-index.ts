/**
 * The order id → rows index of one run: the hidden "Row index" sheet (row-index-buckets), so the
 * hourly run finds the rows a page changes without reading the key columns whole. Read: the stamp
 * with the run's first read, then per page the buckets its ids fall in. Trusted only as far as
 * checked: the stamp must match both sheets' grids, each bucket cell read must be its bucket's
 * (bucket-tags: the stamp lists the empty ones), and every row it points to is read with its key
 * cell before a write there (key-reads); else the key columns are read whole and the index written
 * again. Written with the rows (a large store's ahead of them, the stamp cleared until the rows'
 * request sets it: ahead-writes). Column B holds the order number index (order-number-index).
 */
import { a1Range } from './a1';
import { aheadParts } from './ahead-writes';
import { groups } from './bucket-groups';
import type { KeyIndex } from './key-index';
import {
  allBucketRows,
  BUCKET_MAX_CHARS,
  ROW_INDEX_METADATA_KEY,
  ROW_INDEX_MIN_ROWS,
  BUCKETS,
  bucketOf,
  bucketReadSpans,
  bucketRow,
  formatBucket,
  formatStamp,
  parseBucket,
  parseStamp,
  type OrderRows,
  type RowIndexStamp,
} from './row-index-buckets';
import { fitIndexSheet, freeTitle, rebuildNote, type RowIndexSheets } from './row-index-sheet';
import { formatEmpty, parseEmpty } from './bucket-tags';
import { OrderNumberIndex } from './order-number-index';
import type { RangeWrite, RowWrite } from './row-writes';
import type { SheetInfo } from './sheet-snapshot';
import type { WorkbookSnapshot } from './workbook-snapshot';

export { ROW_INDEX_METADATA_KEY };

export class RowIndex {
  private stamp: RowIndexStamp | null = null;
  /** The buckets without orders as the stamp lists them, kept as the run fills them: the only buckets whose cells are empty. */
  private empty = new Set<number>();
  /** The index sheet's title once looked up (title), or as this run creates it. */
  private found: { title: string | null } | null = null;
  /** Buckets as read, in a sparse run: the ones the pages touched. */
  private buckets = new Map<number, Map<string, OrderRows>>();
  private whole = false;
  /** Every bucket goes with the next write (no index yet, or one found wrong). */
  private rebuild = false;
  /** Buckets changed since the last write (a whole run, which writes every bucket: 0 for any new row, no hash a row). */
  private readonly touched = new Set<number>();
  /** Order ids whose bucket entry this run has loaded into the key indexes. */
  private readonly loadedIds = new Set<string>();
  private note: string | null = null;
  /** The index cannot hold this store (a bucket past a cell's size): given up, the key columns read whole. */
  private givenUp = false;
  private stampWritten: string | null = null;

  constructor(
    private readonly snapshot: WorkbookSnapshot,
    /** The order number → id index, in the same hidden sheet's column B. */
    readonly numbers = new OrderNumberIndex(snapshot),
    private sheets: RowIndexSheets | null = null,
  ) {}

  /** The index sheet's title, looked up at first use: the run's start may still tell the snapshot the spreadsheet is new. */
  private get title(): string | null {
    return (this.found ??= { title: this.located()?.title ?? null }).title;
  }

  attach(sheets: RowIndexSheets): void {
    this.sheets = sheets;
  }

  private located(): SheetInfo | null {
    return this.snapshot.sheetInfos().find((s) => s.tags.some((t) => t.key === ROW_INDEX_METADATA_KEY)) ?? null;
  }

  /** The stamp's range, when the index sheet exists: read with the run's first read instead of the key columns. */
  stampRange(): string | null {
    const found = this.located();
    return found && found.rows >= BUCKETS + 1 ? a1Range(found.title, 1, 1, 1, 1) : null;
  }

  /**
   * The stamp as the first read found it, against both sheets' grids as the snapshot lists them:
   * true when the run may find rows by the index (sparse key indexes).
   */
  begin(stampValues: unknown[][] | undefined, orders: SheetInfo, lines: SheetInfo): boolean {
    const stamp = parseStamp(stampValues?.[0]?.[0]);
    this.stampWritten = stampValues?.[0]?.[0] === undefined ? null : String(stampValues[0][0]);
    if (
      stamp === null ||
      stamp.buckets !== BUCKETS ||
      stamp.ordersGridRows !== orders.rows ||
      stamp.linesGridRows !== lines.rows
    ) {
      // Rows inserted or deleted, or an index never finished: read whole, rebuild.
      this.goneWhole(stamp === null ? null : 'moved');
      this.rebuild = true;
      return false;
    }
    this.stamp = stamp;
    this.empty = parseEmpty(stamp.empty, BUCKETS)!;
    return true;
  }

  /** Counts of the stamp a sparse key index starts from. */
  counts(): { orders: number; lines: number; lastOrderRow: number } {
    const s = this.stamp!;
    return { orders: s.orders, lines: s.lines, lastOrderRow: s.lastOrderRow };
  }

  /** The run reads the key columns whole from now on (`why`: the index was found wrong, and the Sync log says so). */
  goneWhole(why: 'moved' | 'mismatch' | 'unreadable' | null): void {
    this.buckets = new Map();
    this.whole = true;
    if (why !== null) {
      this.rebuild = true;
      this.note ??= rebuildNote(why);
    }
  }

  /** A run without an index sheet, or whose sheets were made afresh: the index is written whole with the first write. */
  needsRebuild(): void {
    this.rebuild = true;
  }

  /** The Sync log's note on the index and on the number index beside it (once). */
  takeNote(): string | null {
    const notes = [this.note, this.numbers.takeNote()].filter((n) => n !== null);
    this.note = null;
    return notes.length === 0 ? null : notes.join(' ');
  }

  /**
   * The rows of these orders, from their buckets (ONE Values.batchGetByDataFilter of the buckets not read yet),
   * loaded into the sparse key indexes; ids loaded before are left alone. False when a bucket is
   * not one the index wrote: the caller reads the key columns whole.
   */
  load(ids: Iterable<string>, orders: KeyIndex, lines: KeyIndex): boolean {
    const fresh = [...new Set(ids)].filter((id) => !this.loadedIds.has(id));
    if (fresh.length === 0) return true;
    const wanted = [...new Set(fresh.map((id) => bucketOf(id, BUCKETS)))].filter((b) => !this.buckets.has(b));
    if (wanted.length > 0) {
      const spans = bucketReadSpans(wanted);
      const got = this.sheets!.read(spans.map(([top, bottom]) => a1Range(this.title!, top, 1, bottom, 1)));
      for (let s = 0; s < spans.length; s++) {
        for (let row = spans[s][0]; row <= spans[s][1]; row++) {
          const parsed = parseBucket(got[s]?.[row - spans[s][0]]?.[0], row - 2);
          if (parsed === null || (parsed.size === 0) !== this.empty.has(row - 2)) return false;
          // A bucket held already may carry this run's rows not written yet: kept as it is.
          if (!this.buckets.has(row - 2)) this.buckets.set(row - 2, parsed);
        }
      }
    }
    for (const id of fresh) {
      this.loadedIds.add(id);
      const rows = this.buckets.get(bucketOf(id, BUCKETS))!.get(id);
      if (rows && rows.order > 0) orders.load(id, rows.order);
      else orders.markAbsent(id);
      if (rows && rows.lines.length > 0) lines.addPending(id, rows.lines);
    }
    return true;
  }

  /** Told of every row the key indexes put: a new row changes its order's bucket. */
  watch(orders: KeyIndex, lines: KeyIndex): void {
    orders.onPut((id, entry, inserted) => {
      if (inserted) this.place(id, (rows) => (rows.order = entry.row));
    });
    lines.onPut((_, entry, inserted) => {
      const parent = String(entry.cells[1] ?? '');
      if (inserted && parent !== '')
        this.place(parent, (rows) => {
          if (!rows.lines.includes(entry.row)) rows.lines.push(entry.row);
        });
    });
  }

  private place(id: string, change: (rows: OrderRows) => void): void {
    const bucket = this.whole ? 0 : bucketOf(id, BUCKETS);
    this.touched.add(bucket);
    if (this.whole) return;
    const held = this.buckets.get(bucket);
    if (!held) {
      // A bucket not read in a sparse run: the index is written whole (from whole key columns) instead.
      this.rebuild = true;
      return;
    }
    let rows = held.get(id);
    if (!rows) held.set(id, (rows = { order: 0, lines: [] }));
    this.empty.delete(bucket);
    change(rows);
  }

  /** Creates the index sheet now (with the run's set-ups, in their batchUpdate) when it has none and will write it. */
  ensureSheet(): void {
    if (this.title === null && this.rebuild && this.sheets) this.sheetTitle();
  }

  /** The index sheet's title, its creation queued (with the run's set-ups) when it has none, its grid grown when short. */
  sheetTitle(): string {
    if (this.title === null) {
      this.found = { title: freeTitle(this.snapshot) };
      this.sheets?.create(this.found.title!, BUCKETS + 1);
    } else if (this.sheets) fitIndexSheet(this.located(), this.sheets);
    return this.title!;
  }

  /** The Orders sheet is being made: the index is written afresh, its sheet made with the set-up when missing. */
  sheetWithSetUp(): void {
    this.rebuild = true;
    this.numbers.afresh();
    this.ensureSheet();
  }

  /**
   * The index cells to send with a write of the run's rows (Values.batchUpdate data). A sparse run
   * sends the buckets its new rows changed and the stamp. A run that read the key columns whole
   * sends the stamp cleared with its first write of new rows (no later run trusts the buckets
   * meanwhile) and every bucket, in one range, with its Sync log row (`closing`; the opening one
   * too when the index was already found wrong): one write an execution, not one a page.
   * Nothing when the run has not opened both tables.
   */
  writes(closing: boolean): RangeWrite[] {
    const sheets = this.sheets;
    const indexes = sheets?.indexes() ?? null;
    if (!sheets || !indexes || this.givenUp) return [];
    if (!this.whole && this.rebuild) sheets.readWhole();
    if (!this.whole) return this.sparseWrites(indexes.orders, indexes.lines);
    if (this.touched.size > 0) {
      this.touched.clear();
      this.rebuild = true;
    }
    if (!this.rebuild) return [];
    if (!closing) return this.stampCleared();
    // A small store reads its key columns whole: the index stays cleared until it grows.
    const grid = sheets.gridRows();
    if (grid.orders + grid.lines < ROW_INDEX_MIN_ROWS) return [];
    this.rebuild = false;
    const buckets = groups(indexes.orders, indexes.lines);
    const cells = allBucketRows(buckets);
    if (cells === null) return this.giveUp();
    this.empty = new Set(cells.filter((c) => c.cells[0] === '').map((c) => c.row - 2));
    const title = this.sheetTitle();
    return [
      ...this.stampCleared('clear'),
      ...aheadParts(title, cells),
      ...this.stampWrite(indexes.orders, indexes.lines),
    ];
  }

  private sparseWrites(orders: KeyIndex, lines: KeyIndex): RangeWrite[] {
    if (this.touched.size === 0) return [];
    const rows: RowWrite[] = [];
    for (const b of this.touched) {
      const text = formatBucket(b, this.buckets.get(b) ?? new Map());
      if (text.length > BUCKET_MAX_CHARS) return this.giveUp();
      rows.push({ row: bucketRow(b), column: 1, cells: [text] });
    }
    this.touched.clear();
    const buckets = aheadParts(this.title!, rows);
    return [...this.stampCleared('clear'), ...buckets, ...this.stampWrite(orders, lines)];
  }

  /** The stamp as the sheets stand once this write is applied (after its grid growth); nothing when unchanged. */
  private stampWrite(orders: KeyIndex, lines: KeyIndex): RangeWrite[] {
    const grid = this.sheets!.gridRows();
    const stamp: RowIndexStamp = {
      v: 3,
      buckets: BUCKETS,
      ordersGridRows: grid.orders,
      linesGridRows: grid.lines,
      orders: orders.size,
      lines: lines.size,
      lastOrderRow: orders.lastKeyedRow(),
      empty: formatEmpty(this.empty, BUCKETS),
    };
    const text = formatStamp(stamp);
    if (text === this.stampWritten) return [];
    this.stampWritten = text;
    return [{ range: a1Range(this.title!, 1, 1, 1, 1), values: [[text]] }];
  }

  /** Clears the stamp: no later run trusts buckets this one could not keep. */
  private giveUp(): RangeWrite[] {
    this.givenUp = true;
    return this.stampCleared();
  }

  /** The stamp cleared, once; marked 'clear' before buckets that may go ahead of the rows (ahead-writes.ts). */
  private stampCleared(ahead?: 'clear'): RangeWrite[] {
    if (this.title === null || this.stampWritten === '') return [];
    this.stampWritten = '';
    return [{ range: a1Range(this.title, 1, 1, 1, 1), values: [['']], ...(ahead ? { ahead } : {}) }];
  }
}
