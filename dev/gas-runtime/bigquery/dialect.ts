/**
 * GoogleSQL, as the add-on emits it, translated to DuckDB where the dialects differ. Small and
 * explicit: every function must be known here (passed through, renamed or rewritten), and anything
 * else is refused naming the construct, never guessed. References: GoogleSQL for BigQuery —
 * "Lexical structure and syntax", "Data types", "Date functions", "Mathematical functions",
 * "Conversion functions", "Query syntax", "DML syntax".
 *
 * - `project.dataset.table` (or `dataset.table`, in the job's project) in backticks → the DuckDB
 *   schema "project.dataset", table "table"; an unquoted path is refused (quote it).
 * - "double-quoted" and 'single-quoted' strings (backslash escapes) → DuckDB '…' literals.
 * - @name → CAST($name AS <the parameter's type>).
 * - CAST/SAFE_CAST(x AS STRING|INT64|FLOAT64|BOOL|NUMERIC|BIGNUMERIC|DATE|TIMESTAMP).
 * - DATE_TRUNC(date, DAY|MONTH|QUARTER|YEAR|ISOWEEK) → a DATE; WEEK (Sunday weeks) is refused.
 * - FORMAT_DATE(literal, date) with %Y %y %m %d %b %B %j %a %A %F %%; other elements refused.
 * - SAFE_DIVIDE(a, b) → NULL when b is 0 (computed in DOUBLE: NUMERIC division is not exact here).
 * - CURRENT_DATE() / CURRENT_TIMESTAMP() → the runtime clock's instant (UTC), not the host's.
 * - UNNEST(array) AS x names the element x, as in GoogleSQL.
 * - SELECT * EXCEPT (…) → DuckDB's EXCLUDE; MERGE without INTO gets INTO, DELETE without FROM gets FROM.
 * - One statement only (scripting is not modelled); DDL is refused (tables come from tables.insert).
 */
import { unsupported } from './errors.js';
import { duckTypeOf, utcTimestampText, type FieldType } from './field-types.js';
import { duckString, tokenize, type Token } from './sql-tokens.js';
import { keyedMergeOn } from './merge-join-keys.js';

export type StatementType = 'SELECT' | 'INSERT' | 'UPDATE' | 'DELETE' | 'MERGE';

export interface TableRef {
  projectId: string;
  datasetId: string;
  tableId: string;
}

export interface TranslateOptions {
  /** The job's project: a `dataset.table` path is in it. */
  projectId: string;
  /** The DuckDB name of a table; throws (not found) when it does not exist. */
  tableSql: (ref: TableRef) => string;
  /** Named query parameters' types (queryParameters[].parameterType.type). */
  parameterTypes: Record<string, FieldType>;
  /** Named ARRAY<STRUCT<…>> parameters' fields (query.ts passes their value as JSON text). */
  structArrayTypes?: Record<string, StructField[]>;
  /** Named ARRAY parameters of a scalar type (query.ts passes their value as JSON text). */
  scalarArrayTypes?: Record<string, FieldType>;
  /** The runtime clock, for CURRENT_DATE() and CURRENT_TIMESTAMP(). */
  now: number;
}

export interface StructField {
  name: string;
  type: FieldType;
}

export interface Translation {
  sql: string;
  statementType: StatementType;
  tables: TableRef[];
  /** The table a DML statement changes. */
  target?: TableRef;
  parameters: string[];
}

const CAST_TYPES: Record<string, FieldType> = {
  STRING: 'STRING',
  INT64: 'INTEGER',
  INTEGER: 'INTEGER',
  FLOAT64: 'FLOAT',
  BOOL: 'BOOLEAN',
  BOOLEAN: 'BOOLEAN',
  NUMERIC: 'NUMERIC',
  BIGNUMERIC: 'BIGNUMERIC',
  DATE: 'DATE',
  TIMESTAMP: 'TIMESTAMP',
};

