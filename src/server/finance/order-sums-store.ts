/**
 * The Orders day sums kept between runs in document properties, and kept up
 * to date by the run that writes Orders: before each Orders write goes out, the rows it overwrites
 * are taken out of their days (read back in ONE batchGet, only rows that held data when the run
 * began and were not written in it) and the new rows added. The sums are trusted only while every
 * write since the last read of the whole sheet was counted: the first write of a run marks them
 * unsaved until the run saves them again, a write that touches their columns other than as a
 * whole row (gone marks, a column filled), a sheet set up afresh, another number of keyed rows
 * (rows the user deleted), another store currency or other columns held, all send the next
 * tie-out back to a read of the whole sheet, which rebuilds them. Edits a user makes by hand are
 * not writes of the sync: only that read sees them (Checks → Run, and at least once a day).
 * An Orders sheet this run creates (or that does not exist yet) holds nothing but this run's
 * writes: its sums start empty and are proven by those writes alone, so its tie-out (a backfill's
 * Sync now) need not read back what it wrote; a later run reads the sheet as above.
 */
import { checkPropertySize } from '../platform/property-size';
import type { RowWrite } from '../sheets/row-writes';
import type { ManagedWorkbook } from '../sheets/managed-workbook';
import { ORDERS, columnIndex } from '../sheets/schema';
import { OrderDaySums, ORDER_SUM_COLUMNS, ORDER_SUM_SPAN, touchesSums, type DaySums } from './order-day-sums';
import { decodeDaySums, encodeDaySums } from './order-sums-text';

const META_KEY = 'ma.orderSums';
const CHUNK_KEY = 'ma.orderSums.';

interface Stamp {
  /** 2: values by half month (order-sums-text); sums saved otherwise are not read (a tie-out reads the sheet). */
  v: 2;
  valid: boolean;
  currency: string | null;
  /** Keyed Orders rows when saved. */
  rows: number;
  /** The sum columns the Orders sheet holds when saved. */
  held: string;
  /** Each group of values (order-sums-text), in order, with '*' and their number when more than one: '2026-11-01,2026-11-16*2'. */
  parts: string;
  /** When the whole sheet was last read (epoch ms); for proven sums, when the sheet was created empty. */
  fullAt: number;
  /**
   * The sums hold every row of an Orders sheet a sync created, all counted as the sync wrote them
   * (a backfill kept across its executions, keep): its tie-out need not read the sheet back.
   */
  proven?: boolean;
}

/** Sums proven by writes stay so for a day at most: then a tie-out reads the sheet, as for any kept sums. */
const PROVEN_FOR_MS = 86_400_000;

export interface PropertyBag {
  getProperties(): Record<string, string>;
  setProperty(key: string, value: string): unknown;
  setProperties(values: Record<string, string>): unknown;
  deleteProperty(key: string): unknown;
}

/** The property key of a group's `i`th value (order-sums-text). */
const partKey = (group: string, i: number): string => CHUNK_KEY + group + (i === 0 ? '' : `.${i}`);

function decode(all: Readonly<Record<string, string>>, parts: Stamp['parts'], currency: string | null): OrderDaySums {
  const days = new Map<string, DaySums>();
  for (const part of parts === '' ? [] : parts.split(',')) {
    const [group = '', times = '1'] = part.split('*');
    const count = Number(times);
    const values = Array.from({ length: count }, (_, i) => all[partKey(group, i)]);
    if (values.some((v) => v === undefined)) throw new Error('day sums value missing');
    decodeDaySums(group, values as string[], days);
  }
  return new OrderDaySums(days, currency);
}

export class OrderSumsTracker {
  private sums: OrderDaySums | null;
  private readonly written = new Map<number, unknown[]>();
  private marked = false;
  /** The run wrote rows the sums count since they were opened or saved. */
  private changed = false;
  private watching = false;
  /** Catalog positions of the sum columns the sheet does not hold (read empty). */
  private unheld: number[] | null = null;
  /** When the run began with an Orders sheet holding nothing but its own writes (epoch ms), else null. */
  private emptyAt: number | null = null;

