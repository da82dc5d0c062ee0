/** Developer metadata objects, their locations, and the finder (withKey/withValue/... then find). */
import type { GridRect } from './a1';
import { Range } from './range';
import { refuseWrite, type SpreadsheetScope } from './scope';
import { Sheet } from './sheet';
import { Spreadsheet } from './spreadsheet';
import type { DeveloperMetadataRecord, MetadataVisibility, Workbook } from './workbook';

/** Row/column metadata whose span meets the rectangle's rows (ROW) or columns (COLUMN). */
export function metadataInRange(workbook: Workbook, sheetId: number, rect: GridRect): DeveloperMetadataRecord[] {
  return workbook.developerMetadata.filter((m) => {
    const loc = m.location;
    if (loc.type === 'ROW')
      return loc.sheetId === sheetId && loc.start <= rect.row + rect.numRows - 1 && loc.end >= rect.row;
    if (loc.type === 'COLUMN')
      return loc.sheetId === sheetId && loc.start <= rect.column + rect.numColumns - 1 && loc.end >= rect.column;
    return false;
  });
}

export function metadataOnSheet(
  workbook: Workbook,
  sheetId: number,
  includeRanges: boolean,
): DeveloperMetadataRecord[] {
  return workbook.developerMetadata.filter((m) => {
    if (m.location.type === 'SPREADSHEET') return false;
    if (m.location.sheetId !== sheetId) return false;
    return includeRanges || m.location.type === 'SHEET';
  });
}

export class DeveloperMetadataLocation {
  constructor(
    private readonly scope: SpreadsheetScope,
    private readonly record: DeveloperMetadataRecord,
  ) {}

  getLocationType(): string {
    return this.record.location.type;
  }

  getSpreadsheet(): Spreadsheet | null {
    return this.record.location.type === 'SPREADSHEET' ? new Spreadsheet(this.scope) : null;
  }

  getSheet(): Sheet | null {
    const loc = this.record.location;
    if (loc.type !== 'SHEET') return null;
    const model = this.scope.workbook.sheetById(loc.sheetId);
    return model ? new Sheet(this.scope, model) : null;
  }

  private _span(type: 'ROW' | 'COLUMN'): Range | null {
    const loc = this.record.location;
    if (loc.type !== type) return null;
    const model = this.scope.workbook.sheetById(loc.sheetId);
    if (!model) return null;
    const count = loc.end - loc.start + 1;
    const rect =
      type === 'ROW'
        ? { row: loc.start, column: 1, numRows: count, numColumns: model.maxColumns }
        : { row: 1, column: loc.start, numRows: model.maxRows, numColumns: count };
    return new Range(this.scope, model, rect);
  }

  getRow(): Range | null {
    return this._span('ROW');
  }

  getColumn(): Range | null {
    return this._span('COLUMN');
  }
}

export class DeveloperMetadata {
  constructor(
    private readonly scope: SpreadsheetScope,
    private readonly record: DeveloperMetadataRecord,
  ) {}

  getId(): number {
    return this.record.id;
  }

  getKey(): string {
    return this.record.key;
  }

  getValue(): string | null {
    return this.record.value;
  }

  getVisibility(): MetadataVisibility {
    return this.record.visibility;
  }

  getLocation(): DeveloperMetadataLocation {
    return new DeveloperMetadataLocation(this.scope, this.record);
  }

  setKey(key: string): DeveloperMetadata {
    refuseWrite(this.scope, 'DeveloperMetadata.setKey');
    if (typeof key !== 'string' || key === '') throw new Error('Invalid argument: key');
    this.record.key = key;
    return this;
  }

  setValue(value: string | null): DeveloperMetadata {
    refuseWrite(this.scope, 'DeveloperMetadata.setValue');
    this.record.value = value == null ? null : String(value);
    return this;
  }

  setVisibility(visibility: MetadataVisibility): DeveloperMetadata {
    refuseWrite(this.scope, 'DeveloperMetadata.setVisibility');
    if (visibility !== 'DOCUMENT' && visibility !== 'PROJECT') throw new Error('Invalid argument: visibility');
    this.record.visibility = visibility;
    return this;
  }

  remove(): void {
    refuseWrite(this.scope, 'DeveloperMetadata.remove');
    this.scope.workbook.removeDeveloperMetadata(this.record.id);
  }
}

/** Collects criteria; find() applies them to the metadata in the finder's scope. */
export class DeveloperMetadataFinder {
  private readonly criteria: Array<(m: DeveloperMetadataRecord) => boolean> = [];

  constructor(
    private readonly scope: SpreadsheetScope,
    private readonly source: () => DeveloperMetadataRecord[],
  ) {}

  withKey(key: string): DeveloperMetadataFinder {
    this.criteria.push((m) => m.key === key);
    return this;
  }

  withValue(value: string): DeveloperMetadataFinder {
    this.criteria.push((m) => m.value === value);
    return this;
  }

  withId(id: number): DeveloperMetadataFinder {
    this.criteria.push((m) => m.id === id);
    return this;
  }

  withVisibility(visibility: MetadataVisibility): DeveloperMetadataFinder {
    this.criteria.push((m) => m.visibility === visibility);
    return this;
  }

  withLocationType(locationType: string): DeveloperMetadataFinder {
    this.criteria.push((m) => m.location.type === locationType);
    return this;
  }

  find(): DeveloperMetadata[] {
    return this.source()
      .filter((m) => this.criteria.every((test) => test(m)))
      .map((m) => new DeveloperMetadata(this.scope, m));
  }
}
