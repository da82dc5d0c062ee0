/**
 * The order number → id index of one run (order-number-buckets): column B of the hidden row index
 * sheet, read whole with the run's first read (1,025 cells, no call of its own), an entry added for
 * every order the run's pages list whose number it lacks, and the buckets so changed written with
 * the rows (ahead of them, in requests of their own, when the write passes 2 MB: ahead-writes). Kept at every store size: a formula
 * reads it whatever the row index does. An order renumbered at the store leaves its old number
 * (an entry per order, not per number met). Built from the Orders id and order_number columns read
 * whole (ONE call) only when the column is not one it can trust: an index sheet made before it
 * existed or cut short by a user (its grid grown back first: row-index sheetTitle), a cleared
 * stamp, a cell that is not its bucket's (sorted, moved, cleared, typed over); an Orders sheet
 * made afresh starts it empty.
 */
import { a1Range } from './a1';
import { BUCKET_MAX_CHARS, BUCKETS, ROW_INDEX_METADATA_KEY, bucketRow } from './row-index-buckets';
import {
  NUMBER_COLUMN,
  type NumberEntries,
  formatNumbers,
  formatNumberStamp,
  isListable,
  isNumberStamp,
  numberBucket,
  numberKey,
  parseNumbers,
} from './order-number-buckets';
import { readSpans } from './adjacent-runs';
import { aheadParts } from './ahead-writes';
import type { RangeWrite, RowWrite } from './row-writes';
import type { SheetInfo } from './sheet-snapshot';
import type { WorkbookSnapshot } from './workbook-snapshot';

/** What the number index needs of the run's sheets. */
export interface NumberIndexSheets {
  /** Whether this run opened Orders: only such a run lists orders or may build the index. */
  ordersOpen(): boolean;
  /** The index sheet's title, its creation queued when there is none, its grid grown when short. */
  title(): string;
  /** Every Orders row's id and order_number, read whole in ONE call. */
  readNumbers(): Array<[unknown, unknown]>;
}

const NUMBERS_REBUILT_NOTE =
  'A cell of the order number index (the hidden row index sheet’s column B) was changed by hand; it was built again from the Orders sheet.';

export class OrderNumberIndex {
  /** Every bucket as read whole or built; null while not known to be the index's. */
  private buckets: Map<number, NumberEntries> | null = null;
  /** The number each order id is listed under in `buckets`. */
  private readonly listedAs = new Map<string, string>();
  private readonly touched = new Set<number>();
  /** Every bucket goes with the next write (built, or begun afresh): an empty bucket too is a cell that names it. */
  private whole = false;
  /** The stamp goes with the next write (the column built or begun afresh). */
  private stampDue = false;
  /** Each order's number as the run's pages listed it ('' for none): applied to a build that comes later. */
  private readonly learned = new Map<string, string>();
  /** The sheet's stamp as this run last left it: valid (found so at the start, or written). */
  private stampOnSheet = false;
  /** A bucket past a cell's size: the stamp is cleared and the index no longer kept. */
  private givenUp = false;
  private sheets: NumberIndexSheets | null = null;
  private note: string | null = null;

  constructor(private readonly snapshot: WorkbookSnapshot) {}

  attach(sheets: NumberIndexSheets): void {
    this.sheets = sheets;
  }

  /** The stamp and buckets' range, read with the run's first read; null when there is no index sheet to read it in. */
  startRange(): string | null {
    const found = this.indexSheet();
    if (!found) return null;
    if (found.columns < NUMBER_COLUMN || found.rows < BUCKETS + 1) return null;
    return a1Range(found.title, 1, NUMBER_COLUMN, BUCKETS + 1, NUMBER_COLUMN);
  }

  private indexSheet(): SheetInfo | undefined {
    return this.snapshot.sheetInfos().find((s) => s.tags.some((t) => t.key === ROW_INDEX_METADATA_KEY));
  }

  /** The column as the first read found it (stamp first): trusted when stamped and every cell is its own bucket's. */
  begin(values: unknown[][] | undefined): void {
    this.stampOnSheet = isNumberStamp(values?.[0]?.[0]);
    if (this.stampDue || !this.stampOnSheet) return;
    const buckets = new Map<number, NumberEntries>();
    const listed = new Map<string, string>();
    for (let b = 0; b < BUCKETS; b++) {
      const parsed = parseNumbers(values?.[bucketRow(b) - 1]?.[0], b);
      if (parsed === null) return this.foundDamaged();
      for (const [key, ids] of parsed)
        for (const id of ids) {
          // An order under two numbers is no index this add-on wrote.
          if (listed.has(id)) return this.foundDamaged();
          listed.set(id, key);
        }
      buckets.set(b, parsed);
    }
    this.buckets = buckets;
    for (const [id, key] of listed) this.listedAs.set(id, key);
    this.applyLearned();
  }

  /** A stamped column with a cell the index did not write: built again from Orders, said in the Sync log. */
  private foundDamaged(): void {
    this.note = NUMBERS_REBUILT_NOTE;
  }

