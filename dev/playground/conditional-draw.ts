/**
 * The conditional formats the runtime keeps on a sheet (addConditionalFormatRule), drawn as Sheets
 * draws them: the first rule in the sheet's list whose ranges hold the cell and whose condition is
 * true for it sets the cell's fill, text colour, bold, italic and strikethrough. A CUSTOM_FORMULA's
 * relative references move with the cell from the first range's top-left cell, its absolute ($)
 * parts stay (support.google.com/docs/answer/78413). The formula language is the small part of
 * Sheets' rule formulas needs: OR, AND, NOT, ISNUMBER, ISBLANK, LEFT, RIGHT, LEN, comparisons
 * (= <> < <= > >=; text compared case-insensitively, as Sheets does), text, numbers, TRUE/FALSE and
 * single-cell references. A formula outside it draws nothing (and the rule is named in
 * `undrawn`), never a guessed colour. Pure apart from reading the sheet.
 */
import type { ConditionalFormatRecord } from '../gas-runtime/spreadsheet/conditional-formats';
import type { CellScalar } from '../gas-runtime/spreadsheet/number-format';
import type { SheetModel } from '../gas-runtime/spreadsheet/sheet-model';

/** What a rule sets on a cell, as CSS. */
export interface DrawnFormat {
  background?: string;
  color?: string;
  bold?: true;
  italic?: true;
  strike?: true;
}

type Value = CellScalar | '';
type Read = (row: number, column: number) => Value;

class Unsupported extends Error {}

interface Rgb {
  red?: number;
  green?: number;
  blue?: number;
}

function hex(color: unknown): string | undefined {
  if (!color || typeof color !== 'object') return undefined;
  const c = color as Rgb & { rgbColor?: Rgb };
  const rgb = c.rgbColor ?? c;
  const part = (n: number | undefined) =>
    Math.round(Math.min(1, Math.max(0, n ?? 0)) * 255)
      .toString(16)
      .padStart(2, '0');
  return `#${part(rgb.red)}${part(rgb.green)}${part(rgb.blue)}`;
}

export function drawnFormat(format: Record<string, unknown>): DrawnFormat {
  const out: DrawnFormat = {};
  const background = hex(format.backgroundColorStyle ?? format.backgroundColor);
  if (background) out.background = background;
  const text = (format.textFormat ?? {}) as Record<string, unknown>;
  const color = hex(text.foregroundColorStyle ?? text.foregroundColor);
  if (color) out.color = color;
  if (text.bold === true) out.bold = true;
  if (text.italic === true) out.italic = true;
  if (text.strikethrough === true) out.strike = true;
  return out;
}

// ---- the formula subset -----------------------------------------------------------------------------

type Token =
  | { kind: 'num'; value: number }
  | { kind: 'str'; value: string }
  | { kind: 'ref'; text: string }
  | { kind: 'name'; text: string }
  | { kind: 'op'; text: string };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const re =
    /\s*(?:(\d+(?:\.\d+)?)|"((?:[^"]|"")*)"|(\$?[A-Za-z]{1,3}\$?\d+)(?![A-Za-z0-9_(])|([A-Za-z_][A-Za-z0-9_.]*)|(<=|>=|<>|[=<>(),&]))/y;
  let at = 0;
  while (at < text.length) {
    if (/^\s*$/.test(text.slice(at))) break;
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) throw new Unsupported(`cannot read ${text.slice(at)}`);
    at = re.lastIndex;
    if (m[1] !== undefined) tokens.push({ kind: 'num', value: Number(m[1]) });
    else if (m[2] !== undefined) tokens.push({ kind: 'str', value: m[2].replace(/""/g, '"') });
    else if (m[3] !== undefined) tokens.push({ kind: 'ref', text: m[3] });
    else if (m[4] !== undefined) tokens.push({ kind: 'name', text: m[4].toUpperCase() });
    else tokens.push({ kind: 'op', text: m[5]! });
  }
  return tokens;
}

