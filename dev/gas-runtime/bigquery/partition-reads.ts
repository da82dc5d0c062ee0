/**
 * The partitions a statement reads from its partitioned tables, given as the job's
 * statistics.query.totalPartitionsProcessed (REST reference "Job", JobStatistics2: "Total number of
 * partitions processed from all partitioned tables referenced in the job"), the figure the bytes
 * billed on a partitioned table follow. BigQuery prunes a table to the partitions a filter on its
 * partitioning column names with a constant expression ("Query partitioned tables", pruning; a
 * query parameter is one). Stricter than BigQuery, the runtime prunes a reference only by a
 * conjunct it recognizes, `A.col IN UNNEST(@array)` or `A.col = @value`, in the clause that filters
 * that reference: the WHERE after it, or for a MERGE's target its ON, where the rows of each
 * `WHEN NOT MATCHED BY SOURCE` clause, which ON does not match, are read by that clause's own
 * condition ("Updating partitioned table data using DML", pruning partitions in a MERGE: a filter
 * in the merge_condition or a when clause's search_condition). A reference under an OR, or with no
 * such conjunct, reads every partition its table holds.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { TableRef } from './dialect.js';
import { tokenize, type Token } from './sql-tokens.js';
import { columnSql, tableSql, type TableRecord } from './warehouse.js';

/** Words after a table path that are not its alias. */
const NOT_ALIASES = new Set(
  'WHERE ON USING WHEN JOIN INNER LEFT RIGHT FULL CROSS GROUP ORDER LIMIT QUALIFY HAVING SET UNION WINDOW'.split(' '),
);
/** Words that end a WHERE clause at its own depth. */
const CLAUSE_ENDS = new Set('GROUP ORDER LIMIT QUALIFY HAVING WINDOW UNION WHEN THEN'.split(' '));

export interface ParameterValues {
  values: Record<string, string | null>;
  /** ARRAY parameters of a scalar type: their value is a JSON list of texts. */
  arrays: Record<string, unknown>;
}

interface Read {
  table: TableRecord;
  /** The partitions (days) the filter names; null: every partition. */
  days: Set<string> | null;
}

const word = (t: Token | undefined): string => (t?.kind === 'ident' ? t.text.toUpperCase() : '');

function depths(tokens: Token[]): number[] {
  let depth = 0;
  return tokens.map((t) => {
    if (t.kind === 'punct' && t.text === ')') depth--;
    const d = depth;
    if (t.kind === 'punct' && t.text === '(') depth++;
    return d;
  });
}

/** The days one conjunct names for `column` of the reference `alias`, or undefined when it names none. */
function conjunctDays(
  c: Token[],
  alias: string | null,
  column: string,
  params: ParameterValues,
): Set<string> | undefined {
  let i = 0;
  if (alias !== null) {
    if (c[0]?.kind !== 'ident' || c[0].text !== alias || c[1]?.text !== '.') return undefined;
    i = 2;
  }
  if (c[i]?.kind !== 'ident' || c[i].text.toLowerCase() !== column.toLowerCase()) return undefined;
  const rest = c.slice(i + 1);
  if (rest.length === 2 && rest[0].text === '=' && rest[1].kind === 'param') {
    const value = params.values[rest[1].text];
    return new Set(value === null || value === undefined ? [] : [value]);
  }
  const inUnnest = rest.length === 5 && word(rest[0]) === 'IN' && word(rest[1]) === 'UNNEST' && rest[2].text === '(';
  if (inUnnest && rest[3].kind === 'param' && rest[4].text === ')' && rest[3].text in params.arrays)
    return new Set(JSON.parse(String(params.values[rest[3].text])) as string[]);
  return undefined;
}

/** The days a condition (its tokens, at one depth) limits the reference to: each recognized conjunct's, intersected. */
function conditionDays(
  tokens: Token[],
  alias: string | null,
  column: string,
  params: ParameterValues,
): Set<string> | null {
  const d = depths(tokens);
  const conjuncts: Token[][] = [[]];
  for (let i = 0; i < tokens.length; i++) {
    if (d[i] === 0 && word(tokens[i]) === 'OR') return null;
    if (d[i] === 0 && word(tokens[i]) === 'AND') conjuncts.push([]);
    else conjuncts[conjuncts.length - 1].push(tokens[i]);
  }
  const named = conjuncts
    .map((c) => conjunctDays(c, alias, column, params))
    .filter((days): days is Set<string> => days !== undefined);
  if (named.length === 0) return null;
  return named.reduce((a, b) => new Set([...a].filter((x) => b.has(x))));
}

