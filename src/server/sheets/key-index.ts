/**
 * The id → row index of one managed sheet, built from ONE read of its leading columns per run and
 * kept current as the run writes. Pure: the reader hands in the values it read.
 *
 * Rows below the synced ones may be the user's (a totals row, a note in column A): new rows go
 * after the last row with ANY content, and a cell in the key column that is not a key of the
 * table (wrong prefix, not a date) is the user's, never indexed, so the sync never writes there.
 */
import type { CellValue } from './cells';
import { instantToSerial, serialToDate } from '../platform/calendar';

export interface IndexedRow {
  row: number;
  /** The sheet's index columns for this row (id first), as last read or written. */
  cells: CellValue[];
}

export interface KeyRules {
  /** Keys are date serials (Daily P&L), indexed as YYYY-MM-DD; text that is not a date is not a key. */
  keyIsDate?: boolean;
  /** Every key of the table starts with this (the API's id prefix, e.g. `ord_`). */
  keyPrefix?: string;
  /** Every key of the table matches this (derived tables, e.g. YYYY-MM months). */
  keyPattern?: RegExp;
  /**
   * The values hold the parent's key in this column instead of the row's own (schema.parentKey):
   * each row is pending until its cells are read and adopted (pendingRows, adopt).
   */
  parent?: { column: number; prefix: string };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

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
    firstRow = 2,
    lastRowWithContent: (() => number) | null = null,
  ) {
    const keyRules: KeyRules = typeof rules === 'boolean' ? { keyIsDate: rules } : rules;
    const parent = keyRules.parent;
    this.unplaced = parent ? [] : null;
    values.forEach((raw, i) => {
      const cells = raw.map((v) => normalise(v, timeZone));
      if (parent) {
        const of = cells[parent.column];
        if (typeof of === 'string' && of.startsWith(parent.prefix)) {
          const rows = this.pendingByParent.get(of);
          if (rows) rows.push(firstRow + i);
          else this.pendingByParent.set(of, [firstRow + i]);
          this.pendingKeyed++;
        } else this.unplaced!.push(firstRow + i);
        return;
      }
      const key = keyText(cells[0], keyRules);
      if (key === '') return;
      // A duplicate id (e.g. pasted by a user) keeps the first row: the one sync wrote first.
      if (!this.byKey.has(key)) this.byKey.set(key, { row: firstRow + i, cells });
    });
    this.next = firstRow + values.length;
    this.lastRowWithContent = lastRowWithContent;
    this.rules = keyRules;
  }

  /**
   * The pending rows of these parents (null: of all) and, the first time, the rows that may hold a
   * key without a parent key (a parent cell the user cleared, rows below the last parent key, down
   * to the grid's `lastGridRow`), each with its parent's key ('' for none): the caller reads each
   * and adopts it. Returned once: no longer pending.
   */
  takePending(parents: Iterable<string> | null, lastGridRow: number): Map<number, string> {
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

  get(key: string): IndexedRow | undefined {
    return this.byKey.get(key);
  }

  /** Keyed rows; a pending row with a parent key counts as one until it is read. */
  get size(): number {
    return this.byKey.size + this.pendingKeyed;
  }

  /** Records that `key` now holds `cells` (index columns) at its row; returns the row and whether it is new. */
  put(key: string, cells: CellValue[]): { row: number; inserted: boolean } {
    const existing = this.byKey.get(key);
    if (existing) {
      existing.cells = cells;
      return { row: existing.row, inserted: false };
    }
    const row = this.nextRow;
    this.next = row + 1;
    this.byKey.set(key, { row, cells });
    return { row, inserted: true };
  }

  entries(): IterableIterator<[string, IndexedRow]> {
    return this.byKey.entries();
  }
}

function keyText(cell: CellValue | undefined, rules: KeyRules): string {
  if (cell === undefined || cell === '') return '';
  if (rules.keyIsDate) {
    if (typeof cell === 'number') return serialToDate(Math.round(cell));
    return typeof cell === 'string' && ISO_DATE.test(cell) ? cell : '';
  }
  const key = String(cell);
  if (rules.keyPattern && !rules.keyPattern.test(key)) return '';
  return rules.keyPrefix === undefined || key.startsWith(rules.keyPrefix) ? key : '';
}

function normalise(value: unknown, timeZone: string): CellValue {
  if (value instanceof Date) return instantToSerial(value.getTime(), timeZone);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return value === null || value === undefined ? '' : String(value);
}