  private constructor(
    private readonly properties: PropertyBag,
    private readonly workbook: ManagedWorkbook,
    private readonly currency: string | null,
    sums: OrderDaySums | null,
    private lastRowAtOpen: number,
    private stamp: Stamp | null,
    /** The day sums values as stored (key to value): only a locked run writes them, so its read and its saves tell. */
    private readonly stored: Map<string, string>,
  ) {
    this.sums = sums;
  }

  /**
   * The sums as saved, when they still describe the Orders sheet this run opens; the tracker
   * watches the run's Orders writes from then on. Call before the run's first Orders write.
   */
  static open(
    properties: PropertyBag,
    workbook: ManagedWorkbook,
    currency: string | null,
    readUnderLock?: Readonly<Record<string, string>>,
  ): OrderSumsTracker {
    // The run's whole read under the document lock (only a locked run writes the sums), else a read of its own.
    const all = readUnderLock ?? properties.getProperties();
    let stamp: Stamp | null = null;
    let sums: OrderDaySums | null = null;
    try {
      stamp = JSON.parse(all[META_KEY] ?? 'null') as Stamp | null;
      if (
        stamp &&
        stamp.v === 2 &&
        stamp.valid &&
        stamp.currency === currency &&
        workbook.hasSheet(ORDERS) &&
        stamp.held === heldKey(workbook)
      ) {
        const index = workbook.index(ORDERS);
        if (!workbook.createdThisRun(ORDERS) && index.size === stamp.rows) {
          sums = decode(all, stamp.parts, currency);
        }
      }
    } catch {
      sums = null;
    }
    // Not found, or created in this run: nothing but this run's writes can be in it.
    const fresh = !workbook.hasSheet(ORDERS) || workbook.createdThisRun(ORDERS);
    if (fresh) sums = new OrderDaySums(new Map(), currency);
    const stored = new Map(Object.entries(all).filter(([key]) => key.startsWith(CHUNK_KEY)));
    const tracker = new OrderSumsTracker(properties, workbook, currency, sums, 1, stamp, stored);
    if (fresh) {
      tracker.emptyAt = Date.now();
      tracker.watchWrites();
    } else if (sums) {
      // An earlier execution of the same backfill created the sheet and kept its sums (keep).
      if (stamp?.proven === true && Date.now() - stamp.fullAt < PROVEN_FOR_MS) tracker.emptyAt = stamp.fullAt;
      tracker.watch();
    }
    return tracker;
  }

  /** The sums as the sheet stands after this run's writes, or null when only a read of the whole sheet can tell. */
  current(): OrderDaySums | null {
    return this.sums;
  }

  /** When the whole sheet was last read (epoch ms; for a sheet created in this run, when it was empty), or null. */
  fullAt(): number | null {
    if (this.sums && this.emptyAt !== null) return this.emptyAt;
    return this.sums && this.stamp ? this.stamp.fullAt : null;
  }

  /** True while the sums hold every row of an Orders sheet this run created: no read can tell more. */
  provenByWrites(): boolean {
    return this.sums !== null && this.emptyAt !== null;
  }

  /**
   * At the end of a run that wrote Orders and did not tie out (a backfill's step short of the end):
   * the sums as the sheet stands are saved for the next execution, which goes on counting from them
   * instead of reading the sheet whole at its tie-out. Proven sums stay proven (for a day). Held
   * with the run's state, they go with its last checkpoint; a run killed before it leaves the
   * stored sums marked unsaved (its first write marked them), and the next tie-out reads the sheet.
   */
  keep(): void {
    if (!this.sums || !this.changed) return;
    const fullAt = this.fullAt();
    if (fullAt === null) return;
    this.save(this.sums, fullAt, this.emptyAt !== null);
  }

