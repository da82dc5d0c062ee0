/**
 * Sets up a table's sheet: headers, notes, widths, number formats and highlights, once, when the
 * sheet is created or found without the schema's newest columns; and retires a Sync log an older
 * version wrote with other columns.
 */
import { columnWidthPx, setUpRequests } from './layout';
import {
  addSheetRequest,
  freezeHeaderRequest,
  headerRowRequest,
  rowFormatRequests,
  tagRequests,
} from './setup-requests';
import { findHeaderProblem } from './header-check';
import { columnTagRequests, followsColumnTags } from './column-tags';
import { highlightRequests } from './highlights';
import { percentColumns, percentTagRequest } from './percent-upgrade';
import { numberFormatFor } from './rows';
import { sheetsService } from './sheet-snapshot';
import { holdBack, noteSpreadsheetChange, sheetsRequest } from './sheets-requests';
import type { CellCount } from './cell-count';
import type { StartReads } from './start-reads';
import type { StoreBinding } from './store-binding';
import type { Grid, SheetInfo } from './sheet-snapshot';
import type { WorkbookSnapshot } from './workbook-snapshot';
import type { TableSchema } from './schema';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type SheetsRequest = GoogleAppsScript.Sheets.Schema.Request;

export class SheetSetUp {
  /** Ids of the sheets this run's set-ups added. */
  private readonly addedIds: number[] = [];
  /** Set-ups of created sheets not sent yet (held back by the Sheets requests' `holdBack`), built when sent. */
  private queued: Array<() => SheetsRequest[]> = [];
  private readonly grown = new Set<number>();
  /** The rows each created sheet not sent yet is added with, by title: its grid grows here (growQueued). */
  private readonly queuedRows = new Map<string, number>();

  constructor(
    private readonly spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
    private readonly timeZone: string,
    private readonly snapshot: WorkbookSnapshot,
    private readonly startReads: StartReads,
    private readonly cells: CellCount,
    private readonly store: StoreBinding,
  ) {}

  /**
   * Creates the table's sheet, tagged for the store (`storeId`, store data only) and set up, in ONE
   * Sheets API batchUpdate (the set-up requests). Formats and widths are set here, once, when the
   * sheet is created (never per run): a user who resizes a column or restyles the header keeps it.
   */
  create(schema: TableSchema, storeId: string | null, rows: number): void {
    const sheetId = this.newSheetId(schema.sheetName);
    const tags = storeId === null ? [] : tagRequests(sheetId, schema, storeId);
    // Held back until the next Sheets API request: sheets created together share its batchUpdate.
    if (this.queued.length === 0) holdBack(() => this.sendQueued());
    const title = schema.sheetName;
    this.queuedRows.set(title, rows);
    this.queued.push(() => {
      const grid = this.queuedRows.get(title) ?? rows;
      return [
        addSheetRequest(sheetId, schema, grid),
        ...tags,
        ...this.requests(sheetId, schema, grid, schema.columns.length),
      ];
    });
    this.cells.added(rows * schema.columns.length);
  }

  /**
   * A created sheet whose set-up is not sent yet is added with `rows` rows (its number formats
   * down to them), in the same request: no SpreadsheetApp insert and formats, and no flush before
   * the next request. False when its set-up was sent (the sheet exists: grown as any other).
   */
  growQueued(title: string, rows: number): boolean {
    const queued = this.queuedRows.get(title);
    if (queued === undefined) return false;
    this.queuedRows.set(title, Math.max(queued, rows));
    return true;
  }

  /**
   * A hidden sheet of `rows` rows and `columns` columns, tagged `tagKey` (found by it whatever its
   * name), queued with the set-ups of this run (ONE batchUpdate with them, or of its own).
   */
  createHidden(title: string, rows: number, columns: number, tagKey: string): void {
    const sheetId = this.newSheetId(title);
    if (this.queued.length === 0) holdBack(() => this.sendQueued());
    this.queued.push(() => [
      {
        addSheet: {
          properties: { sheetId, title, hidden: true, gridProperties: { rowCount: rows, columnCount: columns } },
        },
      },
      {
        createDeveloperMetadata: {
          developerMetadata: { metadataKey: tagKey, metadataValue: '1', location: { sheetId }, visibility: 'DOCUMENT' },
        },
      },
    ]);
    this.cells.added(rows * columns);
  }

