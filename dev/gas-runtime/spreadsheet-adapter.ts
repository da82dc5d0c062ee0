import type { CallInterceptor, ExecutionServiceContext, UiLog } from './types.js';

/**
 * The spreadsheet engineer's module (SpreadsheetApp and Advanced Sheets), loaded lazily so the runtime's
 * other services work (and are tested) independently of it. The shapes below are the agreed API.
 */

export interface WorkbookLike {
  readonly id: string;
  toJSON(): unknown;
}

export interface WorkbookJson {
  sheets: Record<string, unknown[][]>;
  formulas: Record<string, Array<[number, number, string]>>;
  stats: Record<string, unknown>;
  /** Embedded charts per sheet (the export's ChartJson), when a sheet has any. */
  charts?: Record<string, ExportedChart[]>;
  /** Conditional format rules per sheet (the export's ConditionalFormatJson), when a sheet has any. */
  conditionalFormats?: Record<string, ExportedConditionalFormat[]>;
}

export interface ExportedConditionalFormat {
  ranges: string[];
  condition: { type: string; values: string[] };
  format: Record<string, unknown>;
}

export interface ExportedChart {
  chartId: number | null;
  type: string;
  ranges: string[];
  title: string | null;
  options: Record<string, unknown>;
  position: { anchorRow: number; anchorColumn: number; offsetX: number; offsetY: number };
  numHeaders: number;
}

export interface SpreadsheetModule {
  Workbook: { new (options: { timeZone: string; id: string }): WorkbookLike; fromJSON(state: unknown): WorkbookLike };
  /** `open` finds the other spreadsheets the execution's user may open by id (DocumentAccess). */
  createSpreadsheetApp(
    workbook: WorkbookLike,
    ctx: ExecutionServiceContext,
    ui: UiLog,
    open?: (id: string) => WorkbookLike | 'missing' | undefined,
  ): object;
  createSheetsService(workbook: WorkbookLike, ctx: ExecutionServiceContext): object;
  /** Connects the execution's SpreadsheetApp to the runtime's BigQuery (Connected Sheets: spreadsheet/data-source*.ts). */
  linkBigQuery?(
    ctx: ExecutionServiceContext,
    link: { warehouse: unknown; now: () => number; oauthScopes: string[] | null },
  ): void;
  /** The spreadsheet's SpreadsheetApp write buffer (SpreadsheetWriteBuffer). */
  writeBufferOf(workbook: WorkbookLike): CallInterceptor;
}

export interface ExportModule {
  exportWorkbookJson(workbook: WorkbookLike, stats: Record<string, unknown>): WorkbookJson;
  exportWorkbookXlsx(workbook: WorkbookLike, path: string): Promise<void>;
}

const SPREADSHEET_MODULE = './spreadsheet/index.js';
const EXPORT_MODULE = './spreadsheet/export.js';

export async function loadSpreadsheetModule(): Promise<SpreadsheetModule> {
  return (await import(/* @vite-ignore */ SPREADSHEET_MODULE)) as SpreadsheetModule;
}

export async function loadExportModule(): Promise<ExportModule> {
  return (await import(/* @vite-ignore */ EXPORT_MODULE)) as ExportModule;
}