/** Same meaning in both dialects (checked against GoogleSQL's function reference). */
const SAME_FUNCTIONS = new Set([
  'COUNT',
  'SUM',
  'MIN',
  'MAX',
  'AVG',
  'COALESCE',
  'IFNULL',
  'NULLIF',
  'IF',
  'ROUND',
  'ABS',
  'LOWER',
  'UPPER',
  'CONCAT',
  'LENGTH',
  'GREATEST',
  'LEAST',
  'TRIM',
  'SUBSTR',
  'STARTS_WITH',
  'ENDS_WITH',
  'REPEAT',
  'ANY_VALUE',
  'STRING_AGG',
  'ROW_NUMBER',
  'RANK',
  'DENSE_RANK',
  'MOD',
]);

const RENAMED_FUNCTIONS: Record<string, string> = {
  SAFE_CAST: 'TRY_CAST',
  COUNTIF: 'count_if',
  GENERATE_ARRAY: 'generate_series',
  SAFE_DIVIDE: 'bq_safe_divide',
};

/** Words that may stand before "(" without being a function call. */
const KEYWORDS_BEFORE_PAREN = new Set([
  'IN',
  'AS',
  'USING',
  'VALUES',
  'EXISTS',
  'OVER',
  'INSERT',
  'ON',
  'AND',
  'OR',
  'NOT',
  'WHEN',
  'THEN',
  'ELSE',
  'FROM',
  'JOIN',
  'SELECT',
  'WHERE',
  'BY',
  'HAVING',
  'WITH',
  'ALL',
  'DISTINCT',
  'UNION',
  'INTERSECT',
  'IS',
  'LIKE',
  'BETWEEN',
  'SET',
  'WINDOW',
  'CAST',
  'EXTRACT',
  'CASE',
]);

const TABLE_KEYWORDS = new Set(['FROM', 'JOIN', 'INTO', 'UPDATE', 'MERGE', 'USING', 'TABLE']);
const DATE_PARTS: Record<string, string> = {
  DAY: 'day',
  MONTH: 'month',
  QUARTER: 'quarter',
  YEAR: 'year',
  ISOWEEK: 'week',
};
const EXTRACT_PARTS = new Set(['YEAR', 'MONTH', 'DAY', 'QUARTER', 'HOUR', 'MINUTE', 'SECOND']);
const FORMAT_ELEMENTS = new Set(['Y', 'y', 'm', 'd', 'b', 'B', 'j', 'a', 'A', '%']);

/** Engine set-up: the macros the translation calls. */
export const DIALECT_MACROS = [
  'CREATE OR REPLACE MACRO bq_safe_divide(a, b) AS CASE WHEN b = 0 THEN NULL ELSE a / b END',
  'CREATE OR REPLACE MACRO bq_date_trunc(x, part) AS CAST(date_trunc(part, x) AS DATE)',
];

class Translator {
  private readonly out: string[] = [];
  readonly tables: TableRef[] = [];
  readonly parameters: string[] = [];

  constructor(private readonly options: TranslateOptions) {}

  /** Translates tokens[from, to) and returns the DuckDB text. */
  run(tokens: Token[]): string {
    const saved = this.out.splice(0);
    for (let i = 0; i < tokens.length; i++) i = this.one(tokens, i);
    const text = this.out.join('');
    this.out.splice(0, this.out.length, ...saved);
    return text;
  }

  /** Emits one token (or a construct starting at it); returns the index of its last token. */
  private one(tokens: Token[], i: number): number {
    const t = tokens[i];
    const prev = previousSignificant(tokens, i);
    switch (t.kind) {
      case 'space':
      case 'number':
        this.out.push(t.text);
        return i;
      case 'string':
        this.out.push(duckString(t.text));
        return i;
      case 'param':
        return this.parameter(t.text, i);
      case 'backtick':
        return this.backtick(tokens, i);
      case 'punct':
        if (t.text === ';') {
          if (tokens.slice(i + 1).some((x) => x.kind !== 'space'))
            throw unsupported('multi-statement queries (scripting)');
          return i;
        }
        this.out.push(t.text);
        return i;
      case 'ident':
        return this.identifier(tokens, i, prev);
    }
  }

