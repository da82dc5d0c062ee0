/**
 * BigQuery column types in the stand-in: the DuckDB type each is stored as, how a newline-delimited
 * JSON value is accepted for it on load, and how a stored value goes back over REST (every value a
 * string, NULL as null: REST reference v2, TableCell "v").
 *
 * Stricter than BigQuery where it would coerce: a JSON number for a STRING column, "true" for a
 * BOOLEAN, a number for a TIMESTAMP are refused (schema mismatch is an error, not a coercion).
 * NUMERIC and BIGNUMERIC are both DECIMAL(38,9): BIGNUMERIC's wider range is not modelled.
 */
import { DuckDBTypeId, type DuckDBType } from '@duckdb/node-api';

/** The legacy names the API answers with (tables.get gives INTEGER for an INT64 column). */
export type FieldType = 'STRING' | 'INTEGER' | 'FLOAT' | 'NUMERIC' | 'BIGNUMERIC' | 'BOOLEAN' | 'DATE' | 'TIMESTAMP';

export interface TableField {
  name: string;
  type: FieldType;
  mode: 'NULLABLE' | 'REQUIRED';
  description?: string;
}

const TYPE_NAMES: Record<string, FieldType> = {
  STRING: 'STRING',
  INTEGER: 'INTEGER',
  INT64: 'INTEGER',
  FLOAT: 'FLOAT',
  FLOAT64: 'FLOAT',
  NUMERIC: 'NUMERIC',
  BIGNUMERIC: 'BIGNUMERIC',
  BOOLEAN: 'BOOLEAN',
  BOOL: 'BOOLEAN',
  DATE: 'DATE',
  TIMESTAMP: 'TIMESTAMP',
};

const DUCK_TYPES: Record<FieldType, string> = {
  STRING: 'VARCHAR',
  INTEGER: 'BIGINT',
  FLOAT: 'DOUBLE',
  NUMERIC: 'DECIMAL(38,9)',
  BIGNUMERIC: 'DECIMAL(38,9)',
  BOOLEAN: 'BOOLEAN',
  DATE: 'DATE',
  TIMESTAMP: 'TIMESTAMP',
};

export function duckTypeOf(type: FieldType): string {
  return DUCK_TYPES[type];
}

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,299}$/;

/** A schema as the API takes it (`{fields: [{name, type, mode}]}`), checked and normalised; throws the API's message. */
export function parseSchema(schema: unknown): TableField[] {
  const fields = (schema as { fields?: unknown } | undefined)?.fields;
  if (!Array.isArray(fields) || fields.length === 0) throw new Error('Schema has no fields.');
  const seen = new Set<string>();
  return fields.map((raw: unknown) => {
    const f = (raw ?? {}) as Record<string, unknown>;
    const name = String(f.name ?? '');
    if (!FIELD_NAME.test(name)) throw new Error(`Invalid field name "${name}".`);
    if (seen.has(name.toLowerCase())) throw new Error(`Field ${name} already exists in schema`);
    seen.add(name.toLowerCase());
    const typeName = String(f.type ?? '').toUpperCase();
    const type = TYPE_NAMES[typeName];
    if (!type) {
      if (
        ['RECORD', 'STRUCT', 'BYTES', 'DATETIME', 'TIME', 'GEOGRAPHY', 'JSON', 'INTERVAL', 'RANGE'].includes(typeName)
      )
        throw new Error(`Unsupported by the local BigQuery stand-in: field type ${typeName} (field ${name})`);
      throw new Error(`Invalid value for type: ${typeName} is not a valid value`);
    }
    const mode = String(f.mode ?? 'NULLABLE').toUpperCase();
    if (mode === 'REPEATED') throw new Error(`Unsupported by the local BigQuery stand-in: REPEATED field ${name}`);
    if (mode !== 'NULLABLE' && mode !== 'REQUIRED')
      throw new Error(`Invalid value for mode: ${mode} is not a valid value`);
    const field: TableField = { name, type, mode };
    if (typeof f.description === 'string') field.description = f.description;
    return field;
  });
}

/** The schema as the API answers it. */
export function schemaResource(fields: TableField[]): { fields: Array<Record<string, string>> } {
  return { fields: fields.map((f) => ({ ...f })) as unknown as Array<Record<string, string>> };
}

const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP_TEXT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?\s*(Z|UTC|[+-]\d{2}(?::?\d{2})?)?$/i;
const DECIMAL_TEXT = /^[+-]?(\d+)(?:\.(\d+))?$/;

function validDate(y: number, m: number, d: number): boolean {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d && y >= 1;
}

