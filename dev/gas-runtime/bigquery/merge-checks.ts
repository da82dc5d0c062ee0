/**
 * What BigQuery refuses in a MERGE that DuckDB would run:
 * - a target row that more than one source row matches: the statement fails with "UPDATE/MERGE
 *   must match at most one source row for each target row" (GoogleSQL "DML syntax",
 *   https://cloud.google.com/bigquery/docs/reference/standard-sql/dml-syntax, the runtime error
 *   of UPDATE and MERGE), where DuckDB updates the row once per source row. Google names no
 *   exception for a MERGE whose WHEN clauses would leave the row alone: the stand-in refuses any
 *   target row that the ON condition pairs with two source rows;
 * - a correlated subquery in the WHEN clauses: "Correlated subqueries within a when_clause,
 *   search_condition, merge_update_clause or merge_insert_clause are not supported" ("Transform
 *   data with data manipulation language (DML)", Limitations,
 *   https://cloud.google.com/bigquery/docs/updating-data). A subquery is correlated when it does
 *   not bind alone (it names the target, the source or one of their columns): each is prepared
 *   by DuckDB on its own, which finds the reference a scan of the text would miss.
 * The pairs of target and source rows are kept (a temporary table) for the partition count: a
 * row the MERGE moves to another day modifies the partition it leaves too, which DuckDB's
 * RETURNING (the new values) does not show.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { translatePart, type TranslateOptions } from './dialect.js';
import { JobFailure, unsupported } from './errors.js';
import { pastClose, splitAlias, tokenize, topLevel, upper, type Token } from './sql-tokens.js';
import { columnSql } from './warehouse.js';

interface Part {
  sql: string;
  parameters: string[];
}

export interface MergeChecks {
  /** Keeps each matched target row (rowid, partition) and how many source rows match it. */
  matches: Part;
  targetSql: string;
  /** The WHEN clauses' subqueries, each alone. */
  whenSubqueries: Part[];
}

const CORRELATED =
  'Correlated subqueries within a when_clause, search_condition, merge_update_clause or merge_insert_clause are not supported';

const MATCHED = 'bq_merge_matched';

/** The WHEN clauses' subqueries: "(" then SELECT or WITH, up to its ")". */
function subqueries(tokens: Token[]): Token[][] {
  const found: Token[][] = [];
  for (let j = 0; j < tokens.length; j++) {
    if (tokens[j].kind !== 'punct' || tokens[j].text !== '(') continue;
    const first = tokens.slice(j + 1).find((t) => t.kind !== 'space');
    if (upper(first) !== 'SELECT' && upper(first) !== 'WITH') continue;
    const end = pastClose(tokens, j);
    found.push(tokens.slice(j + 1, end - 1));
    j = end - 1;
  }
  return found;
}

/**
 * The checks of a MERGE statement (GoogleSQL text), translated as translate() translates it;
 * `partition`: the target's partitioning column, if any.
 */
export function mergeChecks(sql: string, options: TranslateOptions, partition?: string): MergeChecks {
  const tokens = tokenize(sql);
  const sig = tokens.map((t, i) => (t.kind === 'space' ? -1 : i)).filter((i) => i >= 0);
  let k = 1;
  if (upper(tokens[sig[k]]) === 'INTO') k++;
  const target = tokens[sig[k]];
  const using = topLevel(tokens, sig[k] + 1, 'USING');
  const on = using < 0 ? -1 : topLevel(tokens, using + 1, 'ON');
  const when = on < 0 ? -1 : topLevel(tokens, on + 1, 'WHEN');
  if (target?.kind !== 'backtick' || when < 0)
    throw unsupported('a MERGE not of the form MERGE `table` USING … ON … WHEN …');
  const targetAlias = splitAlias(tokens.slice(sig[k], using)).alias ?? target.text.split('.').at(-1)!;
  const source = splitAlias(tokens.slice(using + 1, on));
  const part = (t: Token[]): Part => translatePart(t, options);
  const targetSql = part([target]).sql;
  const sourceSql = part(source.body);
  const onSql = part(tokens.slice(on + 1, when));
  const sourceAs = source.alias === null ? '' : ` AS ${source.alias}`;
  const day = partition === undefined ? 'NULL' : `CAST(${targetAlias}.${columnSql(partition)} AS VARCHAR)`;
  return {
    matches: {
      sql:
        `CREATE OR REPLACE TEMP TABLE ${MATCHED} AS SELECT ${targetAlias}.rowid AS r, ${day} AS p, COUNT(*) AS n ` +
        `FROM ${targetSql} AS ${targetAlias} JOIN ${sourceSql.sql}${sourceAs} ON ${onSql.sql} GROUP BY 1, 2`,
      parameters: [...new Set([...sourceSql.parameters, ...onSql.parameters])],
    },
    targetSql,
    whenSubqueries: subqueries(tokens.slice(when)).map(part),
  };
}

const only = (names: string[], values: Record<string, string | null>) =>
  Object.fromEntries(names.map((n) => [n, values[n]]));

/** Fails the job as BigQuery would, before DuckDB runs the MERGE. */
export async function checkMerge(
  c: DuckDBConnection,
  checks: MergeChecks,
  values: Record<string, string | null>,
): Promise<void> {
  for (const subquery of checks.whenSubqueries) {
    try {
      await c.prepare(subquery.sql);
    } catch (e) {
      if (/^Binder Error: Referenced (column|table)/.test((e as Error).message))
        throw new JobFailure('invalidQuery', CORRELATED);
      throw e;
    }
  }
  const { sql, parameters } = checks.matches;
  await c.run(sql, only(parameters, values));
  const [[count]] = (await c.runAndReadAll(`SELECT COUNT(*) FROM ${MATCHED} WHERE n > 1`)).getRows();
  if (Number(count) > 0)
    throw new JobFailure('invalidQuery', 'UPDATE/MERGE must match at most one source row for each target row');
}

/** After the MERGE ran (checkMerge first): the partitions its updates moved rows out of (text). */
export async function partitionsLeft(c: DuckDBConnection, checks: MergeChecks, partition: string): Promise<string[]> {
  const moved =
    `SELECT DISTINCT m.p FROM ${MATCHED} m JOIN ${checks.targetSql} t ON t.rowid = m.r ` +
    `WHERE CAST(t.${columnSql(partition)} AS VARCHAR) IS DISTINCT FROM m.p`;
  return (await c.runAndReadAll(moved)).getRows().map((r) => String(r[0]));
}
