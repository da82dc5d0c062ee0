/** Sheets.Spreadsheets.Values of the Advanced Sheets service (v4 semantics, on the host workbook). */
import { columnToLetters, resolveReference, type GridRect } from './a1';
import { apiWrite, type CellWrite } from './input';
import { displayValue, isDateFormat, type CellScalar } from './number-format';
import {
  apiRange,
  checkAccess,
  ensureGrid,
  GoogleJsonResponseException,
  printRange,
  toRows,
  type ApiScope,
} from './sheets-api-common';
import type { SheetModel } from './sheet-model';
import { a1RangesOf, METHOD as BY_DATA_FILTER } from './sheets-values-data-filter';
import { checkPayloadSize } from './sheets-payload-limit';

type InputOption = 'RAW' | 'USER_ENTERED';

interface ValueRangeInput {
  range?: string;
  majorDimension?: string;
  values?: unknown[][];
}

interface ReadOptions {
  valueRenderOption?: 'FORMATTED_VALUE' | 'UNFORMATTED_VALUE' | 'FORMULA';
  dateTimeRenderOption?: 'SERIAL_NUMBER' | 'FORMATTED_STRING';
  majorDimension?: 'ROWS' | 'COLUMNS';
}

export interface UpdateValuesResponse {
  spreadsheetId: string;
  updatedRange: string;
  updatedRows: number;
  updatedColumns: number;
  updatedCells: number;
}

/** A validated write: nothing in the workbook changes until apply(). */
interface WritePlan {
  sheet: SheetModel;
  rect: GridRect;
  writes: Array<Array<CellWrite | undefined>>;
}

function inputOption(method: string, option: unknown): InputOption {
  if (option === 'RAW' || option === 'USER_ENTERED') return option;
  if (option === undefined)
    throw new GoogleJsonResponseException(method, "'valueInputOption' is required but not specified", 400);
  throw new GoogleJsonResponseException(method, `Invalid value at 'value_input_option' (${String(option)})`, 400);
}

/** Last row of the rectangle holding a value or formula (0 when none): the "table" append extends. */
function lastRowIn(sheet: SheetModel, rect: GridRect): number {
  const [from, to] = [rect.column, rect.column + rect.numColumns - 1];
  for (let r = Math.min(sheet.rows.length, rect.row + rect.numRows - 1); r >= rect.row; r--) {
    for (let c = from; c <= to; c++) if (sheet.value(r, c) !== undefined || sheet.formula(r, c) !== undefined) return r;
  }
  return 0;
}

const RENDER_OPTIONS: readonly unknown[] = [undefined, 'FORMATTED_VALUE', 'UNFORMATTED_VALUE', 'FORMULA'];
const DATE_TIME_OPTIONS: readonly unknown[] = [undefined, 'SERIAL_NUMBER', 'FORMATTED_STRING'];

/** The API refuses an unknown enum value rather than falling back to the default. */
function checkReadOptions(method: string, options: ReadOptions): void {
  if (!RENDER_OPTIONS.includes(options.valueRenderOption)) {
    throw new GoogleJsonResponseException(
      method,
      `Invalid value at 'value_render_option' (${String(options.valueRenderOption)})`,
      400,
    );
  }
  if (!DATE_TIME_OPTIONS.includes(options.dateTimeRenderOption)) {
    throw new GoogleJsonResponseException(
      method,
      `Invalid value at 'date_time_render_option' (${String(options.dateTimeRenderOption)})`,
      400,
    );
  }
}

/**
 * Values.batchGet is an HTTP GET with every range in its query string. Google documents no URL
 * limit; public reports show the call failing around 20,000 characters (dust-tt/dust PR #4042,
 * "chunk ranges in Google Sheets batchGet", which sends about 1,500 characters of ranges a
 * request). The stricter reading: a URL longer than this is refused, as Google's front end
 * answers 414 Request-URI Too Large.
 */
export const BATCH_GET_URL_LIMIT = 16_384;

