/** The Advanced Sheets service global `Sheets` (Sheets.Spreadsheets, Sheets.Spreadsheets.Values). */
import { parseConditionalFormat } from './conditional-formats';
import type { ExecutionServiceContext } from '../types';
import { applyFieldMask, FieldMaskError, parseFieldMask, type FieldTree } from './field-mask';
import { gridDataBySheet, type GridParts } from './grid-data';
import { deleteDeveloperMetadata } from './metadata-delete';
import { checkAccess, GoogleJsonResponseException, type ApiScope } from './sheets-api-common';
import { checkPayloadSize } from './sheets-payload-limit';
import type { SheetModel } from './sheet-model';
import { SheetsValues } from './sheets-values';
import { updateCells } from './update-cells';
import type { DeveloperMetadataRecord, Workbook, WorkbookState } from './workbook';

interface GridProperties {
  rowCount?: number;
  columnCount?: number;
  frozenRowCount?: number;
  frozenColumnCount?: number;
}

interface SheetPropertiesInput {
  sheetId?: number;
  title?: string;
  index?: number;
  hidden?: boolean;
  gridProperties?: GridProperties;
}

type BatchRequest = Record<string, Record<string, unknown> | undefined>;

function sheetProperties(workbook: Workbook, sheet: SheetModel): Record<string, unknown> {
  const grid: Record<string, number> = { rowCount: sheet.maxRows, columnCount: sheet.maxColumns };
  if (sheet.frozenRows) grid.frozenRowCount = sheet.frozenRows;
  if (sheet.frozenColumns) grid.frozenColumnCount = sheet.frozenColumns;
  const props: Record<string, unknown> = {
    sheetId: sheet.sheetId,
    title: sheet.name,
    index: workbook.sheets.indexOf(sheet),
    sheetType: 'GRID',
    gridProperties: grid,
  };
  if (sheet.hidden) props.hidden = true;
  return props;
}

/** "If a field mask is set, the includeGridData parameter is ignored" (spreadsheets.get): the mask must name sheets.data. */
function wantsGridData(mask: FieldTree | undefined, includeGridData: boolean | undefined): boolean {
  if (mask === undefined) return includeGridData === true;
  if (mask.has('*')) return true;
  const sheets = mask.get('sheets');
  return sheets === true || (sheets !== undefined && (sheets.has('data') || sheets.has('*')));
}

/**
 * The GridData parts a mask names: a mask of `sheets.data.columnMetadata` alone reads no cell
 * (the response would drop them anyway). Column properties come with a mask naming them; without
 * a mask (includeGridData) only the cells are modelled.
 */
function gridParts(mask: FieldTree | undefined): GridParts {
  const sheets = mask?.get('sheets');
  const data = sheets === undefined || sheets === true ? sheets : (sheets.get('data') ?? sheets.get('*'));
  if (mask === undefined || mask.has('*') || data === undefined) return { cells: true, columns: null };
  if (data === true || data.has('*')) return { cells: true, formats: true, columns: metadataResource };
  return {
    cells: data.has('rowData'),
    formats: names(data, ['rowData', 'values', 'userEnteredFormat', 'numberFormat']),
    columns: data.has('columnMetadata') ? metadataResource : null,
  };
}

/** Whether the mask selects the field at `path` (or all of it, or a part of it). */
function names(tree: FieldTree, path: readonly string[]): boolean {
  const sub = tree.get(path[0]) ?? tree.get('*');
  if (sub === undefined) return false;
  return sub === true || path.length === 1 || names(sub, path.slice(1));
}

/** Sets the fields named in the mask ("title,gridProperties.frozenRowCount", "*"). */
function applyMask(sheet: SheetModel, props: SheetPropertiesInput, fields: string): void {
  const all = fields.trim() === '*';
  const has = (path: string): boolean =>
    all ||
    fields
      .split(',')
      .map((f) => f.trim())
      .some((f) => f === path || path.startsWith(`${f}.`));
  if (has('title') && props.title !== undefined) sheet.name = props.title;
  if (has('hidden')) sheet.hidden = props.hidden === true;
  const g = props.gridProperties ?? {};
  if (has('gridProperties.frozenRowCount')) sheet.frozenRows = g.frozenRowCount ?? 0;
  if (has('gridProperties.frozenColumnCount')) sheet.frozenColumns = g.frozenColumnCount ?? 0;
  if (has('gridProperties.rowCount') && g.rowCount !== undefined) sheet.maxRows = g.rowCount;
  if (has('gridProperties.columnCount') && g.columnCount !== undefined) sheet.maxColumns = g.columnCount;
}

