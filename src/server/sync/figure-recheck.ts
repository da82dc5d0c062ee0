/**
 * The reconciliation pass's re-check of figures: an order the full listing returns with the
 * change marker the sheet holds is still compared cell by cell, its row and each of its line
 * items' rows, with what the service returns now. A correction the store made without moving
 * updated_at (a currency, a cost status, a line's cogs, two orders whose errors cancel within a
 * day) and a hand edit of a synced cell are found here, where the day sums cannot see them.
 * Orders and Line items are read once per execution (two Values.batchGet), only the columns the
 * sheets hold; synced_at is the sync's own stamp and is not compared.
 */
import type { CellValue } from '../sheets/cells';
import { sameCell } from '../sheets/change-check';
import type { RowWrite } from '../sheets/row-writes';
import { LINE_ITEMS, ORDERS, type TableSchema } from '../sheets/schema';

/** A row as the pass would write it: its sheet row (1-based) and its cells at catalog positions. */
export interface BuiltRow {
  row: number;
  cells: readonly CellValue[];
}

export interface RecheckSheets {
  holdsColumn(table: TableSchema, header: string): boolean;
  readColumns(table: TableSchema, headers: readonly string[]): unknown[][];
}

/** What a re-check found on one order: the columns that differ, its line items' among them. */
export interface Repair {
  id: string;
  columns: string[];
}

class HeldTable {
  private rows: unknown[][] | null = null;
  private readonly compared: number[];

  constructor(
    private readonly sheets: RecheckSheets,
    private readonly schema: TableSchema,
  ) {
    this.compared = schema.columns
      .map((column, i) => ({ header: column.header, i }))
      .filter(({ header }) => header !== 'synced_at' && sheets.holdsColumn(schema, header))
      .map(({ i }) => i);
  }

  private held(): unknown[][] {
    if (this.rows === null)
      this.rows = this.sheets.readColumns(
        this.schema,
        this.compared.map((i) => this.schema.columns[i].header),
      );
    return this.rows;
  }

  /** The headers whose cells differ; none for a row below the ones read (written in this run). */
  differences(built: BuiltRow): string[] {
    const held = this.held()[built.row - 2];
    if (held === undefined) return [];
    const off: string[] = [];
    for (const i of this.compared) {
      const column = this.schema.columns[i];
      if (!sameCell(cellOf(held[i]), cellOf(built.cells[i]), column.kind)) off.push(column.header);
    }
    return off;
  }

  /** Rows this run writes replace what was read, so a repeat of the order later in the run compares with them. */
  apply(writes: readonly RowWrite[]): void {
    if (this.rows === null) return;
    for (const w of writes) {
      const row = this.rows[w.row - 2];
      if (row === undefined) continue;
      w.cells.forEach((cell, k) => (row[w.column - 1 + k] = cell));
    }
  }
}

function cellOf(value: unknown): CellValue {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : '';
}

export class FigureRecheck {
  private readonly orders: HeldTable;
  private readonly lines: HeldTable;
  /** Orders found different in this execution, in the order found. */
  readonly repairs: Repair[] = [];

  constructor(sheets: RecheckSheets) {
    this.orders = new HeldTable(sheets, ORDERS);
    this.lines = new HeldTable(sheets, LINE_ITEMS);
  }

  /** True (and the repair noted) when the order's row or one of its line items' rows differs from what the service returns. */
  differs(id: string, order: BuiltRow, lineItems: readonly BuiltRow[]): boolean {
    const columns = this.orders.differences(order);
    for (const line of lineItems) columns.push(...this.lines.differences(line).map((h) => `line item ${h}`));
    if (columns.length === 0) return false;
    this.repairs.push({ id, columns: [...new Set(columns)] });
    return true;
  }

  /** Every row a page writes, so the cells read stay what the sheet holds. */
  wrote(orders: readonly RowWrite[], lineItems: readonly RowWrite[]): void {
    this.orders.apply(orders);
    this.lines.apply(lineItems);
  }
}

/** "ord_1 (payment_fee), ord_2 (currency, line item cogs)" for the first `named`, then how many more. */
export function repairWords(repairs: readonly Repair[], total: number, named = 10): string {
  const listed = repairs
    .slice(0, named)
    .map((r) => `${r.id} (${r.columns.join(', ')})`)
    .join(', ');
  return total > named ? `${listed} and ${total - Math.min(named, repairs.length)} more` : listed;
}
