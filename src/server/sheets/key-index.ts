/**
 * The id → row index of one managed sheet, built from ONE read of its leading columns per run and
 * kept current as the run writes. Pure: the reader hands in the values it read.
 *
 * Rows below the synced ones may be the user's (a totals row, a note in column A): new rows go
 * after the last row with ANY content, and a cell in the key column that is not a key of the
 * table (wrong prefix, not a date) is the user's, never indexed, so the sync never writes there.
 */
import type { CellValue } from './cells';
import { keyText, normalise, type KeyRules } from './key-rules';
import type { SparseSource } from './sparse-source';

export interface IndexedRow {
  row: number;
  /** The sheet's index columns for this row (id first), as last read or written. */
  cells: CellValue[];
}

export class KeyIndex {
  private readonly byKey = new Map<string, IndexedRow>();
  private next: number;
  /** Asked once, at the first new row, when the values may end above the sheet's last row with content. */
  private lastRowWithContent: (() => number) | null;
  /** Rows whose own key is not read yet, by their parent's key; and those whose parent cell holds none. */
  private readonly pendingByParent = new Map<string, number[]>();
  private unplaced: number[] | null;
  /** Pending rows with a parent key: each is counted as a keyed row until it is read. */
  private pendingKeyed = 0;
  private readonly adopted: Array<(key: string, entry: IndexedRow) => void> = [];
  private readonly rules: KeyRules;
  /** Set while the index holds only what the row index loaded (makeSparse). */
  private sparse: SparseSource | null = null;
  private readonly absent = new Set<string>();
  private readonly unverified = new Set<IndexedRow>();
  /** Entries put in this run: kept over a whole read that comes after (fill). */
  private readonly putThisRun = new Map<string, IndexedRow>();
  private insertedThisRun = 0;
  private readonly putListeners: Array<(key: string, entry: IndexedRow, inserted: boolean) => void> = [];

  /**
   * @param values the index columns from row `firstRow` down to the sheet's last row with ANY
   *   content (as getValues returns them: date cells may arrive as Date objects and are kept as
   *   serials in the spreadsheet's zone); trailing rows without a key are the user's
   * @param rules what a key of this table looks like (`true`: keys are dates)
   * @param lastRowWithContent when `values` stop at the last row with a value in the index
   *   columns (a read that leaves out trailing empty rows), the sheet's last row with ANY content
   */
  constructor(
    values: ReadonlyArray<ReadonlyArray<unknown>>,
    private readonly timeZone: string,
    rules: KeyRules | boolean = {},
    private readonly firstRow = 2,
    lastRowWithContent: (() => number) | null = null,
  ) {
    this.rules = typeof rules === 'boolean' ? { keyIsDate: rules } : rules;
    this.unplaced = this.rules.parent ? [] : null;
    this.next = firstRow;
    this.indexValues(values);
    this.lastRowWithContent = lastRowWithContent;
  }

  private indexValues(values: ReadonlyArray<ReadonlyArray<unknown>>): void {
    const parent = this.rules.parent;
    const firstRow = this.firstRow;
    values.forEach((raw, i) => {
      const cells = raw.map((v) => normalise(v, this.timeZone));
      if (parent) {
        const of = cells[parent.column];
        if (typeof of === 'string' && of.startsWith(parent.prefix)) this.addPending(of, [firstRow + i]);
        else this.unplaced!.push(firstRow + i);
        return;
      }
      const key = keyText(cells[0], this.rules);
      if (key === '') return;
      // A duplicate id (e.g. pasted by a user) keeps the first row: the one sync wrote first.
      if (!this.byKey.has(key)) this.byKey.set(key, { row: firstRow + i, cells });
    });
    this.next = Math.max(this.next, firstRow + values.length);
  }

  /**
   * From now on the index knows only what the row index loads into it (load, addPending,
   * markAbsent): its size is the row index's count, and a caller that asks for more (every entry,
   * a key neither loaded nor known absent) has `whole` read the key columns and fill it.
   */
  makeSparse(source: SparseSource): void {
    this.sparse = source;
    this.unplaced = null;
  }

  get isSparse(): boolean {
    return this.sparse !== null;
  }

  /**
   * The key columns as read whole (rows `firstRow` down): the index as it would have been built
   * from them, with what this run put since kept over them (a page planned and not written yet).
   */
  fill(values: ReadonlyArray<ReadonlyArray<unknown>>): void {
    const source = this.sparse;
    this.sparse = null;
    this.byKey.clear();
    this.pendingByParent.clear();
    this.pendingKeyed = 0;
    this.absent.clear();
    this.unverified.clear();
    this.unplaced = this.rules.parent ? [] : null;
    this.indexValues(values);
    const putRows = new Set<number>();
    for (const [key, entry] of this.putThisRun) {
      this.byKey.set(key, entry);
      putRows.add(entry.row);
      this.next = Math.max(this.next, entry.row + 1);
    }
    // A row put in this run and read back is not pending as well (nor counted twice).
    for (const [parent, rows] of this.pendingByParent) {
      const left = rows.filter((row) => !putRows.has(row));
      this.pendingKeyed -= rows.length - left.length;
      if (left.length === 0) this.pendingByParent.delete(parent);
      else this.pendingByParent.set(parent, left);
    }
    if (this.unplaced) this.unplaced = this.unplaced.filter((row) => !putRows.has(row));
    if (source) this.next = Math.max(this.next, source.lastRow + 1);
  }

  /** An entry the row index points to: its row, its cells not read yet (unverified until read). */
  load(key: string, row: number): void {
    if (this.byKey.has(key)) return;
    const entry: IndexedRow = { row, cells: [] };
    this.byKey.set(key, entry);
    this.unverified.add(entry);
    this.absent.delete(key);
  }