function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** A TIMESTAMP's text ("2024-01-15 10:30:00+02:00", "2024-01-15T08:30:00Z") as UTC "YYYY-MM-DD HH:MM:SS.ffffff"; null when invalid. */
export function utcTimestampText(text: string): string | null {
  const m = TIMESTAMP_TEXT.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h = '0', mi = '0', s = '0'] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((v) => v ?? undefined);
  if (!validDate(Number(y), Number(mo), Number(d)) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  let offsetMinutes = 0;
  const zone = m[8];
  if (zone && !/^(Z|UTC)$/i.test(zone)) {
    const z = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
    offsetMinutes = (z[1] === '-' ? -1 : 1) * (Number(z[2]) * 60 + Number(z[3] ?? 0));
  }
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) - offsetMinutes * 60_000;
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${(m[7] ?? '').padEnd(6, '0')}`;
}

/** Why a JSON value does not fit a column, in the loader's words; null when it fits. */
function mismatch(field: TableField, value: unknown): string | null {
  const expected: Record<FieldType, string> = {
    STRING: 'string',
    INTEGER: 'integer',
    FLOAT: 'double',
    NUMERIC: 'numeric',
    BIGNUMERIC: 'bignumeric',
    BOOLEAN: 'boolean',
    DATE: 'date',
    TIMESTAMP: 'timestamp',
  };
  const refuse = `Could not convert value to ${expected[field.type]}. Field: ${field.name}; Value: ${JSON.stringify(value)}`;
  switch (field.type) {
    case 'STRING':
      return typeof value === 'string' ? null : refuse;
    case 'INTEGER':
      if (typeof value === 'number') return Number.isSafeInteger(value) ? null : refuse;
      return typeof value === 'string' && /^[+-]?\d{1,18}$/.test(value) ? null : refuse;
    case 'FLOAT':
      return typeof value === 'number' && Number.isFinite(value) ? null : refuse;
    case 'NUMERIC':
    case 'BIGNUMERIC': {
      const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
      const m = typeof text === 'string' ? DECIMAL_TEXT.exec(text) : null;
      if (!m) return refuse;
      // NUMERIC holds 29 digits before the point and 9 after (GoogleSQL data types, "Decimal types").
      if (m[1].replace(/^0+/, '').length > 29 || (m[2] ?? '').length > 9)
        return `Invalid NUMERIC value: ${String(text)} Field: ${field.name}`;
      return null;
    }
    case 'BOOLEAN':
      return typeof value === 'boolean' ? null : refuse;
    case 'DATE': {
      const m = typeof value === 'string' ? DATE_TEXT.exec(value) : null;
      return m && validDate(Number(m[1]), Number(m[2]), Number(m[3])) ? null : refuse;
    }
    case 'TIMESTAMP':
      return typeof value === 'string' && utcTimestampText(value) !== null ? null : refuse;
  }
}

/** The SQL literal of a value that fits (checkValue returned null). */
export function sqlLiteral(field: TableField, value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  switch (field.type) {
    case 'STRING':
      return sqlString(value as string);
    case 'INTEGER':
      return `CAST(${sqlString(String(value))} AS BIGINT)`;
    case 'FLOAT':
      return `CAST(${sqlString(String(value))} AS DOUBLE)`;
    case 'NUMERIC':
    case 'BIGNUMERIC':
      return `CAST(${sqlString(String(value))} AS DECIMAL(38,9))`;
    case 'BOOLEAN':
      return value === true ? 'TRUE' : 'FALSE';
    case 'DATE':
      return `DATE ${sqlString(value as string)}`;
    case 'TIMESTAMP':
      return `TIMESTAMP ${sqlString(utcTimestampText(value as string)!)}`;
  }
}

/** A checked value as the text that casts to its column's type (what sqlLiteral quotes), or null. */
export function castText(field: TableField, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  switch (field.type) {
    case 'BOOLEAN':
      return value === true ? 'true' : 'false';
    case 'TIMESTAMP':
      return utcTimestampText(value as string)!;
    case 'STRING':
    case 'DATE':
      return value as string;
    default:
      return String(value);
  }
}

/** Checks a value against its column: the loader's message, or null. */
export function checkValue(field: TableField, value: unknown): string | null {
  if (value === null || value === undefined)
    return field.mode === 'REQUIRED' ? `Missing required field: ${field.name}.` : null;
  return mismatch(field, value);
}

/** The API's type name for a result column. */
export function fieldTypeOfDuck(type: DuckDBType): FieldType {
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return 'BOOLEAN';
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
    case DuckDBTypeId.UINTEGER:
    case DuckDBTypeId.UBIGINT:
      return 'INTEGER';
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
      return 'FLOAT';
    case DuckDBTypeId.DECIMAL:
      return 'NUMERIC';
    case DuckDBTypeId.DATE:
      return 'DATE';
    case DuckDBTypeId.TIMESTAMP:
      return 'TIMESTAMP';
    case DuckDBTypeId.VARCHAR:
      return 'STRING';
    default:
      throw new Error(`Unsupported by the local BigQuery stand-in: a result column of type ${type.toString()}`);
  }
}

/** A decimal as BigQuery prints NUMERIC: no trailing zeros, no exponent ("2.5", "10", "-0.000000001"). */
function decimalText(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * A TIMESTAMP over REST: seconds since the epoch as a floating-point string, "1.7041032E9" (the
 * default; `formatOptions.useInt64Timestamp` gives microseconds instead: REST reference v2,
 * DataFormatOptions).
 */
function timestampText(micros: bigint, useInt64Timestamp: boolean): string {
  if (useInt64Timestamp) return micros.toString();
  const [mantissa, exponent] = (Number(micros) / 1e6).toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}

/** A stored value as the API's cell text. */
export function cellText(type: FieldType, value: unknown, useInt64Timestamp = false): string | null {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'NUMERIC':
    case 'BIGNUMERIC': {
      const v = value as { value: bigint; scale: number };
      return decimalText(v.value, v.scale);
    }
    case 'DATE':
      return new Date(Number((value as { days: number }).days) * 86_400_000).toISOString().slice(0, 10);
    case 'TIMESTAMP':
      return timestampText((value as { micros: bigint }).micros, useInt64Timestamp);
    case 'FLOAT': {
      const n = Number(value);
      return Number.isNaN(n) ? 'NaN' : n === Infinity ? 'Infinity' : n === -Infinity ? '-Infinity' : String(n);
    }
    default:
      return String(value);
  }
}
