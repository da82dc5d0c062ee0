/**
 * A data source pivot table's figures from its data source's rows: grouped by the row groups'
 * columns (ascending, Sheets' default sort order), each pivot value summarized by its function.
 * NUMERIC sums are exact (BigInt at NUMERIC's 9 decimals), as BigQuery's SUM of NUMERIC is.
 * Summarize functions a data source pivot offers beyond those below are refused as not modelled.
 */
import { JobFailure } from '../bigquery/errors.js';
import type { FieldType } from '../bigquery/field-types.js';
import type { QueryResult } from './data-source-execution.js';
import { gridCell, type GridCell } from './data-source-grid.js';

export const SUMMARIZE_FUNCTIONS = ['SUM', 'COUNT', 'COUNTA', 'COUNTUNIQUE', 'AVERAGE', 'MIN', 'MAX'] as const;

export interface PivotValueSpec {
  column: string;
  fn: string;
}

export interface PivotSpec {
  rowGroups: string[];
  values: PivotValueSpec[];
}

const SCALE = 9;

function scaled(text: string): bigint {
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = text.replace(/^[-+]/, '').split('.');
  const value = BigInt(whole || '0') * 10n ** BigInt(SCALE) + BigInt((fraction + '0'.repeat(SCALE)).slice(0, SCALE));
  return negative ? -value : value;
}

function unscaled(value: bigint): number {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const text = `${abs / 10n ** BigInt(SCALE)}.${(abs % 10n ** BigInt(SCALE)).toString().padStart(SCALE, '0')}`;
  return Number(negative ? `-${text}` : text);
}

function summarize(fn: string, type: FieldType, texts: Array<string | null>): number | undefined {
  const present = texts.filter((t): t is string => t !== null);
  switch (fn) {
    case 'COUNTA':
      return present.length;
    case 'COUNTUNIQUE':
      return new Set(present).size;
    case 'COUNT':
      return type === 'STRING' || type === 'BOOLEAN' ? 0 : present.length;
  }
  if (present.length === 0) return undefined;
  if (fn === 'SUM')
    return type === 'FLOAT'
      ? present.reduce((s, t) => s + Number(t), 0)
      : unscaled(present.reduce((s, t) => s + scaled(t), 0n));
  const numbers = present.map(Number);
  if (fn === 'AVERAGE') return numbers.reduce((s, n) => s + n, 0) / numbers.length;
  if (fn === 'MIN') return Math.min(...numbers);
  return Math.max(...numbers);
}

function columnIndex(result: QueryResult, name: string): number {
  const at = result.columns.findIndex((c) => c.name === name);
  // BigQuery's own wording for a column the query does not have.
  if (at < 0) throw new JobFailure('invalidQuery', `Unrecognized name: ${name}`);
  return at;
}

function compare(a: string | null, b: string | null, type: FieldType): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (type === 'STRING' || type === 'DATE' || type === 'BOOLEAN') return a < b ? -1 : 1;
  return Number(a) - Number(b);
}

/** The pivot's cells: header, one row per group, Grand Total. One row group at most is modelled. */
export function pivotCells(result: QueryResult, spec: PivotSpec, timeZone: string): GridCell[][] {
  if (spec.rowGroups.length === 0 && spec.values.length === 0) return [];
  if (spec.rowGroups.length > 1)
    throw new JobFailure('invalidQuery', 'Unsupported by the local runtime: more than one row group');
  const valueColumns = spec.values.map((v) => ({ ...v, at: columnIndex(result, v.column) }));
  const header: GridCell[] = [
    ...spec.rowGroups.map((g) => ({ value: g })),
    ...spec.values.map((v) => ({ value: `${v.fn} of ${v.column}` })),
  ];
  const totals = (rows: Array<Array<string | null>>): GridCell[] =>
    valueColumns.map((v) => ({
      value: summarize(
        v.fn,
        result.columns[v.at].type,
        rows.map((r) => r[v.at]),
      ),
    }));
  if (spec.rowGroups.length === 0) return [header, totals(result.rows)];
  const at = columnIndex(result, spec.rowGroups[0]);
  const type = result.columns[at].type;
  const groups = new Map<string | null, Array<Array<string | null>>>();
  for (const row of result.rows) {
    const list = groups.get(row[at]) ?? [];
    list.push(row);
    groups.set(row[at], list);
  }
  const keys = [...groups.keys()].sort((a, b) => compare(a, b, type));
  const body = keys.map((key) => [gridCell(type, key, timeZone), ...totals(groups.get(key)!)]);
  return [header, ...body, [{ value: 'Grand Total' }, ...totals(result.rows)]];
}