  /**
   * Saves sums that describe the sheet now, in one property write of the stamp and the values that
   * changed; values no longer used are deleted after it. `proven`: see Stamp.proven (a tie-out's save ends it).
   */
  save(sums: OrderDaySums, fullAt: number, proven = false): void {
    const groups = encodeDaySums(sums.days);
    const stamp: Stamp = {
      v: 2,
      valid: true,
      currency: this.currency,
      rows: this.workbook.index(ORDERS).size,
      held: heldKey(this.workbook),
      parts: [...groups]
        .map(([group, values]) => (values.length === 1 ? group : `${group}*${values.length}`))
        .join(','),
      fullAt,
      ...(proven ? { proven } : {}),
    };
    const values: Record<string, string> = { [META_KEY]: checkPropertySize(META_KEY, JSON.stringify(stamp)) };
    const used = new Set<string>();
    for (const [group, pieces] of groups)
      pieces.forEach((piece, i) => {
        const key = partKey(group, i);
        used.add(key);
        if (this.stored.get(key) !== piece) values[key] = checkPropertySize(key, piece);
      });
    this.properties.setProperties(values);
    for (const [key, value] of Object.entries(values)) if (key !== META_KEY) this.stored.set(key, value);
    // Read only through the stamp: one left behind by a run cut short here is deleted by the next save.
    for (const key of [...this.stored.keys()])
      if (!used.has(key)) {
        this.properties.deleteProperty(key);
        this.stored.delete(key);
      }
    this.stamp = stamp;
    this.sums = sums;
    this.marked = false;
    this.changed = false;
    // Writes later in this run (Sync now fetching ✗ days again) are counted from here.
    this.watch();
  }

  /** Counts the run's Orders writes from now: rows holding data now are read back before they are overwritten. */
  private watch(): void {
    this.lastRowAtOpen = this.workbook.index(ORDERS).lastKeyedRow();
    this.written.clear();
    this.watchWrites();
  }

  private watchWrites(): void {
    if (this.watching) return;
    this.watching = true;
    // The rows a page overwrites are read back with the page's index cells: no read of their own.
    this.workbook.readAlong(ORDERS, ORDER_SUM_SPAN);
    this.workbook.watchWrites(ORDERS, (rows) => this.beforeWrite(rows));
  }

  private beforeWrite(rows: readonly RowWrite[]): void {
    const sums = this.sums;
    if (!sums) return;
    const relevant = rows.filter((w) => touchesSums(w.column, w.cells.length));
    if (relevant.length === 0) return;
    this.changed = true;
    this.markUnsaved();
    if (relevant.some((w) => w.column !== 1 || w.cells.length !== ORDERS.columns.length)) {
      this.sums = null;
      return;
    }
    const unread = [
      ...new Set(relevant.map((w) => w.row).filter((row) => row <= this.lastRowAtOpen && !this.written.has(row))),
    ];
    const read = this.workbook.readRows(ORDERS, unread, ORDER_SUM_SPAN);
    unread.forEach((row, i) => this.written.set(row, read[i]));
    for (const w of relevant) {
      sums.add(this.written.get(w.row), -1);
      const now = this.asHeld(w.cells);
      sums.add(now, 1);
      this.written.set(w.row, now);
    }
  }

  /** The row as a read would give it: cells of columns the sheet does not hold read empty. */
  private asHeld(cells: readonly unknown[]): unknown[] {
    this.unheld ??= ORDER_SUM_COLUMNS.filter((h) => !this.workbook.holdsColumn(ORDERS, h)).map((h) =>
      columnIndex(ORDERS, h),
    );
    const row = cells.slice();
    for (const at of this.unheld) row[at] = '';
    return row;
  }

  /** Until the run saves them, the stored sums no longer describe the sheet (a run cut short leaves them so). */
  private markUnsaved(): void {
    if (this.marked || !this.stamp) return;
    this.properties.setProperty(META_KEY, JSON.stringify({ ...this.stamp, valid: false }));
    this.marked = true;
  }
}

function heldKey(workbook: ManagedWorkbook): string {
  return ORDER_SUM_COLUMNS.filter((h) => workbook.holdsColumn(ORDERS, h)).join(',');
}
