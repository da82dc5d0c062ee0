/** The spreadsheet part of the local Apps Script runtime. */
export { Workbook, WORKBOOK_CELL_LIMIT, CELL_LIMIT_EXCEEDED } from './workbook';
export type { WorkbookOptions, WorkbookState, DeveloperMetadataRecord, MetadataLocation } from './workbook';
export { SheetModel } from './sheet-model';
export { createSpreadsheetApp, SpreadsheetApp } from './spreadsheet-app';
export { createSheetsService, SheetsAdvancedService } from './sheets-service';
export { exportWorkbookJson, exportWorkbookXlsx } from './export';
export type { WorkbookJson } from './export';
export { epochToSerial, serialToEpoch } from './dates';
export { displayValue, isDateFormat } from './number-format';
export { parseA1 } from './a1';
export { MAX_CELL_CHARACTERS, CELL_TOO_LONG } from './input';
export { openSession } from './session';
export { writeBufferOf, SpreadsheetWriteBuffer } from './write-buffer';
export { linkBigQuery } from './data-source-execution';
