/**
 * How the hidden row index sheet's bucket cells are told from cells a user moved or cleared (the
 * sheet can be unhidden, sorted, have a row deleted or a cell cleared): a bucket cell with entries
 * names its own bucket before them, so a cell found at a bucket's row is that bucket's only when
 * it says so; which buckets are empty cells is listed in the stamp (the row index: an empty cell
 * costs no cell read) or written as the bare tag (the number index: `17|`), so a cleared cell, or
 * an empty one sorted onto a bucket's row, is seen as damage, not as "no orders". After the tag, a
 * checksum of the entries (`17|3f9a0c21|…`): a hand edit that leaves the cell well formed (an entry
 * cut out, one typed in) is damage too. Not security (an editor can edit Orders as well): it
 * catches every accidental or partial edit. Neither index's entries hold a `|`. Pure.
 */
import { fnv1a } from '../platform/fnv1a';

/** The checksum of a bucket's entries' text: 8 hex digits. */
const entriesChecksum = (body: string): string => fnv1a(body).toString(16).padStart(8, '0');

export function tagBucket(bucket: number, body: string): string {
  return `${bucket}|${entriesChecksum(body)}|${body}`;
}

/** The entries' text of a bucket's cell; null when the cell is not that bucket's as written (moved, cleared, edited, another's text). */
export function untagBucket(cell: unknown, bucket: number): string | null {
  if (typeof cell !== 'string') return null;
  const prefix = `${bucket}|`;
  if (!cell.startsWith(prefix)) return null;
  const bar = cell.indexOf('|', prefix.length);
  if (bar !== prefix.length + 8) return null;
  const body = cell.slice(bar + 1);
  return cell.slice(prefix.length, bar) === entriesChecksum(body) ? body : null;
}

/** The empty buckets of `buckets` as a bitmap in hex (4 buckets a digit): 256 characters for 1,024 buckets. */
export function formatEmpty(empty: ReadonlySet<number>, buckets: number): string {
  let hex = '';
  for (let b = 0; b < buckets; b += 4) {
    let digit = 0;
    for (let bit = 0; bit < 4; bit++) if (empty.has(b + bit)) digit |= 1 << bit;
    hex += digit.toString(16);
  }
  return hex;
}

/** The empty buckets a bitmap lists; null when it is not one of `buckets` buckets. */
export function parseEmpty(hex: unknown, buckets: number): Set<number> | null {
  if (typeof hex !== 'string' || hex.length !== Math.ceil(buckets / 4) || !/^[0-9a-f]*$/.test(hex)) return null;
  const empty = new Set<number>();
  for (let b = 0; b < buckets; b++) if ((parseInt(hex[b >> 2], 16) >> (b & 3)) & 1) empty.add(b);
  return empty;
}
