/**
 * How big a Values.batchUpdate of some row writes is, as JSON: Google recommends at most 2 MB per
 * Sheets API request ("To speed up requests, we recommend a 2 MB maximum payload",
 * developers.google.com/workspace/sheets/api/limits), so writes that ride together are kept under
 * it. Each row is measured as the JSON it is sent as.
 */
import { utf8Bytes } from '../platform/property-size';
import type { RowWrite } from './row-writes';

/**
 * 2 MB read strictly (10^6 bytes a MB), as the strict runtime refuses past it, less room for the
 * request's envelope and the row index's stamp: the rows are measured as sent, what waits to ride
 * with them is counted with them (BatchWriter.heldBytes) and the index's buckets go ahead when they
 * would not fit (ahead-writes.ts).
 */
export const WRITE_PAYLOAD_BYTES = 1_950_000;

/** Bytes of a range's name and key where a run of adjacent rows starts: {"range":"'Line items'!A12:BZ99","values":[ ]}. */
const RANGE_BYTES = 56;

/** Characters JSON leaves as they are and UTF-8 stores in one byte. */
const PLAIN = /^[\x20-\x7e]*$/;

/**
 * The body bytes the writes take once merged into ranges (mergeRowWrites): each row its cells as
 * JSON, a comma, and a range's name where a run of adjacent rows of the same span starts.
 */
export function rowWritesBytes(writes: readonly RowWrite[]): number {
  if (writes.length === 0) return 0;
  let bytes = 0;
  let previous: RowWrite | undefined;
  for (const w of writes) {
    const adjacent =
      previous !== undefined &&
      w.row === previous.row + 1 &&
      w.column === previous.column &&
      w.cells.length === previous.cells.length;
    if (!adjacent) bytes += RANGE_BYTES;
    previous = w;
  }
  // All rows as one JSON array, measured once: "[" rows joined by "," "]" is the rows' bytes, a
  // comma after each, plus one. JSON escapes a lone surrogate, so no character spans two rows.
  const text = JSON.stringify(writes.map((w) => w.cells));
  return bytes + (PLAIN.test(text) ? text.length : utf8Bytes(text)) - 1;
}
