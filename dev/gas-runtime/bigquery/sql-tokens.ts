/** A small GoogleSQL tokenizer for the translator (dialect.ts): strings, comments and quoting are never rewritten by accident. */
import { unsupported } from './errors.js';

export type TokenKind = 'space' | 'string' | 'backtick' | 'ident' | 'number' | 'param' | 'punct';

export interface Token {
  kind: TokenKind;
  /** For a string: its value (escapes decoded); for a backtick: the text inside; else the source text. */
  text: string;
}

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '`': '`',
  '?': '?',
};

function readString(sql: string, start: number, raw: boolean): { value: string; end: number } {
  const quote = sql[start];
  if (sql.startsWith(quote.repeat(3), start)) throw unsupported('triple-quoted string literals');
  let value = '';
  for (let i = start + 1; i < sql.length; i++) {
    const c = sql[i];
    if (c === quote) return { value, end: i + 1 };
    if (c === '\\' && !raw) {
      const next = sql[i + 1];
      if (!(next in ESCAPES)) throw unsupported(`the escape sequence \\${next} in a string literal`);
      value += ESCAPES[next];
      i++;
    } else value += c;
  }
  throw new Error(`Syntax error: Unclosed string literal at [${start}]`);
}

export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    const rest = sql.slice(i);
    let m: RegExpExecArray | null;
    if ((m = /^\s+/.exec(rest))) {
      tokens.push({ kind: 'space', text: ' ' });
      i += m[0].length;
    } else if (rest.startsWith('--') || rest.startsWith('#')) {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end;
    } else if (rest.startsWith('/*')) {
      const end = sql.indexOf('*/', i + 2);
      if (end < 0) throw new Error('Syntax error: Unclosed comment');
      i = end + 2;
      tokens.push({ kind: 'space', text: ' ' });
    } else if (c === "'" || c === '"') {
      const s = readString(sql, i, false);
      tokens.push({ kind: 'string', text: s.value });
      i = s.end;
    } else if (/^[rR]['"]/.test(rest)) {
      const s = readString(sql, i + 1, true);
      tokens.push({ kind: 'string', text: s.value });
      i = s.end;
    } else if (/^[bB][rR]?['"]/.test(rest)) {
      throw unsupported('BYTES literals');
    } else if (c === '`') {
      const end = sql.indexOf('`', i + 1);
      if (end < 0) throw new Error('Syntax error: Unclosed identifier literal');
      tokens.push({ kind: 'backtick', text: sql.slice(i + 1, end) });
      i = end + 1;
    } else if ((m = /^@@?[A-Za-z_][A-Za-z0-9_]*/.exec(rest))) {
      if (m[0].startsWith('@@')) throw unsupported(`system variable ${m[0]}`);
      tokens.push({ kind: 'param', text: m[0].slice(1) });
      i += m[0].length;
    } else if ((m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest))) {
      tokens.push({ kind: 'ident', text: m[0] });
      i += m[0].length;
    } else if ((m = /^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(rest))) {
      tokens.push({ kind: 'number', text: m[0] });
      i += m[0].length;
    } else if ((m = /^(<=|>=|<>|!=|\|\||<<|>>)/.exec(rest))) {
      tokens.push({ kind: 'punct', text: m[0] });
      i += m[0].length;
    } else {
      tokens.push({ kind: 'punct', text: c });
      i += 1;
    }
  }
  return tokens;
}

/** A string value as a DuckDB literal. */
export function duckString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** An identifier's text in upper case; '' for any other token. */
export const upper = (t: Token | undefined): string => (t?.kind === 'ident' ? t.text.toUpperCase() : '');

/** The index just past the ")" that closes the "(" at `open`. */
export function pastClose(tokens: Token[], open: number): number {
  let depth = 0;
  for (let j = open; j < tokens.length; j++) {
    if (tokens[j].kind !== 'punct') continue;
    if (tokens[j].text === '(') depth++;
    if (tokens[j].text === ')' && --depth === 0) return j + 1;
  }
  throw new Error('Syntax error: Expected ")" but got end of statement');
}

/** The index of the first top-level identifier `word` at or after `from`, or -1. */
export function topLevel(tokens: Token[], from: number, word: string): number {
  for (let j = from; j < tokens.length; j++) {
    if (tokens[j].kind === 'punct' && tokens[j].text === '(') j = pastClose(tokens, j) - 1;
    else if (upper(tokens[j]) === word) return j;
  }
  return -1;
}

/** `tokens` without a trailing `[AS] alias`, and the alias (null when there is none). */
export function splitAlias(tokens: Token[]): { body: Token[]; alias: string | null } {
  const sig = tokens.map((t, i) => (t.kind === 'space' ? -1 : i)).filter((i) => i >= 0);
  const last = sig.at(-1);
  if (sig.length < 2 || last === undefined || tokens[last].kind !== 'ident') return { body: tokens, alias: null };
  const before = sig[sig.length - 2];
  const end = upper(tokens[before]) === 'AS' ? before : last;
  return { body: tokens.slice(0, end), alias: tokens[last].text };
}
