/**
 * Cells toward Google's limit of 10 million per spreadsheet: every sheet's grid counts, filled or
 * not. Taken from the run's snapshot until a sheet is inserted or set up, then read once again.
 */
import { readGridCells } from './sheet-snapshot';
import type { WorkbookSnapshot } from './workbook-snapshot';

/** A spreadsheet holds at most 10 million cells. */
export const SPREADSHEET_CELL_LIMIT = 10_000_000;

/** Cells the spreadsheet holds toward the limit: every sheet's grid counts, filled or not (two calls per sheet). */
export function spreadsheetGridCells(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): number {
  return spreadsheet.getSheets().reduce((n, sheet) => n + sheet.getMaxRows() * sheet.getMaxColumns(), 0);
}

export class CellLimitError extends Error {
  constructor(
    readonly usedCells: number,
    readonly neededCells: number,
  ) {
    super(
      `The spreadsheet would pass Google's limit of 10 million cells (${usedCells} used, ${neededCells} more needed). Nothing more was written. Sync a shorter period (set a "created after" date) or use a new spreadsheet.`,
    );
    this.name = 'CellLimitError';
  }
}

export class CellCount {
  private usedCells: number | null = null;
  /** The snapshot's grid sizes no longer hold (a sheet was inserted or set up). */
  private gridChanged = false;

  constructor(private readonly snapshot: WorkbookSnapshot) {}

  /** Grid cells of every sheet in the spreadsheet (what counts toward the 10 M limit); read once per run. */
  used(): number {
    if (this.usedCells === null) {
      const sheets = this.gridChanged ? null : this.snapshot.sheetInfos();
      this.usedCells = sheets ? sheets.reduce((n, s) => n + s.rows * s.columns, 0) : readGridCells(this.snapshot.id());
    }
    return this.usedCells;
  }

  /** The grid cells when known without a call (the run's snapshot was read and every change since counted), else null. */
  known(): number | null {
    if (this.usedCells !== null) return this.usedCells;
    return this.gridChanged || !this.snapshot.wasRead() ? null : this.used();
  }

  /** Throws CellLimitError when `more` cells would pass the limit. */
  checkRoom(more: number): void {
    const used = this.used();
    if (used + more > SPREADSHEET_CELL_LIMIT) throw new CellLimitError(used, more);
  }

  /** A sheet was inserted or its grid changed in a way not counted here: the next count reads the grids. */
  gridsChanged(): void {
    this.usedCells = null;
    this.gridChanged = true;
  }

  /** `cells` were added to a grid, counted here. */
  added(cells: number): void {
    this.usedCells = this.used() + cells;
  }
}
