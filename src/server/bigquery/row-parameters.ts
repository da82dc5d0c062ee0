/**
 * A flush's rows sent as one named query parameter instead of a load: an ARRAY of STRUCTs, one
 * field per column ("Running parameterized queries", "Using arrays" and "Using structs"; REST
 * QueryParameter), which a MERGE reads with `UNNEST(@rows)`. The values go beside the SQL, never
 * into it. Only for a small flush (INLINE_ROWS_BYTES): a query's request holds at most 10 MB
 * ("Quotas and limits", API requests: maximum request size), and a parameter's value, every field
 * wrapped as {"value": …}, takes about twice the NDJSON of the same rows.
 */
import type { WarehouseRow } from './rows';
import type { WarehouseTable } from './table-schemas';

/** A flush whose rows take at most this much NDJSON a table is MERGEd from parameters, with no load job. */
export const INLINE_ROWS_BYTES = 1024 * 1024;

type Parameter = GoogleAppsScript.BigQuery.Schema.QueryParameter;

const valueText = (v: string | number | boolean | null | undefined): string | null =>
  v === null || v === undefined ? null : String(v);

/** `rows` as the parameter `name`: ARRAY<STRUCT<…>> with the table's fields and types. */
export function rowsParameter(name: string, table: WarehouseTable, rows: readonly WarehouseRow[]): Parameter {
  return {
    name,
    parameterType: {
      type: 'ARRAY',
      arrayType: { type: 'STRUCT', structTypes: table.fields.map((f) => ({ name: f.name, type: { type: f.type } })) },
    },
    parameterValue: {
      arrayValues: rows.map((row) => {
        // Every field named; a NULL one as a value without `value` (REST QueryParameterValue).
        const structValues: Record<string, { value?: string }> = {};
        for (const f of table.fields) {
          const text = valueText(row[f.name]);
          structValues[f.name] = text === null ? {} : { value: text };
        }
        return { structValues };
      }),
    },
  };
}

/** Order ids as the parameter `name`: ARRAY<STRUCT<id STRING>>, read with `SELECT id FROM UNNEST(@name)`. */
export function idsParameter(name: string, ids: readonly string[]): Parameter {
  return {
    name,
    parameterType: {
      type: 'ARRAY',
      arrayType: { type: 'STRUCT', structTypes: [{ name: 'id', type: { type: 'STRING' } }] },
    },
    parameterValue: { arrayValues: ids.map((id) => ({ structValues: { id: { value: id } } })) },
  };
}

/** Days as the parameter `name`: ARRAY<DATE>, read with `col IN UNNEST(@name)` (REST QueryParameterValue arrayValues). */
export function daysParameter(name: string, days: readonly string[]): Parameter {
  return {
    name,
    parameterType: { type: 'ARRAY', arrayType: { type: 'DATE' } },
    parameterValue: { arrayValues: days.map((day) => ({ value: day })) },
  };
}
