/**
 * A virtualized sheet grid: only the rows in view are in the DOM (a 100k-row sheet scrolls as a
 * small one), rows are fetched from the server in blocks as they come into view, the frozen rows
 * stay on top and hide the rows scrolled beneath them, columns have the widths the sheet sets.
 * Every value is set as text (textContent), never as HTML.
 *
 * Our own rather than a data-grid package: the rows live in the local runtime (Node), not in the
 * page, so the grid must ask for row windows on scroll; and every cell is drawn from Sheets'
 * displayed text, notes, spills and `#ERROR!` hovers. Glide Data Grid needs React; AG Grid's
 * Community build is ~1 MB for a fraction of its features; Tabulator's virtual DOM wants its own
 * data model. This is about 250 lines with no dependency.
 */
import type { GridCell, GridSheet } from '../grid-types';

export type { GridCell, GridSheet };

export interface Selection {
  row: number;
  column: number;
  cell: GridCell | null;
}

/** Sheets' default row height, px. */
export const ROW_HEIGHT = 21;
const HEADER_HEIGHT = 21;
const ROW_NUMBER_WIDTH = 52;
const BLOCK_ROWS = 100;

export function columnLetters(column: number): string {
  let out = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) out = String.fromCharCode(65 + ((n - 1) % 26)) + out;
  return out;
}

