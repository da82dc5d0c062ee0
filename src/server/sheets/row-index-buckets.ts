/**
 * The order id → rows index as the hidden "Row index" sheet holds it: order ids hashed into a fixed
 * number of buckets, one cell each (column A, the bucket's row), each cell listing its orders with
 * their Orders row and Line items rows after its own bucket number, a bucket without orders an
 * empty cell (bucket-tags: a cell a user moved or cleared is not taken for a bucket's); cell A1 is
 * the stamp that says what the buckets describe, and which of them are empty.
 * A page reads only the cells of the buckets its ids fall in. Pure.
 */
import type { RowWrite } from './row-writes';
import { readSpans } from './adjacent-runs';
import { fnv1a } from '../platform/fnv1a';
import { parseEmpty, tagBucket, untagBucket } from './bucket-tags';

/** The developer-metadata key that marks the index sheet (found by it whatever its name). */
export const ROW_INDEX_METADATA_KEY = 'merchant_analytics_row_index';

/**
 * Grid rows of Orders and Line items together from which the index is kept and used: below, the
 * key columns cost less to read whole than a Values.batchGet of buckets does (its fixed ~0.24 s
 * buys ~24,000 cells at ~10 µs a cell, apps-script-cost-model.md) and the index is left cleared.
 * Lower than that break-even: a page's read of its Orders rows also brings the cells the day
 * sums read back, so the bucket read costs no call on balance.
 */
export const ROW_INDEX_MIN_ROWS = 5_000;

/** Buckets of an index: at the largest store the 10 M-cell limit allows (~185k orders), ~180 orders a cell. */
export const BUCKETS = 1024;
/** Google's limit is 50,000 characters a cell: past this, the index is given up (the key columns are read whole). */
export const BUCKET_MAX_CHARS = 45_000;

/** Where one order's rows are: its Orders row (0 when none) and its Line items rows. */
export interface OrderRows {
  order: number;
  lines: number[];
}

/** What the buckets describe: the sheets they point into, as they stood when the buckets were last written. */
export interface RowIndexStamp {
  /** 3: bucket cells carry their bucket number and their entries' checksum (an index of 1 or 2 is written again). */
  v: 3;
  buckets: number;
  /** Grid rows of both: a user who inserted or deleted rows moved every row below. */
  ordersGridRows: number;
  linesGridRows: number;
  /** Keyed rows (the key indexes' size) and the last keyed Orders row. */
  orders: number;
  lines: number;
  lastOrderRow: number;
  /** The buckets without orders (bucket-tags formatEmpty): their cells are empty. */
  empty: string;
}

/** FNV-1a of the id, to a bucket (0-based). */
export function bucketOf(id: string, buckets: number): number {
  return fnv1a(id) % buckets;
}

/** Sheet row of a bucket (row 1 is the stamp). */
export const bucketRow = (bucket: number): number => bucket + 2;

/** `bucket|checksum|id=order:line,line;…` with the id URI-encoded (an id never holds the separators then); '' when empty. */
export function formatBucket(bucket: number, entries: ReadonlyMap<string, OrderRows>): string {
  const parts: string[] = [];
  for (const [id, rows] of [...entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)))
    parts.push(`${encodeURIComponent(id)}=${rows.order}${rows.lines.length > 0 ? ':' + rows.lines.join(',') : ''}`);
  return parts.length === 0 ? '' : tagBucket(bucket, parts.join(';'));
}

/**
 * The rows to read for these buckets: spans across gaps cheaper to read than the range they save;
 * past half the buckets, all of them in one range (~10 µs a cell more): a page's ~250 ids fall
 * into ~220 buckets a few rows apart, and the run's later pages find theirs held: one bucket read
 * a run, not one a page.
 */
export function bucketReadSpans(buckets: readonly number[]): Array<[number, number]> {
  const spans = readSpans(buckets.map(bucketRow), 1);
  const cells = spans.reduce((n, [top, bottom]) => n + bottom - top + 1, 0);
  return cells * 2 > BUCKETS ? [[bucketRow(0), bucketRow(BUCKETS - 1)]] : spans;
}

/** Every bucket's cell as a row write of the index sheet; null when one passes BUCKET_MAX_CHARS. */
export function allBucketRows(buckets: ReadonlyMap<number, ReadonlyMap<string, OrderRows>>): RowWrite[] | null {
  const rows: RowWrite[] = [];
  for (let b = 0; b < BUCKETS; b++) {
    const text = formatBucket(b, buckets.get(b) ?? new Map());
    if (text.length > BUCKET_MAX_CHARS) return null;
    rows.push({ row: bucketRow(b), column: 1, cells: [text] });
  }
  return rows;
}

/**
 * A bucket's cell as read (an empty cell: no entries, which the stamp must confirm); null when it
 * is not that bucket's as the index wrote it (the index is not to be trusted).
 */
export function parseBucket(cell: unknown, bucket: number): Map<string, OrderRows> | null {
  const out = new Map<string, OrderRows>();
  if (cell === '' || cell === undefined || cell === null) return out;
  const body = untagBucket(cell, bucket);
  if (body === null || body === '') return null;
  for (const part of body.split(';')) {
    const m = /^([^=;:]+)=(\d+)(?::(\d+(?:,\d+)*))?$/.exec(part);
    if (!m) return null;
    let id: string;
    try {
      id = decodeURIComponent(m[1]);
    } catch {
      return null;
    }
    out.set(id, { order: Number(m[2]), lines: m[3] ? m[3].split(',').map(Number) : [] });
  }
  return out;
}

export function formatStamp(stamp: RowIndexStamp): string {
  return JSON.stringify(stamp);
}

/** The stamp cell as read; null when absent or not the index's (never built, or cleared). */
export function parseStamp(cell: unknown): RowIndexStamp | null {
  if (typeof cell !== 'string' || cell === '') return null;
  try {
    const s = JSON.parse(cell) as Partial<RowIndexStamp>;
    const numbers: Array<keyof RowIndexStamp> = [
      'buckets',
      'ordersGridRows',
      'linesGridRows',
      'orders',
      'lines',
      'lastOrderRow',
    ];
    if (s.v !== 3 || numbers.some((k) => typeof s[k] !== 'number' || !Number.isInteger(s[k]) || (s[k] as number) < 0))
      return null;
    if ((s.buckets as number) < 1 || parseEmpty(s.empty, s.buckets as number) === null) return null;
    return s as RowIndexStamp;
  } catch {
    return null;
  }
}
