/**
 * Brings an existing Orders or Line items sheet in line with the chosen columns: a newly chosen
 * column is added right of everything the sheet holds (header, note, widths, format, highlight);
 * one no longer chosen keeps its place, its values cleared (one range per run of adjacent columns)
 * and its header note saying since when it is no longer synced; one chosen again is synced again.
 * The sheet changes first, then the layout is saved with the columns the column fill must write
 * for rows already there; a run cut short in between finds its added headers and takes them back
 * (planLayoutChange).
 */
import { adjacentRuns } from './adjacent-runs';
import { columnTagRequests } from './column-tags';
import type { CellCount } from './cell-count';
import { chosenHeaders, type ChoosableTable } from './column-choice';
import { formatRequests } from './column-formats';
import { highlightRequests } from './highlights';
import { columnWidthPx } from './layout';
import { placeLayout, type OpenSheet } from './open-sheet';
import {
  catalogLayout,
  layoutSchema,
  planLayoutChange,
  retiredNote,
  withClearedOn,
  type LayoutChange,
  type TableLayout,
} from './sheet-layout';
import { sheetsService } from './sheet-snapshot';
import { noteSpreadsheetChange, sheetsRequest } from './sheets-requests';
import type { StoreBinding } from './store-binding';
import type { TableLayouts } from './table-layouts';
import type { WorkbookSnapshot } from './workbook-snapshot';
import type { TableSchema } from './schema';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

export class LayoutFollower {
  constructor(
    private readonly timeZone: string,
    private readonly snapshot: WorkbookSnapshot,
    private readonly layouts: TableLayouts,
    private readonly cells: CellCount,
    private readonly store: StoreBinding,
    /** The sheet itself, fetched by name the first time a call needs it. */
    private readonly handle: (opened: OpenSheet) => Sheet,
  ) {}

  followChoice(opened: OpenSheet, table: TableSchema, stored: TableLayout | null): void {
    const settings = this.layouts.settings();
    const name = table.sheetName as ChoosableTable;
    const layout = stored ?? catalogLayout(table);
    let lastColumn: number | null = null;
    const sheetLast = (): number => (lastColumn ??= this.handle(opened).getLastColumn());
    const change = planLayoutChange(
      layout,
      chosenHeaders(table, settings.choice[name]),
      () => sheetLast() + 1,
      () => {
        const last = sheetLast();
        return last > 0 ? this.handle(opened).getRange(1, 1, 1, last).getValues()[0] : [];
      },
    );
    if (!change) return;
    const today = Utilities.formatDate(new Date(), this.timeZone, 'yyyy-MM-dd');
    this.applyLayoutChange(opened, table, change, today);
    const layoutNow = change.clear.length > 0 ? withClearedOn(change.layout, change.clear, today) : change.layout;
    settings.saveLayout(name, layoutNow, [...change.add.map((a) => a.header), ...change.revive], false);
    placeLayout(opened, table, layoutNow);
  }

  private applyLayoutChange(opened: OpenSheet, table: TableSchema, change: LayoutChange, today: string): void {
    const sheet = this.handle(opened);
    const byHeader = new Map(table.columns.map((c) => [c.header, c]));
    const columnOf = (header: string): number => change.layout.columns.indexOf(header) + 1;
    if (change.add.length > 0) {
      this.addColumns(sheet, table, change);
      opened.maxColumns = null;
    }
    if (change.clear.length > 0) {
      // A retired column's old figures would sit beside its row's current ones: cleared, formats
      // and notes kept (Range.clearContent). The cells stay part of the grid.
      const rows = sheet.getMaxRows() - 1;
      if (rows > 0)
        for (const run of adjacentRuns(change.clear.map(columnOf)))
          sheet.getRange(2, run[0], rows, run.length).clearContent();
      for (const header of change.clear) sheet.getRange(1, columnOf(header)).setNote(retiredNote(today));
    }
    for (const header of change.revive) sheet.getRange(1, columnOf(header)).setNote(byHeader.get(header)?.note ?? '');
    noteSpreadsheetChange();
  }

  /** The newly chosen columns: grid, widths, formats and highlights in one batchUpdate, then header cells and notes. */
  private addColumns(sheet: Sheet, table: TableSchema, change: LayoutChange): void {
    const byHeader = new Map(table.columns.map((c) => [c.header, c]));
    const after = layoutSchema(table, change.layout);
    const sheetId = sheet.getSheetId();
    const maxColumns = sheet.getMaxColumns();
    const maxRows = sheet.getMaxRows();
    const widest = Math.max(...change.add.map((a) => a.column));
    const requests: GoogleAppsScript.Sheets.Schema.Request[] = [];
    if (widest > maxColumns) {
      this.cells.checkRoom((widest - maxColumns) * maxRows);
      requests.push({ appendDimension: { sheetId, dimension: 'COLUMNS', length: widest - maxColumns } });
    }
    for (const { header, column } of change.add) {
      const spec = byHeader.get(header)!;
      requests.push({
        updateDimensionProperties: {
          range: { sheetId, dimension: 'COLUMNS', startIndex: column - 1, endIndex: column },
          properties: { pixelSize: columnWidthPx(spec) },
          fields: 'pixelSize',
        },
      });
    }
    const added = new Set(change.add.map((a) => a.header));
    if (maxRows > 1) requests.push(...formatRequests(after, this.store.currency, sheetId, 1, maxRows, added));
    requests.push(...highlightRequests(sheetId, after, added));
    // Each added column tagged with its key (column-tags.ts): found by tag once the user renames it.
    requests.push(
      ...columnTagRequests(
        sheetId,
        change.layout.columns,
        change.add.map((a) => a.column),
      ),
    );
    const id = this.snapshot.id();
    sheetsRequest('write', () => sheetsService().batchUpdate({ requests }, id));
    this.cells.gridsChanged();
    for (const run of adjacentRuns(change.add.map((a) => a.column))) {
      const specs = run.map((column) => byHeader.get(change.layout.columns[column - 1]!)!);
      const header = sheet.getRange(1, run[0], 1, run.length);
      header.setNotes([specs.map((c) => c.note ?? '')]);
      header.setFontWeight('bold');
      header.setValues([specs.map((c) => c.header)]);
    }
  }
}
