/**
 * A formula the playground can compute: `=NAME(arg, …)` with literal arguments ("text", numbers,
 * TRUE/FALSE) and cell references (A1, A1:B3, 'Sheet name'!A1). Anything else — operators, nested
 * calls, Sheets' own functions — is not parsed (null): the playground is not a spreadsheet engine,
 * it runs the add-on's custom functions. Pure.
 */
import { parseA1 } from '../gas-runtime/spreadsheet/a1';

export type FormulaArg =
  | { kind: 'value'; value: string | number | boolean }
  | { kind: 'ref'; sheetName?: string; row: number; column: number; numRows: number; numColumns: number };

export interface FormulaCall {
  name: string;
  args: FormulaArg[];
}

const NAME = /^\s*=\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\(/;
const REF = /^(?:(?:'(?:[^']|'')+'|[A-Za-z0-9_]+)!)?\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?/;

/** Splits the text between the call's parentheses at top-level commas (strings may hold commas). */
function splitArgs(inner: string): string[] | null {
  const parts: string[] = [];
  let current = '';
  let inString = false;
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i]!;
    if (inString) {
      current += ch;
      if (ch === '"') {
        if (inner[i + 1] === '"') current += inner[++i];
        else inString = false;
      }
    } else if (ch === '"') {
      inString = true;
      current += ch;
    } else if (ch === ',') {
      parts.push(current);
      current = '';
    } else if (ch === '(' || ch === ')') {
      return null;
    } else current += ch;
  }
  if (inString) return null;
  parts.push(current);
  return parts.length === 1 && parts[0]!.trim() === '' ? [] : parts;
}

function parseArg(text: string): FormulaArg | null {
  const t = text.trim();
  if (t === '') return { kind: 'value', value: '' };
  if (/^"(?:[^"]|"")*"$/.test(t)) return { kind: 'value', value: t.slice(1, -1).replace(/""/g, '"') };
  if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return { kind: 'value', value: Number(t) };
  if (/^(true|false)$/i.test(t)) return { kind: 'value', value: t.toLowerCase() === 'true' };
  const ref = REF.exec(t);
  if (!ref || ref[0].length !== t.length) return null;
  const grid = parseA1(t.replace(/\$/g, ''));
  if (!grid || grid.startRow === undefined || grid.startColumn === undefined) return null;
  const endRow = grid.endRow ?? grid.startRow;
  const endColumn = grid.endColumn ?? grid.startColumn;
  return {
    kind: 'ref',
    ...(grid.sheetName !== undefined ? { sheetName: grid.sheetName } : {}),
    row: grid.startRow,
    column: grid.startColumn,
    numRows: endRow - grid.startRow + 1,
    numColumns: endColumn - grid.startColumn + 1,
  };
}

/** The call a formula makes, or null when it is not a single call with literal or reference arguments. */
export function parseFormulaCall(formula: string): FormulaCall | null {
  const head = NAME.exec(formula);
  if (!head) return null;
  const rest = formula.slice(head[0].length);
  const close = rest.lastIndexOf(')');
  if (close < 0 || rest.slice(close + 1).trim() !== '') return null;
  const parts = splitArgs(rest.slice(0, close));
  if (!parts) return null;
  const args: FormulaArg[] = [];
  for (const part of parts) {
    const arg = parseArg(part);
    if (!arg) return null;
    args.push(arg);
  }
  return { name: head[1]!.toUpperCase(), args };
}

/**
 * Sheets' built-ins "that return a different result each time they calculate" (NOW, RAND named by
 * the custom functions guide, developers.google.com/apps-script/guides/sheets/functions#arguments;
 * TODAY and the other RAND functions by the stricter reading of apps-script-facts.md).
 */
export const VOLATILE_FUNCTIONS: readonly string[] = ['NOW', 'TODAY', 'RAND', 'RANDBETWEEN', 'RANDARRAY'];

/** What a formula's text mentions outside its string literals: the functions it calls and the cells it references. */
export interface FormulaMentions {
  calls: string[];
  refs: Array<Extract<FormulaArg, { kind: 'ref' }>>;
}

const IDENTIFIER_CHAR = /[A-Za-z0-9_.]/;

/** Scans any formula (nested calls, operators) for the calls and references it holds. Pure. */
export function formulaMentions(formula: string): FormulaMentions {
  const out: FormulaMentions = { calls: [], refs: [] };
  const text = formula.replace(/^\s*=/, '');
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') {
      const end = /^"(?:[^"]|"")*"?/.exec(text.slice(i))![0].length;
      i += end;
      continue;
    }
    if (i > 0 && IDENTIFIER_CHAR.test(text[i - 1]!)) {
      i++;
      continue;
    }
    const rest = text.slice(i);
    const ref = REF.exec(rest);
    if (ref && !/^\s*\(|^[A-Za-z0-9_.]/.test(rest.slice(ref[0].length))) {
      const arg = parseArg(ref[0]);
      if (arg?.kind === 'ref') out.refs.push(arg);
      i += ref[0].length;
      continue;
    }
    const call = /^([A-Za-z_][A-Za-z0-9_.]*)\s*\(/.exec(rest);
    if (call) out.calls.push(call[1]!.toUpperCase());
    const word = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(rest);
    i += word ? word[0].length : 1;
  }
  return out;
}

/** The outer function a formula calls (`=NAME(…)` as the whole formula), whatever its arguments hold. */
export function outerCallName(formula: string): string | null {
  const head = NAME.exec(formula);
  if (!head) return null;
  let depth = 1;
  let inString = false;
  for (let i = head[0].length; i < formula.length; i++) {
    const ch = formula[i]!;
    if (inString) {
      if (ch === '"' && formula[i + 1] === '"') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return formula.slice(i + 1).trim() === '' ? head[1]!.toUpperCase() : null;
  }
  return null;
}