  private parameter(name: string, i: number): number {
    const fields = this.options.structArrayTypes?.[name];
    if (fields) {
      if (!this.parameters.includes(name)) this.parameters.push(name);
      const struct = fields.map((f) => `"${f.name.replace(/"/g, '""')}" ${duckTypeOf(f.type)}`).join(', ');
      this.out.push(`CAST(CAST($${name} AS JSON) AS STRUCT(${struct})[])`);
      return i;
    }
    const element = this.options.scalarArrayTypes?.[name];
    if (element) {
      if (!this.parameters.includes(name)) this.parameters.push(name);
      this.out.push(`CAST(CAST(CAST($${name} AS JSON) AS VARCHAR[]) AS ${duckTypeOf(element)}[])`);
      return i;
    }
    const type = this.options.parameterTypes[name];
    if (!type) throw new Error(`Query parameter '${name}' not found`);
    if (!this.parameters.includes(name)) this.parameters.push(name);
    this.out.push(`CAST($${name} AS ${duckTypeOf(type)})`);
    return i;
  }

  private backtick(tokens: Token[], i: number): number {
    const next = nextSignificant(tokens, i);
    if (next !== undefined && tokens[next].text === '.' && tokens[next].kind === 'punct')
      throw unsupported(`a partly quoted path \`${tokens[i].text}\`.…; quote the whole path`);
    const parts = tokens[i].text.split('.');
    if (parts.length === 1) {
      this.out.push(`"${parts[0].replace(/"/g, '""')}"`);
      return i;
    }
    if (parts.length > 3 || parts.some((p) => p === '')) throw unsupported(`the path \`${tokens[i].text}\``);
    const ref: TableRef =
      parts.length === 3
        ? { projectId: parts[0], datasetId: parts[1], tableId: parts[2] }
        : { projectId: this.options.projectId, datasetId: parts[0], tableId: parts[1] };
    this.tables.push(ref);
    this.out.push(this.options.tableSql(ref));
    return i;
  }

  private identifier(tokens: Token[], i: number, prev: Token | undefined): number {
    const inArray = prev?.text === '.' ? undefined : this.columnInArray(tokens, i);
    if (inArray !== undefined) return inArray;
    const word = tokens[i].text;
    const upper = word.toUpperCase();
    const nextIndex = nextSignificant(tokens, i);
    const next = nextIndex === undefined ? undefined : tokens[nextIndex];
    if (prev && TABLE_KEYWORDS.has(prev.text.toUpperCase()) && prev.kind === 'ident' && next?.text === '.')
      throw unsupported(`an unquoted table path starting ${word}.…; write \`project.dataset.table\``);
    if (upper === 'MERGE' && next?.text.toUpperCase() !== 'INTO') {
      this.out.push('MERGE INTO');
      return i;
    }
    // A statement's DELETE may omit FROM; MERGE's "THEN DELETE" is not followed by one ("DML syntax").
    if (upper === 'DELETE' && prev === undefined && next?.text.toUpperCase() !== 'FROM') {
      this.out.push('DELETE FROM');
      return i;
    }
    if (upper === 'ROW' && prev?.text.toUpperCase() === 'INSERT')
      throw unsupported('INSERT ROW in MERGE; list the columns');
    if (upper === 'EXCEPT' && prev?.text === '*') {
      this.out.push('EXCLUDE');
      return i;
    }
    if (upper === 'TIMESTAMP' && next?.kind === 'string') {
      const utc = utcTimestampText(next.text);
      if (!utc) throw new Error(`Invalid TIMESTAMP literal: ${next.text}`);
      this.out.push(`TIMESTAMP ${duckString(utc)}`);
      return nextIndex!;
    }
    if (prev?.text.toUpperCase() === 'AS' && upper in CAST_TYPES && next?.text === ')') {
      this.out.push(duckTypeOf(CAST_TYPES[upper]));
      return i;
    }
    if (next?.text !== '(' || KEYWORDS_BEFORE_PAREN.has(upper)) {
      if (upper === 'EXTRACT' && next?.text === '(') this.checkExtract(tokens, nextIndex!);
      this.out.push(word);
      return i;
    }
    return this.call(tokens, i, nextIndex!, upper);
  }

