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
  /** Row groups whose totals are hidden (PivotGroup.showTotals(false)); every group shows them by default. */
  hiddenTotals?: string[];
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

/**
 * The pivot's cells: header, then the rows of each group, outer groups first. As Sheets lays a
 * pivot out (support.google.com/docs/answer/1272900, "Create & use pivot tables"; PivotGroup.showTotals,
 * developers.google.com/apps-script/reference/spreadsheet/pivot-group#showtotalsshowtotals): an
 * outer group's value is shown on the first row of its block; a group's totals are the total of
 * its values within the group around it, so the outermost group's are the Grand Total row and an
 * inner group's are a "<outer value> Total" row closing each outer block; a group whose totals
 * are hidden has no such row.
 */
export function pivotCells(result: QueryResult, spec: PivotSpec, timeZone: string): GridCell[][] {
  if (spec.rowGroups.length === 0 && spec.values.length === 0) return [];
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
  const groups = spec.rowGroups.map((name) => {
    const at = columnIndex(result, name);
    return { name, at, type: result.columns[at].type };
  });
  const hidden = new Set(spec.hiddenTotals ?? []);
  const width = groups.length;
  const blank = (): GridCell => ({ value: '' });
  const body = (rows: Array<Array<string | null>>, depth: number): GridCell[][] => {
    const { at, type } = groups[depth];
    const byKey = new Map<string | null, Array<Array<string | null>>>();
    for (const row of rows) {
      const list = byKey.get(row[at]) ?? [];
      list.push(row);
      byKey.set(row[at], list);
    }
    const out: GridCell[][] = [];
    for (const key of [...byKey.keys()].sort((a, b) => compare(a, b, type))) {
      const label = gridCell(type, key, timeZone);
      const inner = byKey.get(key)!;
      if (depth === width - 1) {
        out.push([...Array.from({ length: depth }, blank), label, ...totals(inner)]);
        continue;
      }
      const block = body(inner, depth + 1);
      block[0][depth] = label;
      out.push(...block);
      if (!hidden.has(groups[depth + 1].name))
        out.push([
          ...Array.from({ length: depth }, blank),
          { value: `${String(label.value)} Total` },
          ...Array.from({ length: width - depth - 1 }, blank),
          ...totals(inner),
        ]);
    }
    return out;
  };
  const rows = [header, ...body(result.rows, 0)];
  if (!hidden.has(groups[0].name))
    rows.push([{ value: 'Grand Total' }, ...Array.from({ length: width - 1 }, blank), ...totals(result.rows)]);
  return rows;
}