export class SheetsSpreadsheets {
  static gasName = 'Sheets.Spreadsheets';
  readonly Values: SheetsValues;

  constructor(private readonly scope: ApiScope) {
    this.Values = new SheetsValues(scope);
  }

  /**
   * The spreadsheet resource; `fields` selects parts of it as the API's partial responses do. Grid
   * data comes with `includeGridData` (ignored when a field mask is set) or a mask naming
   * `sheets.data` (gridDataBySheet); `ranges` keeps only the sheets they name.
   */
  get(
    spreadsheetId: string,
    optionalArgs?: { fields?: string; ranges?: string | string[]; includeGridData?: boolean },
  ): Record<string, unknown> {
    checkAccess(this.scope, 'spreadsheets.get', spreadsheetId);
    const wb = this.scope.workbook;
    const fields = optionalArgs?.fields;
    let mask: FieldTree | undefined;
    try {
      mask = fields === undefined ? undefined : parseFieldMask(fields);
    } catch (e) {
      if (e instanceof FieldMaskError) throw new GoogleJsonResponseException('spreadsheets.get', e.message, 400);
      throw e;
    }
    const ranges =
      optionalArgs?.ranges === undefined
        ? undefined
        : Array.isArray(optionalArgs.ranges)
          ? optionalArgs.ranges
          : [optionalArgs.ranges];
    const grids =
      ranges !== undefined || wantsGridData(mask, optionalArgs?.includeGridData)
        ? gridDataBySheet(wb, ranges, gridParts(mask))
        : undefined;
    const full: Record<string, unknown> = {
      spreadsheetId: wb.id,
      properties: { title: wb.name, locale: wb.locale, timeZone: wb.timeZone },
      sheets: wb.sheets
        .filter((s) => ranges === undefined || grids?.has(s))
        .map((s) => {
          const sheet: Record<string, unknown> = { properties: sheetProperties(wb, s) };
          const tags = wb.developerMetadata.filter(
            (m) => m.location.type === 'SHEET' && m.location.sheetId === s.sheetId,
          );
          if (tags.length > 0) sheet.developerMetadata = tags.map(metadataResource);
          if (grids && wantsGridData(mask, optionalArgs?.includeGridData)) sheet.data = grids.get(s);
          return sheet;
        }),
      spreadsheetUrl: wb.url,
    };
    const own = wb.developerMetadata.filter((m) => m.location.type === 'SPREADSHEET');
    if (own.length > 0) full.developerMetadata = own.map(metadataResource);
    return mask === undefined ? full : (applyFieldMask(full, mask) as Record<string, unknown>);
  }

  /** Applies the requests in order; any failure restores the workbook (the API is atomic). */
  batchUpdate(
    resource: { requests?: BatchRequest[] },
    spreadsheetId: string,
  ): { spreadsheetId: string; replies: Array<Record<string, unknown>> } {
    const method = 'spreadsheets.batchUpdate';
    checkAccess(this.scope, method, spreadsheetId);
    checkPayloadSize(method, resource, 'send fewer requests or cells a request');
    const requests = Array.isArray(resource?.requests) ? resource.requests : [];
    const before: WorkbookState = this.scope.workbook.toJSON();
    try {
      return { spreadsheetId, replies: requests.map((r, i) => this._one(r, i)) };
    } catch (e) {
      restore(this.scope.workbook, before);
      if (e instanceof GoogleJsonResponseException) throw e;
      throw new GoogleJsonResponseException(method, (e as Error).message, 400);
    }
  }

  private _sheet(sheetId: unknown, i: number, kind: string): SheetModel {
    const sheet = this.scope.workbook.sheetById(Number(sheetId));
    if (!sheet)
      throw new GoogleJsonResponseException(
        'spreadsheets.batchUpdate',
        `Invalid requests[${i}].${kind}: No grid with id: ${String(sheetId)}`,
        400,
      );
    return sheet;
  }