  /** A hidden sheet's grid (`from`, as the run found it) grown to `to` rows and columns once a run, queued like createHidden. */
  growHidden(sheetId: number, from: Grid, to: Grid): void {
    if (this.grown.has(sheetId)) return;
    this.grown.add(sheetId);
    const rows = Math.max(0, to.rows - from.rows);
    const columns = Math.max(0, to.columns - from.columns);
    if (rows === 0 && columns === 0) return;
    if (this.queued.length === 0) holdBack(() => this.sendQueued());
    this.queued.push(() => [
      ...(rows > 0 ? [{ appendDimension: { sheetId, dimension: 'ROWS', length: rows } }] : []),
      ...(columns > 0 ? [{ appendDimension: { sheetId, dimension: 'COLUMNS', length: columns } }] : []),
    ]);
    this.cells.added((from.rows + rows) * (from.columns + columns) - from.rows * from.columns);
  }

  private sendQueued(): void {
    const requests = this.queued.flatMap((build) => build());
    this.queued = [];
    this.queuedRows.clear();
    if (requests.length > 0) this.send(requests);
  }

  /** Sets up a sheet found empty (`info`: its grid as the snapshot read it), in ONE batchUpdate. */
  setUp(info: SheetInfo, schema: TableSchema): void {
    const width = schema.columns.length;
    this.send([
      freezeHeaderRequest(info.sheetId, schema),
      ...this.requests(info.sheetId, schema, info.rows, info.columns),
    ]);
    this.cells.added(info.rows * (width - info.columns));
  }

  /** Column count and widths, highlights, the data rows' number formats, then the header row. */
  private requests(sheetId: number, schema: TableSchema, rows: number, columns: number): SheetsRequest[] {
    return [
      ...setUpRequests(sheetId, schema, columns),
      ...highlightRequests(sheetId, schema),
      ...rowFormatRequests(sheetId, schema, this.store.currency, rows),
      headerRowRequest(sheetId, schema),
      // Its percent columns hold fractions from the start: never upgraded (percent-upgrade.ts).
      ...(percentColumns(schema).length > 0 ? [percentTagRequest(sheetId)] : []),
      // Last: after the grid has every column. The sync finds their columns by these tags (column-tags.ts).
      ...(followsColumnTags(schema) ? columnTagRequests(sheetId, schema.columns.map(taggedHeader)) : []),
    ];
  }

  private send(requests: SheetsRequest[]): void {
    const id = this.snapshot.id();
    sheetsRequest('write', () => sheetsService().batchUpdate({ requests }, id));
  }

  /**
   * An id for a sheet the set-up adds (the API takes one so the same batchUpdate can address the
   * sheet): from the table's name, past any id the spreadsheet or this run already uses.
   */
  private newSheetId(title: string): number {
    const taken = new Set(this.snapshot.sheetInfos().map((s) => s.sheetId));
    for (const id of this.addedIds) taken.add(id);
    let id = 0;
    for (const ch of title) id = (id * 31 + ch.charCodeAt(0)) % 1_000_000_007;
    id = 1 + (id % 2_000_000_000);
    while (taken.has(id)) id++;
    this.addedIds.push(id);
    return id;
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
    // Flushed before the set-up's request adds a sheet of the old name.
    noteSpreadsheetChange();
    return true;
  }
}

/** The key a set-up column is tagged with: its header, unless it is not the add-on's. */
function taggedHeader(column: TableSchema['columns'][number]): string | null {
  return column.skip === 'foreign' || column.header === '' ? null : column.header;
}
