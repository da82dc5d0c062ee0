/**
 * The order number → order id index as the hidden row index sheet holds it in its column B: the
 * store's display numbers exactly as the store shows them (spec 2.1: a display string, "#1001",
 * "SO-1001", "#EU 1001"; case counts), hashed like the row index's ids into the same number of
 * bucket cells (rows 2 down), each naming its bucket (bucket-tags) and listing `number=id`
 * entries, a number shown on two orders listed once for each; cell B1 is its stamp. A formula
 * finds an order by its number with ONE bucket cell, whatever the store's size (the API looks
 * orders up by id only, spec 4.4). Entries hold facts of the store, not sheet rows: sorting the
 * Orders sheet leaves them true. Pure.
 */
import { BUCKETS, bucketOf, bucketRow } from './row-index-buckets';
import { tagBucket, untagBucket } from './bucket-tags';

/** The index sheet's column of the number buckets (column A holds the row index's). */
export const NUMBER_COLUMN = 2;

/** The ids listed under each number of a bucket. */
export type NumberEntries = Map<string, string[]>;

/**
 * What a number is looked up by: the display number exactly as the store shows it, spaces at its
 * ends included ("#SP 7" and "#SP 7 " are two numbers; a formula's argument is trimmed, args);
 * '' for none or only spaces.
 */
export function numberKey(displayNumber: unknown): string {
  if (typeof displayNumber !== 'string' && typeof displayNumber !== 'number') return '';
  const shown = String(displayNumber);
  return shown.trim() === '' ? '' : shown;
}

/**
 * The longest number the index lists, URI-encoded as its entry holds it: store numbers are short
 * ("#1001", "#EU 1001"), and at ~180 orders a bucket this keeps every cell under BUCKET_MAX_CHARS
 * whatever the numbers. A longer one (spec 2.2 gives no limit) is left out: one order's number
 * must not cost every other order its lookup.
 */
export const NUMBER_MAX_CHARS = 200;

/** Whether a number key is one the index lists (not too long; text an entry can hold). */
export function isListable(key: string): boolean {
  if (key === '' || key.length > NUMBER_MAX_CHARS) return false;
  try {
    return encodeURIComponent(key).length <= NUMBER_MAX_CHARS;
  } catch {
    // A lone surrogate: no entry can hold it.
    return false;
  }
}

/** The bucket (0-based) and sheet row of a number key. */
export function numberBucket(key: string): { bucket: number; row: number } {
  const bucket = bucketOf(key, BUCKETS);
  return { bucket, row: bucketRow(bucket) };
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** `bucket|checksum|number=id;…`, both URI-encoded (neither can then hold the separators), sorted by number then id. */
export function formatNumbers(bucket: number, entries: ReadonlyMap<string, readonly string[]>): string {
  const parts: string[] = [];
  for (const key of [...entries.keys()].sort(byText))
    for (const id of [...entries.get(key)!].sort(byText))
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(id)}`);
  return tagBucket(bucket, parts.join(';'));
}

/** A bucket's number cell as read; null when it is not that bucket's as the index wrote it (moved, cleared, a user's text). */
export function parseNumbers(cell: unknown, bucket: number): NumberEntries | null {
  const body = untagBucket(cell, bucket);
  if (body === null) return null;
  const out: NumberEntries = new Map();
  if (body === '') return out;
  for (const part of body.split(';')) {
    const m = /^([^=;]+)=([^=;]+)$/.exec(part);
    if (!m) return null;
    try {
      const key = decodeURIComponent(m[1]);
      out.set(key, [...(out.get(key) ?? []), decodeURIComponent(m[2])]);
    } catch {
      return null;
    }
  }
  return out;
}

/**
 * The stamp in B1: the column holds an entry for every order synced since it was written whole.
 * v 3: exact numbers in cells that name their bucket and carry their entries' checksum (a column
 * of v 1 or 2 is built again).
 */
export function formatNumberStamp(): string {
  return JSON.stringify({ v: 3, index: 'order_numbers', buckets: BUCKETS });
}

/** Whether B1 is the stamp of a number index of this kind and number of buckets (absent, cleared or another's: no). */
export function isNumberStamp(cell: unknown): boolean {
  if (typeof cell !== 'string' || cell === '') return false;
  try {
    const s = JSON.parse(cell) as { v?: unknown; index?: unknown; buckets?: unknown };
    return s.v === 3 && s.index === 'order_numbers' && s.buckets === BUCKETS;
  } catch {
    return false;
  }
}