  /**
   * `column IN UNNEST(@array)` of a scalar ARRAY parameter as DuckDB's list_contains(list, column),
   * which DuckDB also takes in a MERGE's ON (an IN subquery there is "Not implemented"); the index
   * of its last token, or undefined when tokens[i] does not start one.
   */
  private columnInArray(tokens: Token[], i: number): number | undefined {
    const path = [tokens[i].text];
    let j = i;
    for (;;) {
      const dot = nextSignificant(tokens, j);
      const name = dot === undefined ? undefined : nextSignificant(tokens, dot);
      if (dot === undefined || tokens[dot].text !== '.' || name === undefined || tokens[name].kind !== 'ident') break;
      path.push(tokens[name].text);
      j = name;
    }
    const rest: number[] = [];
    for (let k = j; rest.length < 5;) {
      const next = nextSignificant(tokens, k);
      if (next === undefined) return undefined;
      rest.push(next);
      k = next;
    }
    const [inWord, unnest, open, param, close] = rest.map((k) => tokens[k]);
    const element = param.kind === 'param' ? this.options.scalarArrayTypes?.[param.text] : undefined;
    if (inWord.text.toUpperCase() !== 'IN' || unnest.text.toUpperCase() !== 'UNNEST' || open.text !== '(')
      return undefined;
    if (element === undefined || close.text !== ')') return undefined;
    if (!this.parameters.includes(param.text)) this.parameters.push(param.text);
    const list = `CAST(CAST(CAST($${param.text} AS JSON) AS VARCHAR[]) AS ${duckTypeOf(element)}[])`;
    this.out.push(`list_contains(${list}, ${path.join('.')})`);
    return rest[4];
  }

  private checkExtract(tokens: Token[], open: number): void {
    const partIndex = nextSignificant(tokens, open);
    const part = partIndex === undefined ? '' : tokens[partIndex].text.toUpperCase();
    if (!EXTRACT_PARTS.has(part)) throw unsupported(`EXTRACT(${part} …) (its numbering differs in DuckDB)`);
  }

  private call(tokens: Token[], i: number, open: number, upper: string): number {
    if (SAME_FUNCTIONS.has(upper) || upper in RENAMED_FUNCTIONS) {
      this.out.push(RENAMED_FUNCTIONS[upper] ?? tokens[i].text);
      return i;
    }
    const { args, close } = splitArguments(tokens, open);
    const arg = (n: number): string => this.run(args[n] ?? []);
    const count = args.filter((a) => a.some((t) => t.kind !== 'space')).length;
    switch (upper) {
      case 'DATE':
        if (count === 1) this.out.push(`CAST(${arg(0)} AS DATE)`);
        else if (count === 3) this.out.push(`make_date(${arg(0)}, ${arg(1)}, ${arg(2)})`);
        else throw unsupported(`DATE with ${count} arguments`);
        return close;
      case 'DATE_TRUNC':
      case 'TIMESTAMP_TRUNC': {
        const part = significant(args[1] ?? [])
          .map((t) => t.text.toUpperCase())
          .join('');
        if (count !== 2 || !(part in DATE_PARTS)) throw unsupported(`${upper}(…, ${part})`);
        this.out.push(
          upper === 'DATE_TRUNC'
            ? `bq_date_trunc(${arg(0)}, '${DATE_PARTS[part]}')`
            : `date_trunc('${DATE_PARTS[part]}', ${arg(0)})`,
        );
        return close;
      }
      case 'FORMAT_DATE': {
        const format = significant(args[0] ?? []);
        if (count !== 2 || format.length !== 1 || format[0].kind !== 'string')
          throw unsupported('FORMAT_DATE without a literal format string');
        this.out.push(`strftime(CAST(${arg(1)} AS DATE), ${duckString(strftimeFormat(format[0].text))})`);
        return close;
      }
      case 'UNNEST': {
        const as = nextSignificant(tokens, close);
        const alias = as === undefined ? undefined : nextSignificant(tokens, as);
        const only = significant(args[0] ?? []);
        if (only.length === 1 && only[0].kind === 'param' && this.options.structArrayTypes?.[only[0].text]) {
          // An array of STRUCTs: a row per element, a column per field ("Work with arrays", UNNEST).
          if (as !== undefined && tokens[as].text.toUpperCase() === 'AS')
            throw unsupported('UNNEST of an array of STRUCTs with an alias');
          this.out.push(`(SELECT unnest(${arg(0)}, recursive := true))`);
          return close;
        }
        // "x IN UNNEST(array)": true when an element equals x ("Operators", IN operator).
        if (previousSignificant(tokens, i)?.text.toUpperCase() === 'IN') {
          this.out.push(`(SELECT unnest(${arg(0)}))`);
          return close;
        }
        // GoogleSQL's "UNNEST(array) AS n" names the element; DuckDB's alias would name the table.
        this.out.push(`unnest(${arg(0)})`);
        if (as === undefined || tokens[as].text.toUpperCase() !== 'AS' || alias === undefined) return close;
        if (tokens[alias].kind !== 'ident') throw unsupported('UNNEST with a quoted alias');
        this.out.push(` AS ${tokens[alias].text}(${tokens[alias].text})`);
        return alias;
      }
      case 'CURRENT_DATE':
      case 'CURRENT_TIMESTAMP': {
        if (count !== 0) throw unsupported(`${upper} with a time zone`);
        const iso = new Date(this.options.now).toISOString();
        this.out.push(
          upper === 'CURRENT_DATE'
            ? `DATE '${iso.slice(0, 10)}'`
            : `TIMESTAMP '${iso.slice(0, 10)} ${iso.slice(11, 23)}'`,
        );
        return close;
      }
      default:
        throw unsupported(`the function ${upper}`);
    }
  }
}

