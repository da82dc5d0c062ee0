import { isCalendarDate } from '../timezone.js';
import { invalidParameter } from './errors.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Reads an endpoint's query parameters. Unknown parameters and repeated parameters are rejected
 * with 400 invalid_parameter naming them, so a misspelt filter never silently widens a result.
 */
export class QueryReader {
  constructor(
    private readonly params: URLSearchParams,
    allowed: readonly string[],
  ) {
    const seen = new Set<string>();
    for (const name of params.keys()) {
      if (!allowed.includes(name)) {
        throw invalidParameter(
          name,
          allowed.length === 0
            ? 'this endpoint takes no parameters'
            : `unknown parameter; allowed: ${allowed.join(', ')}`,
        );
      }
      if (seen.has(name)) throw invalidParameter(name, 'given more than once');
      seen.add(name);
    }
  }

  string(name: string): string | null {
    return this.params.get(name);
  }

  /** Integer in [min, max]; `fallback` when absent. */
  integer(name: string, min: number, max: number, fallback: number): number {
    const raw = this.params.get(name);
    if (raw === null) return fallback;
    if (!/^\d+$/.test(raw) || +raw < min || +raw > max)
      throw invalidParameter(name, `must be an integer from ${min} to ${max}`);
    return +raw;
  }

  date(name: string): string | null {
    const raw = this.params.get(name);
    if (raw === null) return null;
    if (!isCalendarDate(raw)) throw invalidParameter(name, 'must be a date written YYYY-MM-DD');
    return raw;
  }

  /** RFC 3339 timestamp as ms. */
  timestamp(name: string): number | null {
    const raw = this.params.get(name);
    if (raw === null) return null;
    const ms = RFC3339.test(raw) ? Date.parse(raw.toUpperCase()) : NaN;
    if (!Number.isFinite(ms))
      throw invalidParameter(name, 'must be an RFC 3339 timestamp such as 2024-05-01T00:00:00Z');
    return ms;
  }

  oneOf<T extends string>(name: string, values: readonly T[], fallback: T): T {
    const raw = this.params.get(name);
    if (raw === null) return fallback;
    if (!values.includes(raw as T)) throw invalidParameter(name, `must be one of ${values.join(', ')}`);
    return raw as T;
  }
}
