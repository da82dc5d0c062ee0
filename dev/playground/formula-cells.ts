/**
 * The playground's formula results. The workbook model keeps a formula cell's text only (Sheets'
 * value is computed by Sheets, which the local runtime is not); here a formula that calls one of
 * the add-on's custom functions is run as a CUSTOM_FUNCTION execution of the built bundle, as
 * Sheets runs it, and its answer is kept beside the workbook and spilled when the grid is drawn:
 * - arguments as Sheets passes them: a date cell as a Date (its wall time in the spreadsheet's
 *   zone), a range as a 2-D array, an empty cell as "";
 * - an execution that fails shows `#ERROR!` with its message, as Sheets does;
 * - a spill that would cover a cell with content shows `#REF!` with Sheets' message;
 * - every formula cell is its own execution and they run concurrently, as Sheets recalculates, at
 *   most RECALC_CONCURRENCY at a time: Apps Script refuses a user's 31st simultaneous execution
 *   (guides/services/quotas, the runtime's SIMULTANEOUS_EXECUTIONS_PER_USER) and Google does not
 *   publish how many cells Sheets runs at once, so the playground feeds them as the 200-cell
 *   recalculation test does (a new one as one ends).
 * - a custom function whose arguments hold a volatile built-in (NOW, TODAY, RAND…: directly, nested,
 *   or in the formula of a cell they reference) is never run: the cell shows "Loading..." for good.
 *   Google's custom functions guide (developers.google.com/apps-script/guides/sheets/functions,
 *   "Arguments"): such functions "are not allowed as arguments to a custom function", and the cell
 *   stays "Loading..." — TODAY by the stricter reading (apps-script-facts.md, "Volatile arguments").
 * - in a spreadsheet where the add-on is not enabled (a copy, or a new spreadsheet, until someone
 *   uses the add-on there) Sheets does not know the add-on's functions: the runtime runs nothing
 *   and the cell shows `#NAME?`, "Unknown function: 'NAME'." (dev/gas-runtime/addon-enablement.ts,
 *   after developers.google.com/workspace/add-ons/editors/sheets and
 *   workspace/add-ons/concepts/editor-auth-lifecycle). That answer is kept like any other until
 *   the cell recalculates (the stricter reading: enabling the add-on does not re-run old cells).
 * - a reference reads what the cell shows: its value, or the spilled answer of a formula covering it
 *   (as Sheets reads an array result's cells), so MATCH and VLOOKUP (lookups.ts, the exact forms,
 *   computed here in place of Sheets) can join an answer to a sheet.
 * A result is reused while the cell holds the same formula entry and its arguments hold the same
 * values: a formula entered anew (typed, or re-entered by the add-on's "Refresh formulas", also run
 * after a sync that changed data: the runtime counts each entry whose text changed,
 * SheetModel.formulaEntry) or whose referenced cells changed runs again, as Sheets recalculates a
 * custom function when its formula or a directly referenced cell changes (the same guide;
 * apps-script-facts.md "Results recalculate only when the formula or a directly referenced cell changes").
 */
import { columnToLetters } from '../gas-runtime/spreadsheet/a1';
import { epochToSerial, serialToEpoch } from '../gas-runtime/spreadsheet/dates';
import {
  DEFAULT_DATE_FORMAT,
  DEFAULT_DATETIME_FORMAT,
  isDateFormat,
  type CellScalar,
} from '../gas-runtime/spreadsheet/number-format';
import type { SheetModel } from '../gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../gas-runtime/spreadsheet/workbook';
import { formulaMentions, outerCallName, parseFormulaCall, VOLATILE_FUNCTIONS, type FormulaArg } from './formula-call';
import { UNKNOWN_FUNCTION_CODE } from '../gas-runtime/addon-enablement';
import { LOOKUP_FUNCTIONS, lookup, type LookupArg, type LookupCell } from './lookups';
import type { PlaygroundRuntime, RunResultLike } from './types';