/** The tokens from `from` while they stay at `depth` and no word of `ends` (at that depth) comes. */
function clause(tokens: Token[], d: number[], from: number, depth: number, ends: Set<string>): Token[] {
  const out: Token[] = [];
  for (let i = from; i < tokens.length && d[i] >= depth; i++) {
    if (d[i] === depth && (ends.has(word(tokens[i])) || tokens[i].text === ';')) break;
    out.push(tokens[i]);
  }
  return out;
}

/** A MERGE target's days: its ON's, with each NOT MATCHED BY SOURCE clause's own; null when any reads all. */
function mergeTargetDays(tokens: Token[], d: number[], alias: string | null, column: string, params: ParameterValues) {
  const on = tokens.findIndex((t, i) => d[i] === 0 && word(t) === 'ON');
  if (on < 0) return null;
  let days = conditionDays(clause(tokens, d, on + 1, 0, new Set(['WHEN'])), alias, column, params);
  for (let i = on; i < tokens.length && days !== null; i++) {
    const bySource =
      d[i] === 0 && word(tokens[i]) === 'WHEN' && word(tokens[i + 1]) === 'NOT' && word(tokens[i + 4]) === 'SOURCE';
    if (!bySource) continue;
    if (word(tokens[i + 5]) !== 'AND') return null;
    const own = conditionDays(clause(tokens, d, i + 6, 0, new Set(['THEN'])), alias, column, params);
    days = own === null ? null : new Set([...days, ...own]);
  }
  return days;
}

function reads(
  sql: string,
  statementType: string,
  resolve: (path: string) => TableRecord | undefined,
  params: ParameterValues,
): Read[] {
  const tokens = tokenize(sql).filter((t) => t.kind !== 'space');
  const d = depths(tokens);
  const out: Read[] = [];
  let first = true;
  tokens.forEach((t, b) => {
    if (t.kind !== 'backtick') return;
    const isTarget = first && statementType === 'MERGE';
    first = false;
    const table = resolve(t.text);
    const column = table?.timePartitioning?.field;
    if (!table || column === undefined) return;
    let k = b + 1;
    if (word(tokens[k]) === 'AS') k++;
    const alias = tokens[k]?.kind === 'ident' && !NOT_ALIASES.has(word(tokens[k])) ? tokens[k].text : null;
    if (isTarget) {
      out.push({ table, days: mergeTargetDays(tokens, d, alias, column, params) });
      return;
    }
    const where = tokens.findIndex((x, i) => i > b && d[i] === d[b] && word(x) === 'WHERE');
    const closes = tokens.findIndex((_, i) => i > b && d[i] < d[b]);
    const filtered = where >= 0 && (closes < 0 || where < closes);
    out.push({
      table,
      days: filtered ? conditionDays(clause(tokens, d, where + 1, d[b], CLAUSE_ENDS), alias, column, params) : null,
    });
  });
  return out;
}

/**
 * The partitions each table holds, kept from one write to the next: a load or DML job forgets its
 * table's (forgetPartitions) once it has run, so the set is what a scan would find.
 */
const held = new WeakMap<TableRecord, Set<string>>();

export function forgetPartitions(table: TableRecord | undefined): void {
  if (table) held.delete(table);
}

async function partitionsHeld(c: DuckDBConnection, table: TableRecord): Promise<Set<string>> {
  let partitions = held.get(table);
  if (!partitions) {
    const column = columnSql(table.timePartitioning!.field);
    const reader = await c.runAndReadAll(
      `SELECT DISTINCT CAST(CAST(${column} AS DATE) AS VARCHAR) FROM ${tableSql(table.ref)}`,
    );
    partitions = new Set(reader.getRows().map((r) => String(r[0])));
    held.set(table, partitions);
  }
  return partitions;
}

/** The partitions the statement reads, counted among those its tables hold when it starts. */
export async function partitionsProcessed(
  c: DuckDBConnection,
  sql: string,
  statementType: string,
  resolve: (ref: TableRef) => TableRecord | undefined,
  projectId: string,
  params: ParameterValues,
): Promise<number> {
  const byPath = (path: string): TableRecord | undefined => {
    const parts = path.split('.');
    if (parts.length === 3) return resolve({ projectId: parts[0], datasetId: parts[1], tableId: parts[2] });
    if (parts.length === 2) return resolve({ projectId, datasetId: parts[0], tableId: parts[1] });
    return undefined;
  };
  let total = 0;
  for (const read of reads(sql, statementType, byPath, params)) {
    const partitions = await partitionsHeld(c, read.table);
    total += read.days === null ? partitions.size : [...read.days].filter((day) => partitions.has(day)).length;
  }
  return total;
}