function lettersToColumn(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

const truthy = (v: Value): boolean =>
  typeof v === 'boolean' ? v : typeof v === 'number' ? v !== 0 : v !== '' && v.toUpperCase() === 'TRUE';
const text = (v: Value): string => (typeof v === 'boolean' ? (v ? 'TRUE' : 'FALSE') : String(v));

function compare(a: Value, b: Value, op: string): boolean {
  // An empty cell reads as 0 beside a number and as "" beside text (Sheets' comparison).
  const left: Value = a === '' && typeof b === 'number' ? 0 : a;
  const right: Value = b === '' && typeof left === 'number' ? 0 : b;
  let order: number;
  if (typeof left === 'number' && typeof right === 'number') order = left - right;
  else if (typeof left === typeof right) {
    const x = text(left).toLowerCase();
    const y = text(right).toLowerCase();
    order = x < y ? -1 : x > y ? 1 : 0;
  } else order = typeof left === 'number' ? -1 : typeof right === 'number' ? 1 : typeof left === 'string' ? -1 : 1; // numbers < text < booleans
  switch (op) {
    case '=':
      return order === 0;
    case '<>':
      return order !== 0;
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    default:
      return order >= 0;
  }
}

/** Evaluates a rule formula for the cell `shift` rows/columns from the rule's anchor. */
export function evaluateRuleFormula(formula: string, read: Read, shift: { rows: number; columns: number }): Value {
  const tokens = tokenize(formula.replace(/^\s*=/, ''));
  let i = 0;
  const peek = () => tokens[i];
  const isOp = (t: Token | undefined, op: string) => t?.kind === 'op' && t.text === op;
  const expect = (op: string) => {
    if (!isOp(tokens[i], op)) throw new Unsupported(`expected ${op}`);
    i++;
  };
  function comparison(): Value {
    let left = concat();
    const t = peek();
    if (t?.kind === 'op' && ['=', '<>', '<', '<=', '>', '>='].includes(t.text)) {
      i++;
      left = compare(left, concat(), t.text);
    }
    return left;
  }
  function concat(): Value {
    let left = primary();
    while (isOp(peek(), '&')) {
      i++;
      left = text(left) + text(primary());
    }
    return left;
  }
  function args(): Value[] {
    expect('(');
    const out: Value[] = [];
    if (!isOp(peek(), ')')) {
      out.push(comparison());
      while (isOp(peek(), ',')) {
        i++;
        out.push(comparison());
      }
    }
    expect(')');
    return out;
  }
  function primary(): Value {
    const t = tokens[i++];
    if (!t) throw new Unsupported('the formula ends early');
    if (t.kind === 'num' || t.kind === 'str') return t.value;
    if (t.kind === 'ref') {
      const m = /^(\$?)([A-Za-z]{1,3})(\$?)(\d+)$/.exec(t.text)!;
      const column = lettersToColumn(m[2]!) + (m[1] ? 0 : shift.columns);
      const row = Number(m[4]) + (m[3] ? 0 : shift.rows);
      return read(row, column);
    }
    if (t.kind === 'name') {
      if (t.text === 'TRUE' || t.text === 'FALSE') {
        if (isOp(peek(), '(')) args();
        return t.text === 'TRUE';
      }
      const a = args();
      switch (t.text) {
        case 'OR':
          return a.some(truthy);
        case 'AND':
          return a.every(truthy);
        case 'NOT':
          return !truthy(a[0] ?? '');
        case 'ISNUMBER':
          return typeof a[0] === 'number';
        case 'ISBLANK':
          return a[0] === '';
        case 'LEN':
          return text(a[0] ?? '').length;
        case 'LEFT':
          return text(a[0] ?? '').slice(0, typeof a[1] === 'number' ? a[1] : 1);
        case 'RIGHT': {
          const n = typeof a[1] === 'number' ? a[1] : 1;
          return n === 0 ? '' : text(a[0] ?? '').slice(-n);
        }
        default:
          throw new Unsupported(`${t.text} is not drawn by the playground`);
      }
    }
    if (isOp(t, '(')) {
      const v = comparison();
      expect(')');
      return v;
    }
    throw new Unsupported(`unexpected ${t.text}`);
  }
  const value = comparison();
  if (i !== tokens.length) throw new Unsupported('unexpected text after the formula');
  return value;
}

// ---- rules → cells ------------------------------------------------------------------------------------

function holds(rule: ConditionalFormatRecord, row: number, column: number): boolean {
  return rule.ranges.some(
    (r) =>
      row - 1 >= (r.startRowIndex ?? 0) &&
      (r.endRowIndex === undefined || row - 1 < r.endRowIndex) &&
      column - 1 >= (r.startColumnIndex ?? 0) &&
      (r.endColumnIndex === undefined || column - 1 < r.endColumnIndex),
  );
}

function conditionHolds(rule: ConditionalFormatRecord, value: Value, read: Read, row: number, column: number): boolean {
  const { type, values } = rule.condition;
  const num = (k: number) => Number(values[k]);
  const n = typeof value === 'number' ? value : null;
  switch (type) {
    case 'CUSTOM_FORMULA': {
      const anchor = rule.ranges[0]!;
      return truthy(
        evaluateRuleFormula(values[0] ?? '', read, {
          rows: row - 1 - (anchor.startRowIndex ?? 0),
          columns: column - 1 - (anchor.startColumnIndex ?? 0),
        }),
      );
    }
    case 'BLANK':
      return value === '';
    case 'NOT_BLANK':
      return value !== '';
    case 'TEXT_EQ':
      return value !== '' && text(value).toLowerCase() === (values[0] ?? '').toLowerCase();
    case 'TEXT_CONTAINS':
      return text(value)
        .toLowerCase()
        .includes((values[0] ?? '').toLowerCase());
    case 'TEXT_NOT_CONTAINS':
      return !text(value)
        .toLowerCase()
        .includes((values[0] ?? '').toLowerCase());
    case 'TEXT_STARTS_WITH':
      return text(value)
        .toLowerCase()
        .startsWith((values[0] ?? '').toLowerCase());
    case 'TEXT_ENDS_WITH':
      return text(value)
        .toLowerCase()
        .endsWith((values[0] ?? '').toLowerCase());
    case 'NUMBER_GREATER':
      return n !== null && n > num(0);
    case 'NUMBER_GREATER_THAN_EQ':
      return n !== null && n >= num(0);
    case 'NUMBER_LESS':
      return n !== null && n < num(0);
    case 'NUMBER_LESS_THAN_EQ':
      return n !== null && n <= num(0);
    case 'NUMBER_EQ':
      return n !== null && n === num(0);
    case 'NUMBER_NOT_EQ':
      return n !== null && n !== num(0);
    case 'NUMBER_BETWEEN':
      return n !== null && n >= num(0) && n <= num(1);
    case 'NUMBER_NOT_BETWEEN':
      return n !== null && (n < num(0) || n > num(1));
    default:
      throw new Unsupported(`${type} is not drawn by the playground`);
  }
}

export interface RuleDrawer {
  /** The format the first rule true for the cell sets, or undefined. */
  at(row: number, column: number): DrawnFormat | undefined;
  /** Rules the playground could not evaluate, in words (shown once, never guessed). */
  undrawn: string[];
}

/** Draws a sheet's rules; `valueAt` is the cell's value as a formula reads it (a formula's answer included). */
export function ruleDrawer(
  sheet: SheetModel,
  valueAt?: (row: number, column: number) => CellScalar | undefined,
): RuleDrawer {
  const read: Read = (row, column) => (valueAt ? valueAt(row, column) : sheet.value(row, column)) ?? '';
  const rules = sheet.conditionalFormats.map((rule) => ({
    rule,
    format: drawnFormat(rule.format),
    broken: null as string | null,
  }));
  return {
    at(row, column) {
      for (const entry of rules) {
        if (entry.broken !== null || !holds(entry.rule, row, column)) continue;
        try {
          if (conditionHolds(entry.rule, read(row, column), read, row, column)) return entry.format;
        } catch (error) {
          if (!(error instanceof Unsupported)) throw error;
          entry.broken = error.message;
        }
      }
      return undefined;
    },
    get undrawn() {
      return rules
        .filter((r) => r.broken !== null)
        .map((r) => `${r.rule.condition.type} ${r.rule.condition.values.join(' ')}: ${r.broken!}`);
    },
  };
}