export interface SpilledCell {
  value: CellScalar;
  format?: string;
}

export type FormulaResult =
  | { state: 'pending' }
  /** Sheets never runs it (a volatile argument): "Loading..." for good, nothing computing. */
  | { state: 'loading'; reason: string }
  | { state: 'value'; cells: SpilledCell[][] }
  | { state: 'error'; code: '#ERROR!' | '#N/A' | '#NAME?'; message: string };

interface Entry {
  formula: string;
  /** The formula entry this answers (SheetModel.formulaEntry). */
  entered: number | undefined;
  /** The argument values it was run with (argumentsKey). */
  args: string;
  result: FormulaResult;
  done: Promise<void>;
}

const key = (row: number, column: number): string => `${row}:${column}`;

/** Formula cells running at once: under the 30 simultaneous executions a user has. */
export const RECALC_CONCURRENCY = 20;

/** Converts what a custom function returned into grid cells (Dates become date serials). */
function spillOf(value: unknown, timeZone: string): SpilledCell[][] {
  const cell = (v: unknown): SpilledCell => {
    if (v instanceof Date) {
      const serial = epochToSerial(v.getTime(), timeZone);
      return {
        value: serial,
        format: Number.isInteger(Math.round(serial * 86_400_000) / 86_400_000)
          ? DEFAULT_DATE_FORMAT
          : DEFAULT_DATETIME_FORMAT,
      };
    }
    if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') return { value: v };
    return { value: '' };
  };
  if (!Array.isArray(value)) return [[cell(value)]];
  if (value.length === 0) return [[{ value: '' }]];
  return value.map((row: unknown) => (Array.isArray(row) ? row.map(cell) : [cell(row)]));
}

