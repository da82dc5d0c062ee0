/**
 * The id → row index of one managed sheet, built from ONE read of its leading columns per run and
 * kept current as the run writes. Pure: the reader hands in the values it read.
 */
import { instantToSerial, serialToDate, type CellValue } from './cells';

export interface IndexedRow {
  row: number;
  /** The sheet's index columns for this row (id first), as last read or written. */
  cells: CellValue[];
}

export class KeyIndex {
  private readonly byKey = new Map<string, IndexedRow>();
  /** The first row after the last row holding a key: where the next new row goes. */
  nextRow: number;

  /**
   * @param values the index columns from row `firstRow` down (as getValues returns them: date
   *   cells may arrive as Date objects and are kept as serials in the spreadsheet's zone)
   * @param keyIsDate keys are date serials (Daily P&L) and are indexed as YYYY-MM-DD
   */
  constructor(values: ReadonlyArray<ReadonlyArray<unknown>>, timeZone: string, keyIsDate = false, firstRow = 2) {
    let lastKeyed = firstRow - 1;
    values.forEach((raw, i) => {
      const cells = raw.map((v) => normalise(v, timeZone));
      const key = keyText(cells[0], keyIsDate);
      if (key === '') return;
      const row = firstRow + i;
      lastKeyed = row;
      // A duplicate id (e.g. pasted by a user) keeps the first row: the one sync wrote first.
      if (!this.byKey.has(key)) this.byKey.set(key, { row, cells });
    });
    this.nextRow = lastKeyed + 1;
  }

  get(key: string): IndexedRow | undefined {
    return this.byKey.get(key);
  }

  get size(): number {
    return this.byKey.size;
  }

  /** Records that `key` now holds `cells` (index columns) at its row; returns the row and whether it is new. */
  put(key: string, cells: CellValue[]): { row: number; inserted: boolean } {
    const existing = this.byKey.get(key);
    if (existing) {
      existing.cells = cells;
      return { row: existing.row, inserted: false };
    }
    const row = this.nextRow++;
    this.byKey.set(key, { row, cells });
    return { row, inserted: true };
  }

  entries(): IterableIterator<[string, IndexedRow]> {
    return this.byKey.entries();
  }
}

function keyText(cell: CellValue | undefined, keyIsDate: boolean): string {
  if (cell === undefined || cell === '') return '';
  if (keyIsDate && typeof cell === 'number') return serialToDate(Math.round(cell));
  return String(cell);
}

function normalise(value: unknown, timeZone: string): CellValue {
  if (value instanceof Date) return instantToSerial(value.getTime(), timeZone);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return value === null || value === undefined ? '' : String(value);
}
