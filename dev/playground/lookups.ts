/**
 * The two lookups a finance user joins the add-on's answers to its sheets with: MATCH and VLOOKUP,
 * exact match only (MATCH's search_type 0, VLOOKUP's is_sorted FALSE). Compared as Sheets compares
 * (support.google.com/docs/answer/3093378 MATCH, /3093318 VLOOKUP): a number equals a number (a
 * date is its serial), text equals text ignoring case, and a number never equals text — so a month
 * held as a date in one place and as "2026-01" text in the other is not found (#N/A). The sorted
 * (approximate) forms are not computed: they say so, never guess. Pure.
 */
import type { CellScalar } from '../gas-runtime/spreadsheet/number-format';

export const LOOKUP_FUNCTIONS: readonly string[] = ['MATCH', 'VLOOKUP'];

export interface LookupCell {
  value: CellScalar | undefined;
  format?: string;
}

/** An argument: one cell's value, or a range's cells (row by row). */
export type LookupArg = { kind: 'value'; value: CellScalar } | { kind: 'range'; cells: LookupCell[][] };

export type LookupResult = { ok: true; cell: LookupCell } | { ok: false; message: string };

function sameValue(a: CellScalar | undefined, b: CellScalar | undefined): boolean {
  if (a === undefined || b === undefined || a === '' || b === '') return false;
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  return typeof a === typeof b && a === b;
}

const scalar = (arg: LookupArg | undefined): CellScalar | undefined =>
  arg === undefined ? undefined : arg.kind === 'value' ? arg.value : arg.cells[0]?.[0]?.value;

const notFound = (key: CellScalar | undefined, fn: string): LookupResult => ({
  ok: false,
  message: `Did not find value '${String(key ?? '')}' in ${fn} evaluation.`,
});

const exactOnly = (fn: string, argument: string): LookupResult => ({
  ok: false,
  message: `The playground computes ${fn} with an exact match only (${argument}); Sheets computes the sorted form.`,
});

function match(args: LookupArg[]): LookupResult {
  const [key, range, type] = [scalar(args[0]), args[1], args[2] === undefined ? 1 : scalar(args[2])];
  if (Number(type) !== 0) return exactOnly('MATCH', 'search_type 0');
  if (range?.kind !== 'range') return { ok: false, message: 'MATCH needs a range to search.' };
  const line = range.cells.length === 1 ? range.cells[0]! : range.cells.map((row) => row[0]!);
  const at = line.findIndex((cell) => sameValue(cell?.value, key));
  return at < 0 ? notFound(key, 'MATCH') : { ok: true, cell: { value: at + 1 } };
}

function vlookup(args: LookupArg[]): LookupResult {
  const [key, range, index] = [scalar(args[0]), args[1], Number(scalar(args[2]))];
  const sorted = args[3] === undefined ? true : scalar(args[3]);
  if (sorted !== false && sorted !== 0) return exactOnly('VLOOKUP', 'is_sorted FALSE');
  if (range?.kind !== 'range') return { ok: false, message: 'VLOOKUP needs a range to search.' };
  const width = range.cells[0]?.length ?? 0;
  if (!Number.isInteger(index) || index < 1 || index > width)
    return { ok: false, message: `VLOOKUP evaluates to an out of bounds range.` };
  const row = range.cells.find((cells) => sameValue(cells[0]?.value, key));
  return row ? { ok: true, cell: row[index - 1] ?? { value: undefined } } : notFound(key, 'VLOOKUP');
}

export function lookup(name: string, args: LookupArg[]): LookupResult {
  return name === 'MATCH' ? match(args) : vlookup(args);
}
