/** Query strings built by hand: Apps Script has no URLSearchParams. */

export type QueryValue = string | number | boolean | null | undefined;
export type QueryParams = ReadonlyArray<readonly [string, QueryValue]>;

/** `?a=1&b=x%20y` in the given key order, skipping null/undefined; '' when nothing is left. */
export function buildQuery(params: QueryParams): string {
  const parts: string[] = [];
  for (const [key, value] of params) {
    if (value === null || value === undefined) continue;
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

/** A record id as one path segment; `:` stays readable (`external:123` is the spec's form). */
export function pathSegment(id: string): string {
  return encodeURIComponent(id).replace(/%3A/gi, ':');
}