  /** The row index holds no row of this key. */
  markAbsent(key: string): void {
    if (!this.byKey.has(key)) this.absent.add(key);
  }

  /** Whether the entry came from the row index and its key cell is not read yet. */
  isUnverified(entry: IndexedRow): boolean {
    return this.unverified.has(entry);
  }

  verified(entry: IndexedRow): void {
    this.unverified.delete(entry);
  }

  /** Rows of a parent not read yet (a lazy table: schema.parentKey). */
  addPending(parent: string, rows: readonly number[]): void {
    const held = this.pendingByParent.get(parent);
    if (held) held.push(...rows);
    else this.pendingByParent.set(parent, rows.slice());
    this.pendingKeyed += rows.length;
  }

  /** Whether a parent's rows are pending (not read yet). */
  hasPending(parent: string): boolean {
    return this.pendingByParent.has(parent);
  }

  /** Rows of every parent: pending and read (a lazy table's key index read whole). */
  rowsByParent(): Map<string, number[]> {
    const out = new Map<string, number[]>();
    for (const [parent, rows] of this.pendingByParent) out.set(parent, rows.slice());
    for (const [, entry] of this.byKey) {
      const parent = String(entry.cells[1] ?? '');
      if (parent === '') continue;
      const rows = out.get(parent);
      if (rows) rows.push(entry.row);
      else out.set(parent, [entry.row]);
    }
    return out;
  }

  /** Told of every row put (key, entry, whether it is new). */
  onPut(listener: (key: string, entry: IndexedRow, inserted: boolean) => void): void {
    this.putListeners.push(listener);
  }

  /** The last keyed row (1 when none). */
  lastKeyedRow(): number {
    let last = this.sparse ? this.sparse.lastRow : 1;
    const entries = this.sparse ? this.putThisRun.values() : this.byKey.values();
    for (const entry of entries) if (entry.row > last) last = entry.row;
    return last;
  }

  private ensureWhole(): void {
    if (this.sparse) this.sparse.whole();
  }

  /**
   * The pending rows of these parents (null: of all) and, the first time, the rows that may hold a
   * key without a parent key (a parent cell the user cleared, rows below the last parent key, down
   * to the grid's `lastGridRow`), each with its parent's key ('' for none): the caller reads each
   * and adopts it. Returned once: no longer pending.
   */
  takePending(parents: Iterable<string> | null, lastGridRow: number): Map<number, string> {
    if (parents === null) this.ensureWhole();
    const rows = new Map<number, string>();
    for (const parent of parents ?? [...this.pendingByParent.keys()]) {
      const held = this.pendingByParent.get(parent);
      if (!held) continue;
      for (const row of held) rows.set(row, parent);
      this.pendingKeyed -= held.length;
      this.pendingByParent.delete(parent);
    }
    if (this.unplaced !== null) {
      for (const row of this.unplaced) rows.set(row, '');
      for (let row = this.next; row <= lastGridRow; row++) rows.set(row, '');
      this.unplaced = null;
    }
    return rows;
  }

  /** A pending row as read (index columns): indexed under its own key, unless that key already has a row. */
  adopt(row: number, raw: readonly unknown[]): void {
    const cells = raw.map((v) => normalise(v, this.timeZone));
    const key = keyText(cells[0], this.rules);
    if (key === '' || this.byKey.has(key)) return;
    const entry = { row, cells };
    this.byKey.set(key, entry);
    for (const listener of this.adopted) listener(key, entry);
  }

  /** Told of every row adopted from now on. */
  onAdopt(listener: (key: string, entry: IndexedRow) => void): void {
    this.adopted.push(listener);
  }

  /** Where the next new row goes: after the last row with any content, never over a user's cells. */
  get nextRow(): number {
    if (this.lastRowWithContent) {
      this.next = Math.max(this.next, this.lastRowWithContent() + 1);
      this.lastRowWithContent = null;
    }
    return this.next;
  }

  /** A sparse index of a table without a parent key reads the key columns whole for a key it was not told of. */
  get(key: string): IndexedRow | undefined {
    const entry = this.byKey.get(key);
    if (entry || !this.sparse || this.rules.parent || this.absent.has(key)) return entry;
    this.ensureWhole();
    return this.byKey.get(key);
  }

  /** Keyed rows; a pending row with a parent key counts as one until it is read. */
  get size(): number {
    if (this.sparse) return this.sparse.size + this.insertedThisRun;
    return this.byKey.size + this.pendingKeyed;
  }

  /** Records that `key` now holds `cells` (index columns) at its row; returns the row and whether it is new. */
  put(key: string, cells: CellValue[]): { row: number; inserted: boolean } {
    const existing = this.get(key);
    if (existing) {
      existing.cells = cells;
      this.unverified.delete(existing);
      this.putThisRun.set(key, existing);
      for (const listener of this.putListeners) listener(key, existing, false);
      return { row: existing.row, inserted: false };
    }
    const row = this.nextRow;
    this.next = row + 1;
    const entry = { row, cells };
    this.byKey.set(key, entry);
    this.absent.delete(key);
    this.putThisRun.set(key, entry);
    this.insertedThisRun++;
    for (const listener of this.putListeners) listener(key, entry, true);
    return { row, inserted: true };
  }

  /** Every entry (a sparse index reads the key columns whole first). */
  entries(): IterableIterator<[string, IndexedRow]> {
    this.ensureWhole();
    return this.byKey.entries();
  }

  /** The entries known now, without a read: what the run has loaded, adopted or put. */
  loadedEntries(): IterableIterator<[string, IndexedRow]> {
    return this.byKey.entries();
  }
}