function div(className: string, text?: string): HTMLDivElement {
  const el = document.createElement('div');
  el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

export class VirtualGrid {
  private sheet: GridSheet | null = null;
  private readonly space = div('g-space');
  private readonly top = div('g-top');
  private readonly body = div('g-body');
  /** Embedded charts float over the cells, each at its anchor cell, as in Sheets. */
  readonly overlay = div('g-overlay');
  private blocks = new Map<number, Array<Array<GridCell | null>>>();
  /** Blocks read since the last refetch; the others are still drawn until their new rows arrive. */
  private fresh = new Set<number>();
  private loading = new Set<number>();
  private generation = 0;
  private frame = 0;
  private selected: { row: number; column: number } | null = null;
  private highlight: { from: number; to: number } | null = null;
  /** Moves when a block's cells change: a refetch that brings the same cells redraws nothing. */
  private dataVersion = 0;
  /** What the DOM shows now (sheet, rows in view, data, selection): a render that would draw the same is skipped. */
  private drawn = '';

  constructor(
    private readonly host: HTMLElement,
    private readonly fetchRows: (sheet: string, from: number, count: number) => Promise<Array<Array<GridCell | null>>>,
    private readonly onSelect: (selection: Selection) => void,
  ) {
    this.space.append(this.top, this.body, this.overlay);
    host.append(this.space);
    host.addEventListener('scroll', () => this.schedule());
    // Selected on mousedown, as Sheets does: a polling refresh that redraws the rows between the
    // press and the release would otherwise send the click to the grid itself, and the cell
    // typed into next would be the one selected before.
    host.addEventListener('mousedown', (event) => {
      if (event.button !== 0) return;
      const target = (event.target as HTMLElement).closest<HTMLElement>('[data-row]');
      if (target) this.select(Number(target.dataset.row), Number(target.dataset.column));
    });
  }

  get current(): GridSheet | null {
    return this.sheet;
  }

  /**
   * Shows a sheet (or the same one with new dimensions). `refetch`: the rows are read again, and
   * the rows drawn stay on screen until their new values arrive (a refetch never blanks a cell:
   * the sidebar's own polling refetches every few seconds). Another sheet starts empty.
   */
  show(sheet: GridSheet, refetch: boolean): void {
    const changed = this.sheet?.name !== sheet.name;
    this.sheet = sheet;
    if (changed || refetch) {
      this.generation++;
      this.fresh = new Set();
      this.loading = new Set();
    }
    if (changed) {
      this.blocks = new Map();
      this.dataVersion++;
    }
    if (changed) {
      this.selected = null;
      this.highlight = null;
      this.host.scrollTop = 0;
      this.host.scrollLeft = 0;
    }
    const width = ROW_NUMBER_WIDTH + sheet.widths.reduce((a, b) => a + b, 0);
    this.space.style.width = `${width}px`;
    this.space.style.height = `${HEADER_HEIGHT + sheet.rowCount * ROW_HEIGHT}px`;
    this.render();
  }

  /** Scrolls so that `row` is the first row below the frozen ones; rows from..to are marked as just written. */
  scrollToRow(row: number, mark?: { from: number; to: number }): void {
    if (!this.sheet) return;
    if (mark) this.highlight = mark;
    const frozen = this.sheet.frozenRows;
    this.host.scrollTop = Math.max(0, (row - frozen - 1) * ROW_HEIGHT);
    this.render();
  }

  /** The top-left corner of a cell in the grid's scrolling space, px (where a chart anchored there starts). */
  offsetOf(row: number, column: number): { left: number; top: number } {
    const widths = this.sheet?.widths ?? [];
    let left = ROW_NUMBER_WIDTH;
    for (let c = 1; c < column; c++) left += widths[c - 1] ?? 100;
    return { left, top: HEADER_HEIGHT + (row - 1) * ROW_HEIGHT };
  }

  select(row: number, column: number): void {
    if (!this.sheet || row < 1 || column < 1 || row > this.sheet.rowCount || column > this.sheet.columnCount) return;
    this.selected = { row, column };
    const frozen = this.sheet.frozenRows;
    if (row > frozen) {
      const top = (row - frozen - 1) * ROW_HEIGHT;
      const visible = this.host.clientHeight - HEADER_HEIGHT - frozen * ROW_HEIGHT;
      if (top < this.host.scrollTop) this.host.scrollTop = top;
      else if (top + ROW_HEIGHT > this.host.scrollTop + visible) this.host.scrollTop = top + ROW_HEIGHT - visible;
    }
    this.render();
    this.onSelect({ row, column, cell: this.cellAt(row, column) });
  }

  get selection(): { row: number; column: number } | null {
    return this.selected;
  }

  private cellAt(row: number, column: number): GridCell | null {
    const block = this.blocks.get(Math.floor((row - 1) / BLOCK_ROWS));
    return block?.[(row - 1) % BLOCK_ROWS]?.[column - 1] ?? null;
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  private load(block: number): void {
    if (!this.sheet || this.fresh.has(block) || this.loading.has(block)) return;
    const generation = this.generation;
    const name = this.sheet.name;
    this.loading.add(block);
    this.fetchRows(name, block * BLOCK_ROWS + 1, BLOCK_ROWS)
      .then((rows) => {
        if (generation !== this.generation) return;
        // The sidebar's polling refetches every few seconds: unchanged cells keep their elements
        // (a hovered note, a selection, a test's element handle are not swept away each time).
        if (JSON.stringify(this.blocks.get(block)) !== JSON.stringify(rows)) this.dataVersion++;
        this.blocks.set(block, rows);
        this.fresh.add(block);
        this.loading.delete(block);
        this.schedule();
        if (this.selected && Math.floor((this.selected.row - 1) / BLOCK_ROWS) === block) {
          this.onSelect({ ...this.selected, cell: this.cellAt(this.selected.row, this.selected.column) });
        }
      })
      .catch(() => {
        if (generation === this.generation) this.loading.delete(block);
      });
  }

  private rowElement(row: number, header = false): HTMLDivElement {
    const sheet = this.sheet!;
    const line = div(header ? 'g-row g-head' : 'g-row');
    line.append(div('g-rn', header ? '' : String(row)));
    if (!header && this.highlight && row >= this.highlight.from && row <= this.highlight.to)
      line.classList.add('g-new');
    for (let c = 1; c <= sheet.columnCount; c++) {
      const cell = header ? null : this.cellAt(row, c);
      const el = div('g-c', header ? columnLetters(c) : (cell?.t ?? ''));
      el.style.width = `${sheet.widths[c - 1] ?? 100}px`;
      if (!header) {
        el.dataset.row = String(row);
        el.dataset.column = String(c);
        if (cell?.k) el.classList.add(`g-${cell.k}`);
        // Text runs on into empty cells to its right, as in Sheets.
        else if (cell?.t && this.cellAt(row, c + 1) === null) el.classList.add('g-over');
        if (cell?.bold) el.classList.add('g-bold');
        // A conditional format's fill and text style (the server evaluated the rule; colours are #rrggbb).
        if (cell?.bg && /^#[0-9a-f]{6}$/.test(cell.bg)) el.style.backgroundColor = cell.bg;
        if (cell?.fg && /^#[0-9a-f]{6}$/.test(cell.fg)) el.style.color = cell.fg;
        if (cell?.italic) el.style.fontStyle = 'italic';
        if (cell?.strike) el.style.textDecoration = 'line-through';
        if (cell?.note) el.classList.add('g-note');
        const hover = [cell?.k === 'e' ? `Error\n${cell.message ?? ''}` : '', cell?.note ?? '']
          .filter(Boolean)
          .join('\n\n');
        if (hover) el.title = hover;
        if (this.selected && this.selected.row === row && this.selected.column === c) el.classList.add('g-selected');
      }
      line.append(el);
    }
    return line;
  }

  private render(): void {
    const sheet = this.sheet;
    if (!sheet) return;
    const frozen = Math.min(sheet.frozenRows, sheet.rowCount);
    const firstBody = frozen + 1 + Math.floor(this.host.scrollTop / ROW_HEIGHT);
    const count = Math.ceil(this.host.clientHeight / ROW_HEIGHT) + 2;
    const lastBody = Math.min(sheet.rowCount, firstBody + count);
    for (let r = 1; r <= frozen; r++) this.load(Math.floor((r - 1) / BLOCK_ROWS));
    for (let r = firstBody; r <= lastBody; r += BLOCK_ROWS) this.load(Math.floor((r - 1) / BLOCK_ROWS));
    this.load(Math.floor((lastBody - 1) / BLOCK_ROWS));

    const view = JSON.stringify([sheet, frozen, firstBody, lastBody, this.dataVersion, this.selected, this.highlight]);
    if (view === this.drawn) return;
    this.drawn = view;
    const topRows = [this.rowElement(0, true)];
    for (let r = 1; r <= frozen; r++) {
      const line = this.rowElement(r);
      line.classList.add('g-frozen');
      topRows.push(line);
    }
    this.top.replaceChildren(...topRows);
    const bodyRows: HTMLDivElement[] = [];
    for (let r = Math.max(firstBody, frozen + 1); r <= lastBody; r++) {
      const line = this.rowElement(r);
      line.style.top = `${HEADER_HEIGHT + (r - 1) * ROW_HEIGHT}px`;
      bodyRows.push(line);
    }
    this.body.replaceChildren(...bodyRows);
  }
}