export class FormulaCells {
  /** Per sheet id, per anchor cell. */
  private readonly entries = new Map<number, Map<string, Entry>>();
  /** Executions running now, and the cells waiting for one of them to end. */
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly runtime: PlaygroundRuntime,
    private readonly workbook: () => Workbook,
    private readonly customFunctions: () => Promise<readonly string[]>,
    /** The spreadsheet the cells are in, when not the runtime's own (a copy made with makeCopy). */
    private readonly spreadsheetId?: string,
  ) {}

  private sheetEntries(sheet: SheetModel): Map<string, Entry> {
    let map = this.entries.get(sheet.sheetId);
    if (!map) {
      map = new Map();
      this.entries.set(sheet.sheetId, map);
    }
    return map;
  }

  /** The result for a formula cell, starting its execution when it has none for this text yet. */
  resultAt(sheet: SheetModel, row: number, column: number): FormulaResult | undefined {
    const formula = sheet.formula(row, column);
    if (formula === undefined) return undefined;
    const map = this.sheetEntries(sheet);
    const entry = map.get(key(row, column));
    if (entry && this.answers(entry, sheet, row, column)) return entry.result;
    return this.start(sheet, row, column, formula).result;
  }

  /** Runs the formula of a cell now (after it was typed) and waits for its answer. */
  async recalculate(sheet: SheetModel, row: number, column: number): Promise<FormulaResult | undefined> {
    const formula = sheet.formula(row, column);
    if (formula === undefined) {
      this.sheetEntries(sheet).delete(key(row, column));
      return undefined;
    }
    const entry = this.start(sheet, row, column, formula);
    await entry.done;
    return entry.result;
  }

  /**
   * Starts every formula of a sheet without an answer to its current entry (new, or re-entered
   * since), concurrently, as Sheets recalculates; returns what they will be done by.
   */
  recalculateStale(sheet: SheetModel): Promise<void> {
    const pending: Array<Promise<void>> = [];
    sheet.rows.forEach((data, i) =>
      data?.f?.forEach((f, c) => {
        if (f === undefined) return;
        this.resultAt(sheet, i + 1, c + 1);
        const entry = this.sheetEntries(sheet).get(key(i + 1, c + 1));
        if (entry) pending.push(entry.done);
      }),
    );
    return Promise.all(pending).then(() => undefined);
  }

  /** Starts every formula of a sheet not computed yet and waits for all of them (concurrently). */
  async settle(sheet: SheetModel): Promise<void> {
    await this.recalculateStale(sheet);
  }

  /** True when the entry answers the formula the cell holds now (the same entry of the same text). */
  private answers(entry: Entry, sheet: SheetModel, row: number, column: number): boolean {
    const formula = sheet.formula(row, column);
    return (
      entry.formula === formula &&
      entry.entered === sheet.formulaEntry(row, column) &&
      entry.args === this.argumentsKey(sheet, formula)
    );
  }

  /** True while any formula of the sheet is still running. */
  pending(sheet: SheetModel): boolean {
    for (const entry of this.sheetEntries(sheet).values()) if (entry.result.state === 'pending') return true;
    return false;
  }

  /**
   * The spilled answers of a sheet whose anchor still holds the formula they answer: anchor
   * position, the cells, and the #REF! message when a cell it would cover has content — a value,
   * a formula, or another formula's spilled answer. As in Sheets, the array already on the sheet
   * keeps its cells: spills claim cells in the order their formulas were entered, and a blocked
   * spill writes nothing (so it blocks nothing).
   */
  spills(sheet: SheetModel): Array<{ row: number; column: number; cells: SpilledCell[][]; blockedBy?: string }> {
    const answered: Array<{ row: number; column: number; cells: SpilledCell[][]; entered: number }> = [];
    for (const [k, entry] of this.sheetEntries(sheet)) {
      const [row, column] = k.split(':').map(Number) as [number, number];
      if (entry.result.state !== 'value' || !this.answers(entry, sheet, row, column)) continue;
      answered.push({ row, column, cells: entry.result.cells, entered: entry.entered ?? 0 });
    }
    answered.sort((a, b) => a.entered - b.entered || a.row - b.row || a.column - b.column);
    const claimed = new Set<string>();
    const out: Array<{ row: number; column: number; cells: SpilledCell[][]; blockedBy?: string }> = [];
    for (const { row, column, cells } of answered) {
      let blockedBy: string | undefined;
      for (let r = 0; r < cells.length && !blockedBy; r++) {
        for (let c = 0; c < (cells[r]?.length ?? 0); c++) {
          if (r === 0 && c === 0) continue;
          if (
            sheet.value(row + r, column + c) !== undefined ||
            sheet.formula(row + r, column + c) !== undefined ||
            claimed.has(key(row + r, column + c))
          ) {
            blockedBy = `${columnToLetters(column + c)}${row + r}`;
            break;
          }
        }
      }
      if (!blockedBy) cells.forEach((line, r) => line.forEach((_cell, c) => claimed.add(key(row + r, column + c))));
      out.push({ row, column, cells, ...(blockedBy ? { blockedBy } : {}) });
    }
    return out;
  }

  private start(sheet: SheetModel, row: number, column: number, formula: string): Entry {
    const entry: Entry = {
      formula,
      entered: sheet.formulaEntry(row, column),
      args: this.argumentsKey(sheet, formula),
      result: { state: 'pending' },
      done: Promise.resolve(),
    };
    this.sheetEntries(sheet).set(key(row, column), entry);
    entry.done = this.evaluate(sheet, formula).then((result) => {
      entry.result = result;
    });
    return entry;
  }

  private async evaluate(sheet: SheetModel, formula: string): Promise<FormulaResult> {
    const call = parseFormulaCall(formula);
    const names = await this.customFunctions();
    const outer = outerCallName(formula);
    if (outer !== null && names.includes(outer)) {
      const volatile = this.volatileIn(formula, sheet, new Set());
      if (volatile)
        return {
          state: 'loading',
          reason: `Sheets never runs ${outer} with ${volatile}() in its arguments: the cell stays "Loading...".`,
        };
    }
    if (call && LOOKUP_FUNCTIONS.includes(call.name)) return this.lookupResult(call.name, call.args, sheet);
    if (!call) {
      return {
        state: 'error',
        code: '#N/A',
        message: `The playground computes only Merchant Analytics functions called with values or cell references (${names.join(', ')}).`,
      };
    }
    if (!names.includes(call.name)) {
      return {
        state: 'error',
        code: '#N/A',
        message: `'${call.name}' is not a Merchant Analytics function: the playground computes only those (${names.join(', ')}) and ${LOOKUP_FUNCTIONS.join(', ')}; Sheets computes its own.`,
      };
    }
    const wb = this.workbook();
    let args: unknown[];
    try {
      args = call.args.map((a) => this.argument(a, sheet, wb));
    } catch (error) {
      return { state: 'error', code: '#ERROR!', message: error instanceof Error ? error.message : String(error) };
    }
    const where = this.spreadsheetId === undefined ? {} : { spreadsheetId: this.spreadsheetId };
    const result = await this.inLane(() =>
      this.runtime.run(call.name, args, { authMode: 'CUSTOM_FUNCTION', ...where }),
    );
    if (result.error?.name === UNKNOWN_FUNCTION_CODE)
      return { state: 'error', code: UNKNOWN_FUNCTION_CODE, message: result.error.message };
    if (result.timedOut)
      return { state: 'error', code: '#ERROR!', message: 'Exceeded maximum execution time (line 0).' };
    if (!result.ok)
      return { state: 'error', code: '#ERROR!', message: result.error?.message ?? 'The function failed.' };
    return { state: 'value', cells: spillOf(result.value, wb.timeZone) };
  }

  /** MATCH or VLOOKUP over the cells as they show now (values and spilled answers). */
  private lookupResult(name: string, args: FormulaArg[], sheet: SheetModel): FormulaResult {
    const wb = this.workbook();
    const read: LookupArg[] = [];
    for (const arg of args) {
      if (arg.kind === 'value') {
        read.push({ kind: 'value', value: arg.value });
        continue;
      }
      const target = arg.sheetName === undefined ? sheet : wb.sheetByName(arg.sheetName);
      if (!target)
        return { state: 'error', code: '#ERROR!', message: `Unresolved sheet name '${arg.sheetName ?? ''}'.` };
      const cells = Array.from({ length: arg.numRows }, (_, r) =>
        Array.from({ length: arg.numColumns }, (_, c) => this.shownCell(target, arg.row + r, arg.column + c)),
      );
      read.push(
        arg.numRows === 1 && arg.numColumns === 1
          ? { kind: 'value', value: cells[0]![0]!.value ?? '' }
          : { kind: 'range', cells },
      );
    }
    const result = lookup(name, read);
    if (!result.ok) return { state: 'error', code: '#N/A', message: result.message };
    const { value, format } = result.cell;
    return { state: 'value', cells: [[{ value: value ?? '', ...(format === undefined ? {} : { format }) }]] };
  }

  /**
   * What a cell holds as Sheets shows it: its value and format, or, for a cell a formula's answer
   * spills over (its anchor included), that answer's cell — unless the spill is blocked (#REF!).
   */
  private shownCell(sheet: SheetModel, row: number, column: number): LookupCell {
    const value = sheet.value(row, column);
    if (value !== undefined) return { value, format: sheet.format(row, column) };
    for (const [k, entry] of this.sheetEntries(sheet)) {
      if (entry.result.state !== 'value') continue;
      const [anchorRow, anchorColumn] = k.split(':').map(Number) as [number, number];
      const cell = entry.result.cells[row - anchorRow]?.[column - anchorColumn];
      if (cell === undefined || row < anchorRow || column < anchorColumn) continue;
      if (entry.formula !== sheet.formula(anchorRow, anchorColumn)) continue;
      if (entry.entered !== sheet.formulaEntry(anchorRow, anchorColumn)) continue;
      if (this.spillBlocked(sheet, anchorRow, anchorColumn, entry.result.cells)) continue;
      return { value: cell.value, format: cell.format ?? sheet.format(row, column) };
    }
    return { value: undefined };
  }

  private spillBlocked(sheet: SheetModel, row: number, column: number, cells: SpilledCell[][]): boolean {
    return cells.some((line, r) =>
      line.some(
        (_cell, c) =>
          (r > 0 || c > 0) &&
          (sheet.value(row + r, column + c) !== undefined || sheet.formula(row + r, column + c) !== undefined),
      ),
    );
  }

  /** Runs `execute` once fewer than RECALC_CONCURRENCY cells run, in the order cells asked. */
  private async inLane(execute: () => Promise<RunResultLike>): Promise<RunResultLike> {
    if (this.running >= RECALC_CONCURRENCY) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await execute();
    } finally {
      const next = this.waiting.shift();
      // The lane passes straight to the next cell: `running` stays counted for it.
      if (next) next();
      else this.running -= 1;
    }
  }

  /**
   * The volatile built-in a formula's arguments hold — directly, nested, or in the formula of a cell
   * they reference (followed from cell to cell) — or null.
   */
  private volatileIn(formula: string, sheet: SheetModel, seen: Set<string>): string | null {
    const mentions = formulaMentions(formula);
    const direct = mentions.calls.find((name) => VOLATILE_FUNCTIONS.includes(name));
    if (direct) return direct;
    for (const ref of mentions.refs) {
      const target = ref.sheetName === undefined ? sheet : this.workbook().sheetByName(ref.sheetName);
      if (!target) continue;
      const lastRow = Math.min(ref.row + ref.numRows - 1, target.lastRow());
      for (let r = ref.row; r <= lastRow; r++) {
        for (let c = ref.column; c < ref.column + ref.numColumns; c++) {
          const inner = target.formula(r, c);
          const at = `${target.sheetId}:${key(r, c)}`;
          if (inner === undefined || seen.has(at)) continue;
          seen.add(at);
          const found = this.volatileIn(inner, target, seen);
          if (found) return found;
        }
      }
    }
    return null;
  }

  /**
   * The values a formula's arguments hold now (and the formulas of the cells they reference), as
   * text: a change means Sheets would recalculate the cell.
   */
  private argumentsKey(sheet: SheetModel, formula: string | undefined): string {
    const call = formula === undefined ? null : parseFormulaCall(formula);
    if (!call) return '';
    const wb = this.workbook();
    return JSON.stringify(
      call.args.map((arg) => {
        if (arg.kind === 'value') return arg.value;
        const target = arg.sheetName === undefined ? sheet : wb.sheetByName(arg.sheetName);
        if (!target) return null;
        const formulas = Array.from({ length: arg.numRows }, (_, r) =>
          Array.from({ length: arg.numColumns }, (_, c) => target.formula(arg.row + r, arg.column + c) ?? ''),
        );
        return [this.argument(arg, sheet, wb), formulas];
      }),
    );
  }

  /** A formula argument as Sheets hands it to a custom function. */
  private argument(arg: FormulaArg, sheet: SheetModel, wb: Workbook): unknown {
    if (arg.kind === 'value') return arg.value;
    const target = arg.sheetName === undefined ? sheet : wb.sheetByName(arg.sheetName);
    if (!target) throw new Error(`Unresolved sheet name '${arg.sheetName ?? ''}'.`);
    const read = (r: number, c: number): unknown => {
      const { value, format } = this.shownCell(target, r, c);
      if (value === undefined) return '';
      if (typeof value === 'number' && isDateFormat(format)) return new Date(serialToEpoch(value, wb.timeZone));
      return value;
    };
    if (arg.numRows === 1 && arg.numColumns === 1) return read(arg.row, arg.column);
    return Array.from({ length: arg.numRows }, (_, r) =>
      Array.from({ length: arg.numColumns }, (_, c) => read(arg.row + r, arg.column + c)),
    );
  }
}
