/**
 * What the Checks sheet says, apart from when it was said: a tie-out whose rows are the ones the
 * sheet already holds does not rewrite them (a reconciliation that finds nothing writes
 * nothing). The time of the check is in the document state (the sidebar's Checks line).
 */
import type { RowWrite } from '../sheets/row-writes';
import { CHECKS, columnIndex } from '../sheets/schema';

const CHECKED_AT = columnIndex(CHECKS, 'checked_at');

/** A digest of the rows' cells, their checked-at cell left out (FNV-1a, twice 32 bits). */
export function checksContentDigest(writes: readonly RowWrite[]): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  const text = JSON.stringify(
    writes.map((w) => [w.row, w.column, w.cells.map((c, i) => (w.column + i - 1 === CHECKED_AT ? null : c))]),
  );
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return a.toString(36) + b.toString(36);
}
