/**
 * Sets up a table's sheet: headers, notes, widths, number formats and highlights, once, when the
 * sheet is created or found without the schema's newest columns; and retires a Sync log an older
 * version wrote with other columns.
 */
import { columnWidthPx, setUpRequests } from './layout';
import { findHeaderProblem } from './header-check';
import { highlightRequests } from './highlights';
import { numberFormatFor } from './rows';
import { sheetsService } from './sheet-snapshot';
import { noteSpreadsheetChange, sheetsRequest } from './sheets-requests';
import type { CellCount } from './cell-count';
import type { StartReads } from './start-reads';
import type { StoreBinding } from './store-binding';
import type { WorkbookSnapshot } from './workbook-snapshot';
import type { TableSchema } from './schema';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

export class SheetSetUp {
  constructor(
    private readonly spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
    private readonly timeZone: string,
    private readonly snapshot: WorkbookSnapshot,
    private readonly startReads: StartReads,
    private readonly cells: CellCount,
    private readonly store: StoreBinding,
  ) {}

  /**
   * Formats and widths are set here, once, when the sheet is created (never per run): a user who
   * resizes a column or restyles the header keeps it.
   */
  setUp(sheet: Sheet, schema: TableSchema): void {
    const width = schema.columns.length;
    this.cells.gridsChanged();
    // Column count and widths in ONE call (setColumnWidths would take one call per width).
    const sheetId = sheet.getSheetId();
    const requests = [...setUpRequests(sheetId, schema, sheet.getMaxColumns()), ...highlightRequests(sheetId, schema)];
    const id = this.snapshot.id();
    sheetsRequest('write', () => sheetsService().batchUpdate({ requests }, id));
    sheet.setFrozenRows(1);
    noteSpreadsheetChange();
    const header = sheet.getRange(1, 1, 1, width);
    const notes = schema.columns.map((c) => c.note ?? '');
    if (notes.some((n) => n !== '')) header.setNotes([notes]);
    const maxRows = sheet.getMaxRows();
    if (maxRows > 1) this.applyFormats(sheet, schema, 2, maxRows - 1);
    header.setFontWeight('bold');
    header.setValues([schema.columns.map((c) => c.header)]);
  }

  /**
   * A sheet an earlier version set up without the schema's newest columns (schema.addedColumns):
   * the grid grows by the missing columns where needed, and they get their widths, header, note,
   * number format and highlight, once. Rows already there are filled as the sync rewrites them.
   */
  completeAddedColumns(sheet: Sheet, schema: TableSchema, missing: number): void {
    const width = schema.columns.length;
    const first = width - missing + 1;
    const columns = sheet.getMaxColumns();
    const sheetId = sheet.getSheetId();
    // Widths of the new columns only: the user's widths of the others stay.
    const widths = schema.columns.slice(first - 1).map((column, i) => ({
      updateDimensionProperties: {
        range: { sheetId, dimension: 'COLUMNS', startIndex: first - 1 + i, endIndex: first + i },
        properties: { pixelSize: columnWidthPx(column) },
        fields: 'pixelSize',
      },
    }));
    const grow =
      columns < width ? [{ appendDimension: { sheetId, dimension: 'COLUMNS', length: width - columns } }] : [];
    const id = this.snapshot.id();
    sheetsRequest('write', () =>
      sheetsService().batchUpdate({ requests: [...grow, ...widths, ...highlightRequests(sheetId, schema)] }, id),
    );
    this.cells.gridsChanged();
    noteSpreadsheetChange();
    const added = schema.columns.slice(first - 1);
    const header = sheet.getRange(1, first, 1, missing);
    header.setNotes([added.map((c) => c.note ?? '')]);
    header.setFontWeight('bold');
    header.setValues([added.map((c) => c.header)]);
    const rows = sheet.getMaxRows() - 1;
    const formats = added.map((c) => numberFormatFor(c.kind, this.store.currency) ?? 'General');
    if (rows > 0 && formats.some((f) => f !== 'General'))
      sheet.getRange(2, first, rows, missing).setNumberFormats(Array.from({ length: rows }, () => formats));
  }

  /**
   * A sheet the add-on keeps for itself (the Sync log) written by an older version with other
   * columns: renamed "Sync log (until YYYY-MM-DD)" and kept, so no row sits under the wrong
   * heading; a new one is set up. True when it was renamed.
   */
  retiredOldLayout(name: string, schema: TableSchema): boolean {
    const header = this.startReads.of(schema).header;
    if (header.every((v) => v === '' || v === null || v === undefined)) return false;
    if (findHeaderProblem(schema, header, name) === null) return false;
    const sheet = this.spreadsheet.getSheetByName(name);
    if (!sheet) return false;
    const day = Utilities.formatDate(new Date(), this.timeZone, 'yyyy-MM-dd');
    const titles = new Set(this.snapshot.sheetInfos().map((s) => s.title));
    let title = `${schema.sheetName} (until ${day})`;
    for (let n = 2; titles.has(title); n++) title = `${schema.sheetName} (until ${day}, ${n})`;
    sheet.setName(title);
    return true;
  }

  private applyFormats(sheet: Sheet, schema: TableSchema, firstRow: number, count: number): void {
    const formats = schema.columns.map((c) => numberFormatFor(c.kind, this.store.currency) ?? 'General');
    if (formats.every((f) => f === 'General')) return;
    const block: string[][] = [];
    for (let i = 0; i < count; i++) block.push(formats);
    sheet.getRange(firstRow, 1, count, schema.columns.length).setNumberFormats(block);
  }
}