/** The URL as the REST API receives it: every range and option percent-encoded in the query string. */
export function batchGetUrlLength(
  spreadsheetId: string,
  ranges: readonly string[],
  options: ReadOptions | undefined,
): number {
  const query = ranges.map((r) => `ranges=${encodeURIComponent(r)}`);
  for (const k of ['valueRenderOption', 'dateTimeRenderOption', 'majorDimension'] as const) {
    const v = options?.[k];
    if (v !== undefined) query.push(`${k}=${encodeURIComponent(v)}`);
  }
  return `https://sheets.googleapis.com/v4/spreadsheets/${encodeURIComponent(spreadsheetId)}/values:batchGet?${query.join('&')}`
    .length;
}

export class SheetsValues {
  static gasName = 'Sheets.Spreadsheets.Values';

  constructor(private readonly scope: ApiScope) {}

  private _plan(
    method: string,
    rangeText: unknown,
    input: ValueRangeInput | undefined,
    option: InputOption,
    at?: { row: number; column: number },
  ): WritePlan {
    const { sheet, ref } = apiRange(this.scope.workbook, method, rangeText);
    const raw = input?.values ?? [];
    if (!Array.isArray(raw) || !raw.every((row) => Array.isArray(row))) {
      throw new GoogleJsonResponseException(
        method,
        "Invalid JSON payload received. Invalid value at 'data.values': expected a list of lists",
        400,
      );
    }
    const rows = toRows(raw as unknown[][], input?.majorDimension);
    const numRows = rows.length;
    const numColumns = rows.reduce((max, row) => Math.max(max, row.length), 0);
    const start = at ?? { row: ref.startRow ?? 1, column: ref.startColumn ?? 1 };
    const single = ref.startRow !== undefined && ref.endRow === ref.startRow && ref.endColumn === ref.startColumn;
    if (!at && !single) {
      const limit = resolveReference(ref, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
      const bounded = printRange(sheet, resolveReference(ref, sheet.maxRows, sheet.maxColumns));
      if (ref.endRow !== undefined && numRows > limit.numRows) {
        throw new GoogleJsonResponseException(
          method,
          `Requested writing within range [${bounded}], but tried writing to row [${start.row + limit.numRows}]`,
          400,
        );
      }
      if (ref.endColumn !== undefined && numColumns > limit.numColumns) {
        throw new GoogleJsonResponseException(
          method,
          `Requested writing within range [${bounded}], but tried writing to column [${columnToLetters(start.column + limit.numColumns)}]`,
          400,
        );
      }
    }
    const tz = this.scope.workbook.timeZone;
    let writes: Array<Array<CellWrite | undefined>>;
    try {
      writes = rows.map((row) => row.map((v) => apiWrite(v, option, tz)));
    } catch (e) {
      throw new GoogleJsonResponseException(method, (e as Error).message, 400);
    }
    return { sheet, rect: { row: start.row, column: start.column, numRows, numColumns }, writes };
  }

  private _apply(method: string, plans: WritePlan[], grow = false): UpdateValuesResponse[] {
    // Public reports show update/batchUpdate past the grid failing ("exceeds grid limits") while only
    // append is documented to grow it: refuse the former so the add-on must add rows itself.
    if (!grow) {
      for (const p of plans) {
        const lastRow = p.rect.row + p.rect.numRows - 1;
        const lastColumn = p.rect.column + p.rect.numColumns - 1;
        if (lastRow > p.sheet.maxRows || lastColumn > p.sheet.maxColumns) {
          throw new GoogleJsonResponseException(
            method,
            `Range (${printRange(p.sheet, p.rect)}) exceeds grid limits. Max rows: ${p.sheet.maxRows}, max columns: ${p.sheet.maxColumns}`,
            400,
          );
        }
      }
    }
    // Grow every sheet first (checked against the cell limit together), then write: all or nothing.
    const needs = new Map<SheetModel, { rows: number; columns: number }>();
    for (const p of plans) {
      const need = needs.get(p.sheet) ?? { rows: 0, columns: 0 };
      need.rows = Math.max(need.rows, p.rect.row + p.rect.numRows - 1);
      need.columns = Math.max(need.columns, p.rect.column + p.rect.numColumns - 1);
      needs.set(p.sheet, need);
    }
    let extra = 0;
    for (const [sheet, need] of needs) {
      const rows = Math.max(sheet.maxRows, need.rows);
      const columns = Math.max(sheet.maxColumns, need.columns);
      extra += rows * columns - sheet.maxRows * sheet.maxColumns;
    }
    try {
      this.scope.workbook.assertCanAddCells(extra);
    } catch (e) {
      throw new GoogleJsonResponseException(method, (e as Error).message, 400);
    }
    for (const [sheet, need] of needs) ensureGrid(this.scope.workbook, method, sheet, need.rows, need.columns);
    return plans.map((p) => {
      let cells = 0;
      p.writes.forEach((line, r) =>
        line.forEach((w, c) => {
          if (w === undefined) return; // null: the API leaves the cell as it is
          p.sheet.write(p.rect.row + r, p.rect.column + c, w);
          cells++;
        }),
      );
      return {
        spreadsheetId: this.scope.workbook.id,
        updatedRange: printRange(p.sheet, {
          ...p.rect,
          numRows: Math.max(1, p.rect.numRows),
          numColumns: Math.max(1, p.rect.numColumns),
        }),
        updatedRows: p.writes.filter((line) => line.some((w) => w !== undefined)).length,
        updatedColumns: p.rect.numColumns,
        updatedCells: cells,
      };
    });
  }

  private _read(
    method: string,
    rangeText: unknown,
    options: ReadOptions = {},
  ): { range: string; majorDimension: string; values?: unknown[][] } {
    checkReadOptions(method, options);
    const { sheet, ref } = apiRange(this.scope.workbook, method, rangeText);
    const rect = resolveReference(ref, sheet.maxRows, sheet.maxColumns);
    // Google's pages are silent; public reports show reads of a range past the grid refused whole
    // (pygsheets #528 and #124, values.get of a range computed from stale sheet dimensions: "exceeds
    // grid limits. Max rows: 2280, max columns: 178"; gspread #411): the stricter reading, as writes.
    if (rect.row + rect.numRows - 1 > sheet.maxRows || rect.column + rect.numColumns - 1 > sheet.maxColumns)
      throw new GoogleJsonResponseException(
        method,
        `Range (${printRange(sheet, rect)}) exceeds grid limits. Max rows: ${sheet.maxRows}, max columns: ${sheet.maxColumns}`,
        400,
      );
    const render = options.valueRenderOption ?? 'FORMATTED_VALUE';
    const cell = (r: number, c: number): unknown => {
      const formula = sheet.formula(r, c);
      if (formula !== undefined) return render === 'FORMULA' ? formula : '';
      const value: CellScalar | undefined = sheet.value(r, c);
      if (value === undefined) return '';
      const format = sheet.format(r, c);
      if (render === 'FORMATTED_VALUE') return displayValue(value, format);
      if (typeof value === 'number' && isDateFormat(format) && options.dateTimeRenderOption === 'FORMATTED_STRING') {
        return displayValue(value, format);
      }
      return value;
    };
    const lastRow = Math.min(rect.row + rect.numRows - 1, sheet.rows.length);
    // "For output, empty trailing rows and columns will not be included" (ValueRange.values): each
    // line of the major dimension loses its trailing empty cells, then trailing empty lines go.
    const byColumns = options.majorDimension === 'COLUMNS';
    const values: unknown[][] = [];
    const [outer, inner] = byColumns
      ? [rect.numColumns, lastRow - rect.row + 1]
      : [lastRow - rect.row + 1, rect.numColumns];
    for (let i = 0; i < outer; i++) {
      const line: unknown[] = [];
      for (let j = 0; j < inner; j++)
        line.push(byColumns ? cell(rect.row + j, rect.column + i) : cell(rect.row + i, rect.column + j));
      while (line.length > 0 && line[line.length - 1] === '') line.pop();
      values.push(line);
    }
    while (values.length > 0 && values[values.length - 1].length === 0) values.pop();
    const result: { range: string; majorDimension: string; values?: unknown[][] } = {
      range: printRange(sheet, rect),
      majorDimension: options.majorDimension ?? 'ROWS',
    };
    if (values.length > 0) result.values = values;
    return result;
  }

  get(
    spreadsheetId: string,
    range: string,
    optionalArgs?: ReadOptions,
  ): { range: string; majorDimension: string; values?: unknown[][] } {
    checkAccess(this.scope, 'spreadsheets.values.get', spreadsheetId);
    return this._read('spreadsheets.values.get', range, optionalArgs);
  }

  batchGet(
    spreadsheetId: string,
    optionalArgs?: ReadOptions & { ranges?: string | string[] },
  ): { spreadsheetId: string; valueRanges: unknown[] } {
    checkAccess(this.scope, 'spreadsheets.values.batchGet', spreadsheetId);
    const ranges =
      optionalArgs?.ranges === undefined
        ? []
        : Array.isArray(optionalArgs.ranges)
          ? optionalArgs.ranges
          : [optionalArgs.ranges];
    const url = batchGetUrlLength(spreadsheetId, ranges, optionalArgs);
    if (url > BATCH_GET_URL_LIMIT)
      throw new GoogleJsonResponseException(
        'spreadsheets.values.batchGet',
        `Request-URI Too Large: the request's URL has ${url} characters (${ranges.length} ranges); send fewer ranges a request`,
        414,
      );
    return {
      spreadsheetId,
      valueRanges: ranges.map((r) => this._read('spreadsheets.values.batchGet', r, optionalArgs)),
    };
  }

  /**
   * Values.batchGetByDataFilter(resource, spreadsheetId): a POST, the ranges in its body as data
   * filters (sheets-values-data-filter.ts), so no URL to outgrow; one read of the per-minute quota.
   * Each filter's match comes as `{ valueRange, dataFilters: [filter] }`, in the filters' order.
   */
  batchGetByDataFilter(
    resource: ReadOptions & { dataFilters?: unknown[] },
    spreadsheetId: string,
  ): { spreadsheetId: string; valueRanges: unknown[] } {
    checkAccess(this.scope, BY_DATA_FILTER, spreadsheetId);
    const ranges = a1RangesOf(resource);
    const options: ReadOptions = {
      valueRenderOption: resource.valueRenderOption,
      dateTimeRenderOption: resource.dateTimeRenderOption,
      majorDimension: resource.majorDimension,
    };
    if (![undefined, 'ROWS', 'COLUMNS'].includes(options.majorDimension))
      throw new GoogleJsonResponseException(
        BY_DATA_FILTER,
        `Invalid value at 'major_dimension' (${String(options.majorDimension)})`,
        400,
      );
    const valueRanges = ranges.map((a1Range) => ({
      valueRange: this._read(BY_DATA_FILTER, a1Range, options),
      dataFilters: [{ a1Range }],
    }));
    return { spreadsheetId, valueRanges };
  }

  update(
    resource: ValueRangeInput,
    spreadsheetId: string,
    range: string,
    optionalArgs?: { valueInputOption?: string },
  ): UpdateValuesResponse {
    const method = 'spreadsheets.values.update';
    checkAccess(this.scope, method, spreadsheetId);
    const plan = this._plan(method, range, resource, inputOption(method, optionalArgs?.valueInputOption));
    return this._apply(method, [plan])[0];
  }

  /** Writes after the last row with data in the range's columns; INSERT_ROWS inserts rows for it. */
  append(
    resource: ValueRangeInput,
    spreadsheetId: string,
    range: string,
    optionalArgs?: { valueInputOption?: string; insertDataOption?: string },
  ): {
    spreadsheetId: string;
    tableRange?: string;
    updates: UpdateValuesResponse;
  } {
    const method = 'spreadsheets.values.append';
    checkAccess(this.scope, method, spreadsheetId);
    const option = inputOption(method, optionalArgs?.valueInputOption);
    const { sheet, ref } = apiRange(this.scope.workbook, method, range);
    const rect = resolveReference(ref, sheet.maxRows, sheet.maxColumns);
    const last = lastRowIn(sheet, rect);
    const row = Math.max(last + 1, rect.row);
    const plan = this._plan(method, range, resource, option, { row, column: rect.column });
    if (optionalArgs?.insertDataOption === 'INSERT_ROWS' && row <= sheet.maxRows && plan.rect.numRows > 0) {
      try {
        this.scope.workbook.assertCanAddCells(plan.rect.numRows * sheet.maxColumns);
      } catch (e) {
        throw new GoogleJsonResponseException(method, (e as Error).message, 400);
      }
      sheet.insertRows(row - 1, plan.rect.numRows);
      this.scope.workbook.shiftMetadata(sheet.sheetId, 'ROW', row - 1, plan.rect.numRows);
    }
    const updates = this._apply(method, [plan], true)[0];
    const result: { spreadsheetId: string; tableRange?: string; updates: UpdateValuesResponse } = {
      spreadsheetId,
      updates,
    };
    if (last > 0)
      result.tableRange = printRange(sheet, {
        row: rect.row,
        column: rect.column,
        numRows: last - rect.row + 1,
        numColumns: rect.numColumns,
      });
    return result;
  }

  batchUpdate(
    resource: { valueInputOption?: string; data?: ValueRangeInput[] },
    spreadsheetId: string,
  ): {
    spreadsheetId: string;
    totalUpdatedRows: number;
    totalUpdatedColumns: number;
    totalUpdatedCells: number;
    totalUpdatedSheets: number;
    responses: UpdateValuesResponse[];
  } {
    const method = 'spreadsheets.values.batchUpdate';
    checkAccess(this.scope, method, spreadsheetId);
    checkPayloadSize(method, resource, 'send fewer ranges or rows a request');
    if (resource?.valueInputOption === undefined)
      throw new GoogleJsonResponseException(method, 'Invalid valueInputOption: INPUT_VALUE_OPTION_UNSPECIFIED', 400);
    const option = inputOption(method, resource.valueInputOption);
    const data = Array.isArray(resource.data) ? resource.data : [];
    const plans = data.map((vr) => this._plan(method, vr?.range, vr, option));
    const responses = this._apply(method, plans);
    return {
      spreadsheetId,
      totalUpdatedRows: responses.reduce((s, r) => s + r.updatedRows, 0),
      totalUpdatedColumns: responses.reduce((s, r) => s + r.updatedColumns, 0),
      totalUpdatedCells: responses.reduce((s, r) => s + r.updatedCells, 0),
      totalUpdatedSheets: new Set(plans.map((p) => p.sheet)).size,
      responses,
    };
  }

  clear(_resource: unknown, spreadsheetId: string, range: string): { spreadsheetId: string; clearedRange: string } {
    checkAccess(this.scope, 'spreadsheets.values.clear', spreadsheetId);
    return { spreadsheetId, clearedRange: this._clearOne('spreadsheets.values.clear', range) };
  }

  batchClear(
    resource: { ranges?: string[] },
    spreadsheetId: string,
  ): { spreadsheetId: string; clearedRanges: string[] } {
    const method = 'spreadsheets.values.batchClear';
    checkAccess(this.scope, method, spreadsheetId);
    const ranges = Array.isArray(resource?.ranges) ? resource.ranges : [];
    ranges.forEach((r) => apiRange(this.scope.workbook, method, r)); // validate all before clearing any
    return { spreadsheetId, clearedRanges: ranges.map((r) => this._clearOne(method, r)) };
  }

  private _clearOne(method: string, range: string): string {
    const { sheet, ref } = apiRange(this.scope.workbook, method, range);
    const rect = resolveReference(ref, sheet.maxRows, sheet.maxColumns);
    sheet.clear(rect, false);
    return printRange(sheet, rect);
  }
}
