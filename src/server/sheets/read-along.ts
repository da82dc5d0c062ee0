/**
 * Cells read along with a page's index cells (KeyReads.readAlong): the columns a readRows of the
 * same rows asks for before the next write, read in the same call, and kept until that write.
 */
import { catalogRow, columnRuns } from './column-runs';
import type { OpenSheet } from './open-sheet';
import type { SheetName, TableSchema } from './schema';
import type { TableSheets } from './table-sheets';

export class ReadAlong {
  /** Columns read with a page's rows for a readRows of the same rows before the next write (readAlong). */
  private readonly along = new Map<SheetName, readonly string[]>();
  /** Sheet cells (by sheet column) of rows read along with their index cells, until the next write. */
  private readonly rowCells = new Map<SheetName, Map<number, Map<number, unknown>>>();

  constructor(private readonly tables: TableSheets) {}

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
  rowsReadAlong(table: TableSchema, sheetRows: readonly number[], headers: readonly string[]): unknown[][] | null {
    const held = this.rowCells.get(table.sheetName);
    if (!held) return null;
    const { runs, catalogAt } = columnRuns(this.tables.sheetFor(table), table, headers);
    const columns = [...catalogAt.keys()];
    if (!sheetRows.every((row) => columns.every((c) => held.get(row)?.has(c)))) return null;
    return sheetRows.map((row) => catalogRow(table, runs, catalogAt, (i) => runs[i].map((c) => held.get(row)!.get(c))));
  }

  /** Sheet columns of the table's read-along headers that the index cells do not cover. */
  alongColumns(opened: OpenSheet, schema: TableSchema, columns: readonly number[]): number[] {
    const headers = this.along.get(schema.sheetName);
    if (!headers) return [];
    const taken = new Set(columns);
    return [...columnRuns(opened, schema, headers).catalogAt.keys()].filter((c) => !taken.has(c));
  }

  /** Keeps the cells read of these rows (by sheet column), as read along with their index cells. */
  keepAlong(
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
}