  /**
   * CreateDeveloperMetadataRequest on a sheet
   * (developers.google.com/workspace/sheets/api/reference/rest/v4/spreadsheets/request#createdevelopermetadatarequest):
   * a key, an optional value, a visibility (DOCUMENT or PROJECT) and a location given by sheetId;
   * the other locations (spreadsheet, rows, columns) are refused as not modelled here.
   */
  private _createMetadata(body: Record<string, unknown>, i: number): Record<string, unknown> {
    const where = `Invalid requests[${i}].createDeveloperMetadata`;
    const m = (body.developerMetadata ?? {}) as {
      metadataKey?: unknown;
      metadataValue?: unknown;
      visibility?: unknown;
      location?: { sheetId?: unknown; spreadsheet?: unknown; dimensionRange?: unknown };
    };
    if (typeof m.metadataKey !== 'string' || m.metadataKey === '')
      throw new Error(`${where}: metadataKey is required.`);
    if (m.visibility !== 'DOCUMENT' && m.visibility !== 'PROJECT')
      throw new Error(`${where}: visibility must be DOCUMENT or PROJECT.`);
    const value = m.metadataValue === undefined || m.metadataValue === null ? null : String(m.metadataValue);
    if (m.location?.dimensionRange !== undefined && m.location.sheetId === undefined && !m.location.spreadsheet) {
      // DeveloperMetadataLocation.dimensionRange: whole rows or columns, end exclusive (the API's DimensionRange).
      const range = m.location.dimensionRange as {
        sheetId?: unknown;
        dimension?: unknown;
        startIndex?: unknown;
        endIndex?: unknown;
      };
      const sheet = this._sheet(range.sheetId, i, 'createDeveloperMetadata');
      const start = range.startIndex;
      const end = range.endIndex;
      const size = range.dimension === 'COLUMNS' ? sheet.maxColumns : sheet.maxRows;
      if (range.dimension !== 'COLUMNS' && range.dimension !== 'ROWS')
        throw new Error(`${where}: dimensionRange.dimension must be ROWS or COLUMNS.`);
      if (
        !Number.isInteger(start) ||
        !Number.isInteger(end) ||
        (start as number) < 0 ||
        (end as number) <= (start as number) ||
        (end as number) > size
      )
        throw new Error(`${where}: dimensionRange must lie within the grid of sheet ${sheet.sheetId}.`);
      const record = this.scope.workbook.addDeveloperMetadata(m.metadataKey, value, m.visibility, {
        type: range.dimension === 'COLUMNS' ? 'COLUMN' : 'ROW',
        sheetId: sheet.sheetId,
        start: (start as number) + 1,
        end: end as number,
      });
      return metadataResource(record);
    }
    if (
      m.location?.sheetId === undefined ||
      m.location.spreadsheet !== undefined ||
      m.location.dimensionRange !== undefined
    )
      throw new Error(
        `${where}: the local runtime models sheet locations (location.sheetId) and dimension ranges only.`,
      );
    const sheet = this._sheet(m.location.sheetId, i, 'createDeveloperMetadata');
    const record = this.scope.workbook.addDeveloperMetadata(m.metadataKey, value, m.visibility, {
      type: 'SHEET',
      sheetId: sheet.sheetId,
    });
    return metadataResource(record);
  }

