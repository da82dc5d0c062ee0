/**
 * How big a Values.batchUpdate of some row writes is, as JSON: Google recommends at most 2 MB per
 * Sheets API request ("To speed up requests, we recommend a 2 MB maximum payload",
 * developers.google.com/workspace/sheets/api/limits), so writes that ride together are kept under
 * it. An estimate from the cells' text lengths, without serialising them.
 */
import type { RowWrite } from './row-writes';

/** 2 MB read strictly (10^6 bytes a MB), less a tenth for what the estimate leaves out (escapes, characters above one byte). */
export const WRITE_PAYLOAD_BYTES = 1_800_000;

/** Bytes of a range's name and brackets per row written: "Line items!A12:BZ12" and the row's [ ]. */
const ROW_OVERHEAD_BYTES = 32;

export function rowWritesBytes(writes: readonly RowWrite[]): number {
  let bytes = 0;
  for (const w of writes) {
    bytes += ROW_OVERHEAD_BYTES;
    for (const cell of w.cells) {
      // A separator, and the value: a string quoted, anything else as its text.
      bytes += 1 + (typeof cell === 'string' ? cell.length + 2 : String(cell).length);
    }
  }
  return bytes;
}
