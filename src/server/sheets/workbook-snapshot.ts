/**
 * The spreadsheet as this run's one Sheets API read listed it: every sheet's title, grid and
 * tags, read once, and where each table's sheet is (by its name, else by its table tag).
 */
import { spreadsheetIdOf } from '../platform/context';
import { readSheetInfos, type SheetInfo } from './sheet-snapshot';
import { locateSheet, taggedSheets, type LocatedSheet } from './sheet-tags';
import type { TableSchema } from './schema';
import { ROW_INDEX_METADATA_KEY } from './row-index-buckets';
import { listNewSpreadsheet } from './new-spreadsheet-listing';

export class WorkbookSnapshot {
  private spreadsheetId: string | null = null;
  private sheets: SheetInfo[] | null = null;
  /** Sheets by table tag, from the snapshot. */
  private tagged: Map<string, SheetInfo[]> | null = null;

  constructor(private readonly spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet) {}

  id(): string {
    if (this.spreadsheetId === null) this.spreadsheetId = spreadsheetIdOf(this.spreadsheet);
    return this.spreadsheetId;
  }

  /** The run found no sync state: a plainly new spreadsheet is listed without the Sheets API (new-spreadsheet-listing). */
  private mayBeNew = false;

  /** Every sheet's title, grid and tags as read at the run's start (one call per run). */
  sheetInfos(): SheetInfo[] {
    return (this.sheets ??= (this.mayBeNew ? listNewSpreadsheet(this.spreadsheet) : null) ?? readSheetInfos(this.id()));
  }

  /** Before the first sheetInfos(): the document holds no sync state. */
  neverSynced(): void {
    this.mayBeNew = true;
  }

  /** Whether this run's one read has been made (sheetInfos then costs nothing). */
  wasRead(): boolean {
    return this.sheets !== null;
  }

  /** The sheets as this run's one Sheets API read listed them, and whether each is a managed table. */
  scannedSheets(): Array<{ title: string; rows: number; columns: number; managed: boolean }> {
    const tagged = new Set<number>();
    for (const sheets of this.taggedSheets().values()) for (const s of sheets) tagged.add(s.sheetId);
    return this.sheetInfos().map((s) => ({
      title: s.title,
      rows: s.rows,
      columns: s.columns,
      // The hidden row index holds no formulas: not scanned as the user's sheets are.
      managed: tagged.has(s.sheetId) || s.tags.some((t) => t.key === ROW_INDEX_METADATA_KEY),
    }));
  }

  /** The table's sheet; throws when two sheets carry its tag (SheetLayoutError). */
  locate(table: TableSchema): LocatedSheet | null {
    return locateSheet(this.sheetInfos(), table, () => this.taggedSheets());
  }

  /** As locate, with a sheet that cannot be located unambiguously taken as none (left to the set-up to report). */
  locateIfClear(table: TableSchema): LocatedSheet | null {
    try {
      return this.locate(table);
    } catch {
      return null;
    }
  }

  private taggedSheets(): Map<string, SheetInfo[]> {
    return (this.tagged ??= taggedSheets(this.sheetInfos()));
  }
}