  private _one(request: BatchRequest, i: number): Record<string, unknown> {
    const wb = this.scope.workbook;
    const [kind, body] = Object.entries(request ?? {})[0] ?? ['', undefined];
    const b = body ?? {};
    switch (kind) {
      case 'addSheet': {
        const props = (b.properties ?? {}) as SheetPropertiesInput;
        const grid = props.gridProperties ?? {};
        // AddSheetRequest: "If set, the ID must not conflict with any existing sheet ID. If set, it must be non-negative."
        if (props.sheetId !== undefined && (!Number.isInteger(props.sheetId) || props.sheetId < 0))
          throw new Error(`Invalid requests[${i}].addSheet: sheetId must be non-negative.`);
        if (props.sheetId !== undefined && wb.sheetById(props.sheetId))
          throw new Error(`Invalid requests[${i}].addSheet: A sheet with id ${props.sheetId} already exists.`);
        const sheet = wb.insertSheet(props.title, props.index, {
          rows: grid.rowCount,
          columns: grid.columnCount,
          sheetId: props.sheetId,
        });
        applyMask(
          sheet,
          { ...props, title: undefined },
          'hidden,gridProperties.frozenRowCount,gridProperties.frozenColumnCount',
        );
        return { addSheet: { properties: sheetProperties(wb, sheet) } };
      }
      case 'deleteSheet':
        wb.deleteSheet(this._sheet(b.sheetId, i, kind).sheetId);
        return {};
      case 'updateSheetProperties': {
        const props = (b.properties ?? {}) as SheetPropertiesInput;
        const sheet = this._sheet(props.sheetId, i, kind);
        if (typeof b.fields !== 'string')
          throw new Error(
            `Invalid requests[${i}].updateSheetProperties: You must specify which fields you want to update.`,
          );
        const rows = props.gridProperties?.rowCount ?? sheet.maxRows;
        const columns = props.gridProperties?.columnCount ?? sheet.maxColumns;
        wb.assertCanAddCells(rows * columns - sheet.maxRows * sheet.maxColumns);
        if (props.title !== undefined && props.title !== sheet.name) wb.renameSheet(sheet, props.title);
        applyMask(sheet, props, b.fields);
        return {};
      }
      case 'appendDimension': {
        const sheet = this._sheet(b.sheetId, i, kind);
        const length = Number(b.length);
        if (!Number.isInteger(length) || length < 1)
          throw new Error(`Invalid requests[${i}].appendDimension: length must be at least 1`);
        if (b.dimension === 'ROWS') wb.growSheet(sheet, length, 0);
        else if (b.dimension === 'COLUMNS') wb.growSheet(sheet, 0, length);
        else throw new Error(`Invalid requests[${i}].appendDimension: dimension must be ROWS or COLUMNS`);
        return {};
      }
      case 'addConditionalFormatRule': {
        const { rule, index } = parseConditionalFormat(
          b,
          i,
          (id) => wb.sheetById(id) !== undefined && wb.sheetById(id) !== null,
        );
        const sheet = this._sheet(rule.ranges[0].sheetId, i, kind);
        sheet.conditionalFormats.splice(Math.min(index, sheet.conditionalFormats.length), 0, rule);
        return {};
      }
      case 'updateDimensionProperties':
        setColumnPixelSize(this._sheet((b.range as DimensionRangeInput | undefined)?.sheetId, i, kind), b, i);
        return {};
      case 'updateCells': {
        const start = b.start as { sheetId?: number } | undefined;
        updateCells(this._sheet(start?.sheetId, i, kind), b, i, wb.timeZone);
        return {};
      }
      case 'createDeveloperMetadata':
        return { createDeveloperMetadata: { developerMetadata: this._createMetadata(b, i) } };
      case 'deleteDeveloperMetadata':
        return {
          deleteDeveloperMetadata: {
            deletedDeveloperMetadata: deleteDeveloperMetadata(wb, b, i).map(metadataResource),
          },
        };
      case 'repeatCell':
        repeatNumberFormat(this._sheet((b.range as GridRangeInput | undefined)?.sheetId, i, kind), b, i);
        return {};
      default:
        throw new GoogleJsonResponseException(
          'spreadsheets.batchUpdate',
          `Invalid JSON payload received. Unknown name "${kind}" at 'requests[${i}]': Cannot find field.`,
          400,
        );
    }
  }
}

interface DimensionRangeInput {
  sheetId?: number;
  dimension?: string;
  startIndex?: number;
  endIndex?: number;
}

/**
 * updateDimensionProperties for column widths (pixelSize), the one dimension property the model
 * holds: 0-based half-open indexes, an omitted end meaning the last column. Row heights and
 * hiding are refused with a clear message rather than silently dropped.
 */
function setColumnPixelSize(sheet: SheetModel, body: Record<string, unknown>, i: number): void {
  const where = `Invalid requests[${i}].updateDimensionProperties`;
  const range = (body.range ?? {}) as DimensionRangeInput;
  const props = (body.properties ?? {}) as { pixelSize?: unknown };
  if (typeof body.fields !== 'string' || body.fields === '')
    throw new Error(`${where}: You must specify which fields you want to update.`);
  const fields = body.fields.split(',').map((f) => f.trim());
  if (fields.some((f) => f !== 'pixelSize' && f !== '*')) {
    throw new Error(`${where}: the local runtime models only pixelSize (fields "${body.fields}").`);
  }
  if (range.dimension !== 'COLUMNS') {
    throw new Error(`${where}: the local runtime models column widths only (dimension ${String(range.dimension)}).`);
  }
  const start = range.startIndex ?? 0;
  const end = range.endIndex ?? sheet.maxColumns;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end <= start)
    throw new Error(`${where}: invalid range [${start}, ${end}).`);
  if (end > sheet.maxColumns)
    throw new Error(`${where}: endIndex ${end} is past the sheet's ${sheet.maxColumns} columns.`);
  const size = props.pixelSize;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 0)
    throw new Error(`${where}: pixelSize must be a whole number of pixels.`);
  for (let c = start; c < end; c++) sheet.columnWidths[String(c + 1)] = size;
}

