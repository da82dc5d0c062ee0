/**
 * Test control only (POST /_emulator/orders/:id/raw): one field of an order served as raw JSON text
 * the spec does not allow there (an array nested 20,000 deep where it says string), so tests can
 * prove that the add-on isolates a record it cannot write. Such text cannot pass
 * through JSON.stringify (V8 runs out of stack a few thousand levels deep), so the served record
 * carries a mark and the body's text gets the raw JSON spliced in where the mark is (bodyText).
 * The truth endpoints are sent the same way: they describe what the API serves.
 */

/** Field path → mark; on the record, so a reset (new records) drops every injection. */
export type RawFields = Record<string, string>;

const MARK_PREFIX = '\u0000raw-json:';
const rawTextOf = new Map<string, string>();
let nextMark = 0;

/** A path the control accepts: a top-level order field, or `line_items.<index>.<field>`. */
const PATH = /^(?:[a-z_]+|line_items\.\d{1,4}\.[a-z_]+)$/;

export function isRawFieldPath(path: string): boolean {
  return PATH.test(path);
}

export function rawJsonMark(text: string): string {
  const mark = `${MARK_PREFIX}${nextMark++}\u0000`;
  rawTextOf.set(mark, text);
  return mark;
}

/** The served JSON object with each raw field's mark put at its path (a missing line item: left alone). */
export function withRawFields<T extends object>(json: T, raw: RawFields | undefined): T {
  if (!raw) return json;
  for (const [path, mark] of Object.entries(raw)) {
    const keys = path.split('.');
    let target: unknown = json;
    for (const key of keys.slice(0, -1))
      target = target !== null && typeof target === 'object' ? (target as Record<string, unknown>)[key] : undefined;
    if (target !== null && typeof target === 'object')
      (target as Record<string, unknown>)[keys[keys.length - 1]!] = mark;
  }
  return json;
}

/** A response body as text, raw fields spliced in. */
export function bodyText(body: unknown): string {
  const text = JSON.stringify(body);
  if (rawTextOf.size === 0 || text.indexOf('\\u0000raw-json:') < 0) return text;
  return text.replace(
    /"\\u0000raw-json:(\d+)\\u0000"/g,
    (whole, n: string) => rawTextOf.get(`${MARK_PREFIX}${n}\u0000`) ?? whole,
  );
}
