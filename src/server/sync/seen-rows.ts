/**
 * The Orders rows the reconciliation pass in progress has seen listed, kept in document
 * properties (a bit per sheet row, 6 rows a character) instead of a synced_at cell written on
 * every unchanged order: a pass that finds nothing gone writes nothing to the sheet. Saved before
 * the pass's watermark moves past the page that set them, so a pass that resumes in another
 * execution never lacks a row it saw (an execution ended in between only leaves more rows seen
 * than its watermark says, which the pages read again see anyway). The bits name rows, so they
 * hold only while the rows stay where they were: the keyed rows are fingerprinted when saved, and
 * rows the user moved or deleted since restart the pass (the reconciliation starts it again).
 */
import { SIX_BITS } from '../platform/six-bits';
import { fnv1a, FNV1A_OFFSET } from '../platform/fnv1a';
import type { KeyIndex } from '../sheets/key-index';
import { PROPERTY_VALUE_MAX_BYTES } from '../platform/property-size';

const META_KEY = 'ma.reconcile.seen';
const CHUNK_KEY = 'ma.reconcile.seen.';
/** ASCII only: one byte a character, under Google's 9 KB a value. */
const CHUNK_CHARS = PROPERTY_VALUE_MAX_BYTES - 512;

interface SeenMeta {
  passStartedAt: number;
  chunks: number;
  /** The last keyed row when the pass began, and the fingerprint of the keyed rows up to it: only those rows are marked. */
  lastRow: number;
  fingerprint: number;
}

export interface SeenStore {
  getProperties(): Record<string, string>;
  setProperties(values: Record<string, string>): unknown;
}

/** FNV-1a over every keyed row up to `lastRow`: its row and its key. */
function fingerprint(index: KeyIndex, lastRow: number): number {
  const rows: Array<[number, string]> = [];
  for (const [key, entry] of index.entries()) if (entry.row <= lastRow) rows.push([entry.row, key]);
  rows.sort((a, b) => a[0] - b[0]);
  let h = FNV1A_OFFSET;
  for (const [row, key] of rows) h = fnv1a(`${row}:${key};`, h);
  return h;
}

function maxRow(index: KeyIndex): number {
  let last = 1;
  for (const [, entry] of index.entries()) if (entry.row > last) last = entry.row;
  return last;
}

export class SeenRows {
  private constructor(
    private readonly store: SeenStore,
    private readonly meta: SeenMeta,
    private readonly bits: number[],
  ) {}

  /**
   * The rows seen so far in the pass that started at `passStartedAt`; null when the saved rows no
   * longer stand where they were (the pass must start again).
   */
  static load(store: SeenStore, passStartedAt: number, index: KeyIndex): SeenRows | null {
    const all = store.getProperties();
    let meta: SeenMeta | null = null;
    try {
      meta = JSON.parse(all[META_KEY] ?? 'null') as SeenMeta | null;
    } catch {
      meta = null;
    }
    if (!meta || meta.passStartedAt !== passStartedAt) {
      const lastRow = maxRow(index);
      return new SeenRows(store, { passStartedAt, chunks: 0, lastRow, fingerprint: fingerprint(index, lastRow) }, []);
    }
    // Rows the sync added below since keep the earlier ones where they were; others in their place moved them.
    if (fingerprint(index, meta.lastRow) !== meta.fingerprint) return null;
    let text = '';
    for (let i = 0; i < meta.chunks; i++) text += all[CHUNK_KEY + i] ?? '';
    const bits: number[] = [];
    for (let i = 0; i < text.length; i++) bits.push(Math.max(0, SIX_BITS.indexOf(text[i])));
    return new SeenRows(store, meta, bits);
  }

  /** Rows below the last keyed row of the pass's start are not marked: they hold orders added since, written with their synced_at. */
  mark(row: number): void {
    if (row > this.meta.lastRow) return;
    const at = Math.floor(row / 6);
    while (this.bits.length <= at) this.bits.push(0);
    this.bits[at] |= 1 << (row % 6);
  }

  has(row: number): boolean {
    if (row > this.meta.lastRow) return false;
    const at = Math.floor(row / 6);
    return at < this.bits.length && (this.bits[at] & (1 << (row % 6))) !== 0;
  }

  /** One property write: the bits, and the rows they stand for. */
  save(): void {
    const text = this.bits.map((b) => SIX_BITS[b]).join('');
    const values: Record<string, string> = {};
    let chunks = 0;
    for (let start = 0; start < text.length; start += CHUNK_CHARS)
      values[CHUNK_KEY + chunks++] = text.slice(start, start + CHUNK_CHARS);
    values[META_KEY] = JSON.stringify({ ...this.meta, chunks });
    this.store.setProperties(values);
  }
}