interface GridRangeInput {
  sheetId?: number;
  startRowIndex?: number;
  endRowIndex?: number;
  startColumnIndex?: number;
  endColumnIndex?: number;
}

/**
 * repeatCell with a number format (developers.google.com/workspace/sheets/api/reference/rest/v4/spreadsheets/request#repeatcellrequest):
 * the one cell property the model holds. A GridRange is 0-based and half-open; omitted bounds are
 * the sheet's edges. Other fields are refused with a clear message rather than silently dropped,
 * and a range past the grid fails as a Values write past it does.
 */
function repeatNumberFormat(sheet: SheetModel, body: Record<string, unknown>, i: number): void {
  const where = `Invalid requests[${i}].repeatCell`;
  if (typeof body.fields !== 'string' || body.fields === '')
    throw new Error(`${where}: You must specify which fields you want to update.`);
  if (body.fields.split(',').some((f) => f.trim() !== 'userEnteredFormat.numberFormat')) {
    throw new Error(
      `${where}: the local runtime models only userEnteredFormat.numberFormat (fields "${body.fields}").`,
    );
  }
  const range = (body.range ?? {}) as GridRangeInput;
  const rows: [number, number] = [range.startRowIndex ?? 0, range.endRowIndex ?? sheet.maxRows];
  const columns: [number, number] = [range.startColumnIndex ?? 0, range.endColumnIndex ?? sheet.maxColumns];
  for (const [start, end] of [rows, columns]) {
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end <= start)
      throw new Error(`${where}: invalid range [${start}, ${end}).`);
  }
  if (rows[1] > sheet.maxRows || columns[1] > sheet.maxColumns) {
    throw new Error(
      `${where}: Range exceeds grid limits. Max rows: ${sheet.maxRows}, max columns: ${sheet.maxColumns}`,
    );
  }
  const format = (
    (body.cell as { userEnteredFormat?: { numberFormat?: { pattern?: unknown } } } | undefined)?.userEnteredFormat
      ?.numberFormat ?? {}
  ).pattern;
  if (format !== undefined && typeof format !== 'string')
    throw new Error(`${where}: numberFormat.pattern must be text.`);
  for (let r = rows[0] + 1; r <= rows[1]; r++)
    for (let c = columns[0] + 1; c <= columns[1]; c++) sheet.setFormat(r, c, format);
}

/** A DeveloperMetadata resource as the API returns it (metadataValue absent when unset). */
function metadataResource(m: DeveloperMetadataRecord): Record<string, unknown> {
  const loc = m.location;
  const location: Record<string, unknown> =
    loc.type === 'SPREADSHEET'
      ? { locationType: 'SPREADSHEET', spreadsheet: true }
      : loc.type === 'SHEET'
        ? { locationType: 'SHEET', sheetId: loc.sheetId }
        : {
            locationType: loc.type,
            dimensionRange: {
              sheetId: loc.sheetId,
              dimension: loc.type === 'ROW' ? 'ROWS' : 'COLUMNS',
              startIndex: loc.start - 1,
              endIndex: loc.end,
            },
          };
  const out: Record<string, unknown> = { metadataId: m.id, metadataKey: m.key };
  if (m.value !== null && m.value !== '') out.metadataValue = m.value;
  out.location = location;
  out.visibility = m.visibility;
  return out;
}

/** Puts a saved state back into the same Workbook object (other objects hold references to it). */
function restore(workbook: Workbook, state: WorkbookState): void {
  const saved = (workbook.constructor as typeof Workbook).fromJSON(state);
  // Reuse the live models so Sheet objects the script holds stay valid.
  const models = saved.sheets.map((s) => {
    const live = workbook.sheetById(s.sheetId);
    return live ? Object.assign(live, s) : s;
  });
  workbook.sheets.splice(0, workbook.sheets.length, ...models);
  workbook.developerMetadata = saved.developerMetadata;
  workbook.name = saved.name;
  workbook.timeZone = saved.timeZone;
}

export class SheetsAdvancedService {
  static gasName = 'Sheets';
  readonly Spreadsheets: SheetsSpreadsheets;

  constructor(scope: ApiScope) {
    this.Spreadsheets = new SheetsSpreadsheets(scope);
  }
}

export function createSheetsService(workbook: Workbook, ctx: ExecutionServiceContext): SheetsAdvancedService {
  return new SheetsAdvancedService({ workbook, ctx });
}
