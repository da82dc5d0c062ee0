/** SpreadsheetApp's Spreadsheet: the active (only) workbook of the runtime. */
import { assertTimeZone } from './dates';
import { DeveloperMetadata, DeveloperMetadataFinder } from './developer-metadata';
import type { Range } from './range';
import { splitMetadataArgs } from './range';
import { refuseWrite, requireInteger, type SpreadsheetScope } from './scope';
import { rangeFromA1, Sheet } from './sheet';
import * as connected from './data-source';

export class Spreadsheet {
  constructor(private readonly scope: SpreadsheetScope) {}

  getId(): string {
    return this.scope.workbook.id;
  }

  getName(): string {
    return this.scope.workbook.name;
  }

  rename(newName: string): void {
    refuseWrite(this.scope, 'Spreadsheet.rename');
    this.scope.workbook.name = String(newName);
  }

  getUrl(): string {
    return this.scope.workbook.url;
  }

  getSheets(): Sheet[] {
    return this.scope.workbook.sheets.map((m) => new Sheet(this.scope, m));
  }

  getNumSheets(): number {
    return this.scope.workbook.sheets.length;
  }

  getSheetByName(name: string): Sheet | null {
    const model = this.scope.workbook.sheetByName(String(name));
    return model ? new Sheet(this.scope, model) : null;
  }

  getSheetById(id: number): Sheet | null {
    const model = this.scope.workbook.sheetById(Number(id));
    return model ? new Sheet(this.scope, model) : null;
  }

  getActiveSheet(): Sheet {
    const wb = this.scope.workbook;
    const active = this.scope.activeSheetId === undefined ? undefined : wb.sheetById(this.scope.activeSheetId);
    return new Sheet(this.scope, active ?? wb.sheets[0]);
  }

  getRange(a1Notation: string): Range {
    return rangeFromA1(this.scope, a1Notation, this.getActiveSheet()._model());
  }

  /** insertSheet(), insertSheet(index), insertSheet(name), insertSheet(name, index). Index is 0-based. */
  insertSheet(nameOrIndex?: string | number, index?: number): Sheet {
    refuseWrite(this.scope, 'Spreadsheet.insertSheet');
    const name = typeof nameOrIndex === 'string' ? nameOrIndex : undefined;
    const at = typeof nameOrIndex === 'number' ? nameOrIndex : index;
    if (at !== undefined) requireInteger(at, 'SpreadsheetApp.Spreadsheet.insertSheet');
    const model = this.scope.workbook.insertSheet(name, at);
    this.scope.activeSheetId = model.sheetId; // Sheets activates the inserted sheet
    return new Sheet(this.scope, model);
  }

  deleteSheet(sheet: Sheet): void {
    refuseWrite(this.scope, 'Spreadsheet.deleteSheet');
    if (!(sheet instanceof Sheet)) {
      throw new Error(
        "The parameters (String) don't match the method signature for SpreadsheetApp.Spreadsheet.deleteSheet.",
      );
    }
    this.scope.workbook.deleteSheet(sheet._model().sheetId);
  }

  /** Connected Sheets (data-source.ts): a new data source sheet, made active, its data executing. */
  insertDataSourceSheet(spec: unknown): Promise<connected.DataSourceSheet> {
    refuseWrite(this.scope, 'Spreadsheet.insertDataSourceSheet');
    return connected.insertDataSourceSheet(this.scope, spec);
  }

  getDataSources(): connected.DataSource[] {
    return connected.getDataSources(this.scope);
  }

  getDataSourceSheets(): connected.DataSourceSheet[] {
    return connected.getDataSourceSheets(this.scope);
  }

  refreshAllDataSources(): Promise<void> {
    refuseWrite(this.scope, 'Spreadsheet.refreshAllDataSources');
    return connected.refreshAllDataSources(this.scope);
  }

  getSpreadsheetTimeZone(): string {
    return this.scope.workbook.timeZone;
  }

  setSpreadsheetTimeZone(timezone: string): void {
    refuseWrite(this.scope, 'Spreadsheet.setSpreadsheetTimeZone');
    try {
      assertTimeZone(String(timezone));
    } catch {
      throw new Error('Invalid argument: timezone');
    }
    this.scope.workbook.timeZone = String(timezone);
  }

  getSpreadsheetLocale(): string {
    return this.scope.workbook.locale;
  }

  addDeveloperMetadata(key: string, valueOrVisibility?: string, visibility?: string): Spreadsheet {
    refuseWrite(this.scope, 'Spreadsheet.addDeveloperMetadata');
    const [value, vis] = splitMetadataArgs(valueOrVisibility, visibility);
    this.scope.workbook.addDeveloperMetadata(key, value, vis, { type: 'SPREADSHEET' });
    return this;
  }

  getDeveloperMetadata(): DeveloperMetadata[] {
    return this.scope.workbook.developerMetadata
      .filter((m) => m.location.type === 'SPREADSHEET')
      .map((m) => new DeveloperMetadata(this.scope, m));
  }

  createDeveloperMetadataFinder(): DeveloperMetadataFinder {
    return new DeveloperMetadataFinder(this.scope, () => this.scope.workbook.developerMetadata);
  }

  toast(msg: string, title?: string, timeoutSeconds?: number): void {
    refuseWrite(this.scope, 'Spreadsheet.toast');
    this.scope.ui.toast({
      message: String(msg),
      title: title === undefined ? '' : String(title),
      timeoutSeconds: timeoutSeconds ?? 5,
    });
  }
}