  /** The Sync log's note on the column (once): found changed by hand, built again with the orders job's closing write. */
  takeNote(): string | null {
    const note = this.note;
    this.note = null;
    return note;
  }

  /**
   * The Orders sheet is made afresh: no entry of an earlier one stands (another store's, maybe), so
   * the column is written whole, from no entry: the buckets no order falls in are written too (an
   * empty cell is damage to a later run), ~400 cells more at 1,000 orders, none from ~7,000.
   */
  afresh(): void {
    this.buckets = new Map();
    this.listedAs.clear();
    this.whole = true;
    this.stampDue = true;
    this.applyLearned();
  }

  /** Orders as a page lists them: each keeps an entry of its number. */
  learn(orders: Iterable<unknown>): void {
    for (const order of orders) {
      if (order === null || typeof order !== 'object') continue;
      const { id, order_number: number } = order as { id?: unknown; order_number?: unknown };
      if (typeof id !== 'string' || id === '') continue;
      const key = numberKey(number);
      this.learned.set(id, key);
      this.list(id, key);
    }
  }

  private applyLearned(): void {
    for (const [id, key] of this.learned) this.list(id, key);
  }

  /** The order listed under `key` alone ('' or a number too long: under none): its entry under an earlier number goes. */
  private list(id: string, key: string): void {
    if (this.buckets === null) return;
    const was = this.listedAs.get(id);
    if (was === key) return;
    if (was !== undefined) this.unlist(id, was);
    if (!isListable(key)) return;
    const { bucket } = numberBucket(key);
    let held = this.buckets.get(bucket);
    if (!held) this.buckets.set(bucket, (held = new Map()));
    held.set(key, [...(held.get(key) ?? []), id]);
    this.listedAs.set(id, key);
    this.touched.add(bucket);
  }

  private unlist(id: string, key: string): void {
    const { bucket } = numberBucket(key);
    const held = this.buckets!.get(bucket)!;
    const left = held.get(key)!.filter((other) => other !== id);
    if (left.length > 0) held.set(key, left);
    else held.delete(key);
    this.listedAs.delete(id);
    this.touched.add(bucket);
  }

  /**
   * The number cells to send with a write of the run's rows: with the execution's closing write
   * (`closing`), the buckets changed, in spans across gaps cheaper to write again than a range of
   * their own (~0.7 ms a range, ~10 µs a cell, apps-script-cost-model.md: every bucket is held, so a
   * gap is written as it stands), or all of them with the stamp. An earlier write that adds orders
   * only clears the stamp: a backfill's writes do not each carry the growing buckets again, and an
   * execution ended before its closing write leaves an index the next run rebuilds, never one that
   * lacks orders written meanwhile.
   */
  writes(closing: boolean): RangeWrite[] {
    const sheets = this.sheets;
    if (!sheets || this.givenUp || !sheets.ordersOpen()) return [];
    if (!closing) {
      if (!this.stampOnSheet || (this.buckets !== null && this.touched.size === 0 && !this.whole)) return [];
      this.stampOnSheet = false;
      this.stampDue = true;
      return [{ range: a1Range(sheets.title(), 1, NUMBER_COLUMN, 1, NUMBER_COLUMN), values: [['']] }];
    }
    if (this.buckets === null) this.build(sheets.readNumbers());
    if (!this.whole && !this.stampDue && this.touched.size === 0) return [];
    const title = sheets.title();
    const spans: Array<[number, number]> = this.whole
      ? [[bucketRow(0), bucketRow(BUCKETS - 1)]]
      : readSpans([...this.touched].map(bucketRow), 1);
    const rows: RowWrite[] = [];
    for (const [top, bottom] of spans)
      for (let row = top; row <= bottom; row++) {
        const text = formatNumbers(row - 2, this.buckets!.get(row - 2) ?? new Map());
        if (text.length > BUCKET_MAX_CHARS) return this.giveUp(title);
        rows.push({ row, column: NUMBER_COLUMN, cells: [text] });
      }
    // Entries are order facts, not row positions: they may go ahead of the rows when the write
    // passes 2 MB (a large store's whole column is ~2.3 MB at 100,000 orders).
    const out = aheadParts(title, rows);
    if (this.stampDue)
      out.push({ range: a1Range(title, 1, NUMBER_COLUMN, 1, NUMBER_COLUMN), values: [[formatNumberStamp()]] });
    this.whole = false;
    this.stampOnSheet ||= this.stampDue;
    this.stampDue = false;
    this.touched.clear();
    return out;
  }

  /** From the Orders columns read whole, with what the run's pages listed over them. */
  private build(pairs: Array<[unknown, unknown]>): void {
    this.buckets = new Map();
    this.listedAs.clear();
    this.whole = true;
    this.stampDue = true;
    for (const [id, number] of pairs) if (typeof id === 'string' && id !== '') this.list(id, numberKey(number));
    this.applyLearned();
  }

  private giveUp(title: string): RangeWrite[] {
    this.givenUp = true;
    return [{ range: a1Range(title, 1, NUMBER_COLUMN, 1, NUMBER_COLUMN), values: [['']] }];
  }
}
