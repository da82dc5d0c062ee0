/**
 * The order number → order id index as the hidden row index sheet holds it in its column B: the
 * store's display numbers (#1001), hashed like the row index's ids into the same number of bucket
 * cells (rows 2 down), each listing `number=id` entries; cell B1 is its stamp. A formula finds an
 * order by its number with ONE bucket cell, whatever the store's size (the API looks orders up by
 * id only, spec 4.4). Entries hold facts of the store, not sheet rows: sorting the Orders sheet
 * leaves them true. Pure.
 */
import { BUCKETS, bucketOf, bucketRow } from './row-index-buckets';

/** The index sheet's column of the number buckets (column A holds the row index's). */
export const NUMBER_COLUMN = 2;

/** What a number is looked up by: "#1001", "# 1001" and "1001" are one number; case does not count. */
export function numberKey(displayNumber: unknown): string {
  if (typeof displayNumber !== 'string' && typeof displayNumber !== 'number') return '';
  return String(displayNumber).trim().replace(/^#\s*/, '').toLowerCase();
}

/** The bucket (0-based) and sheet row of a number key. */
export function numberBucket(key: string): { bucket: number; row: number } {
  const bucket = bucketOf(key, BUCKETS);
  return { bucket, row: bucketRow(bucket) };
}

/** `number=id;…`, both URI-encoded (neither can then hold the separators), sorted by number. */
export function formatNumbers(entries: ReadonlyMap<string, string>): string {
  return [...entries]
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([key, id]) => `${encodeURIComponent(key)}=${encodeURIComponent(id)}`)
    .join(';');
}

/** A number bucket cell as read; null when it is not one the index wrote. */
export function parseNumbers(cell: unknown): Map<string, string> | null {
  const out = new Map<string, string>();
  if (cell === '' || cell === undefined || cell === null) return out;
  if (typeof cell !== 'string') return null;
  for (const part of cell.split(';')) {
    const m = /^([^=;]+)=([^=;]+)$/.exec(part);
    if (!m) return null;
    try {
      out.set(decodeURIComponent(m[1]), decodeURIComponent(m[2]));
    } catch {
      return null;
    }
  }
  return out;
}

/** The stamp in B1: the column holds an entry for every order synced since it was written whole. */
export function formatNumberStamp(): string {
  return JSON.stringify({ v: 1, index: 'order_numbers', buckets: BUCKETS });
}

/** Whether B1 is the stamp of a number index of this many buckets (absent, cleared or another's: no). */
export function isNumberStamp(cell: unknown): boolean {
  if (typeof cell !== 'string' || cell === '') return false;
  try {
    const s = JSON.parse(cell) as { v?: unknown; index?: unknown; buckets?: unknown };
    return s.v === 1 && s.index === 'order_numbers' && s.buckets === BUCKETS;
  } catch {
    return false;
  }
}