function significant(tokens: Token[]): Token[] {
  return tokens.filter((t) => t.kind !== 'space');
}

function previousSignificant(tokens: Token[], i: number): Token | undefined {
  for (let j = i - 1; j >= 0; j--) if (tokens[j].kind !== 'space') return tokens[j];
  return undefined;
}

function nextSignificant(tokens: Token[], i: number): number | undefined {
  for (let j = i + 1; j < tokens.length; j++) if (tokens[j].kind !== 'space') return j;
  return undefined;
}

/** The arguments of a call whose "(" is at `open`, split on top-level commas. */
function splitArguments(tokens: Token[], open: number): { args: Token[][]; close: number } {
  const args: Token[][] = [[]];
  let depth = 0;
  for (let j = open + 1; j < tokens.length; j++) {
    const t = tokens[j];
    if (t.kind === 'punct' && t.text === '(') depth++;
    if (t.kind === 'punct' && t.text === ')') {
      if (depth === 0) return { args, close: j };
      depth--;
    }
    if (depth === 0 && t.kind === 'punct' && t.text === ',') args.push([]);
    else args[args.length - 1].push(t);
  }
  throw new Error('Syntax error: Expected ")" but got end of statement');
}

function strftimeFormat(format: string): string {
  return format.replace(/%(.)/g, (_, element: string) => {
    if (element === 'F') return '%Y-%m-%d';
    if (!FORMAT_ELEMENTS.has(element)) throw unsupported(`the FORMAT_DATE element %${element}`);
    return `%${element}`;
  });
}

function statementTypeOf(tokens: Token[]): StatementType {
  const first = significant(tokens)[0]?.text.toUpperCase() ?? '';
  if (first === 'SELECT' || first === 'WITH' || first === '(') return 'SELECT';
  if (first === 'INSERT' || first === 'UPDATE' || first === 'DELETE' || first === 'MERGE') return first;
  throw unsupported(`the statement ${first || '(empty)'} (DDL and scripting: use tables.insert and single statements)`);
}

/** One clause of a statement (tokens from tokenize), translated alone; with the parameters it names. */
export function translatePart(tokens: Token[], options: TranslateOptions): { sql: string; parameters: string[] } {
  const translator = new Translator(options);
  return { sql: translator.run(tokens), parameters: translator.parameters };
}

export function translate(sql: string, options: TranslateOptions): Translation {
  const written = tokenize(sql);
  const statementType = statementTypeOf(written);
  const tokens = statementType === 'MERGE' ? keyedMergeOn(written) : written;
  const translator = new Translator(options);
  const text = translator.run(tokens);
  const translation: Translation = {
    sql: text,
    statementType,
    tables: translator.tables,
    parameters: translator.parameters,
  };
  if (statementType !== 'SELECT') translation.target = translator.tables[0];
  return translation;
}
