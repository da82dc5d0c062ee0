/**
 * A write too big for one request (Google's recommended 2 MB, write-size.ts) whose extra weight is
 * cells marked to go ahead (RangeWrite.ahead): the row index's buckets of a large store go first in
 * requests of their own, its stamp cleared in the first, and the rows with the stamp last. Until
 * that last request the cleared stamp tells any reader not to trust the buckets, so the write
 * stays all or nothing for what the index says.
 */
import { mergeRowWrites, type RangeWrite, type RowWrite } from './row-writes';
import { utf8Bytes } from '../platform/property-size';
import { WRITE_PAYLOAD_BYTES } from './write-size';

/** A part's text at most: several parts fit a request beside what else it carries. */
const PART_BYTES = 900_000;

type SentRange = Pick<RangeWrite, 'range' | 'values'>;

const bytesOf = (d: RangeWrite): number => utf8Bytes(JSON.stringify({ range: d.range, values: d.values }));
const sent = (d: RangeWrite): SentRange => ({ range: d.range, values: d.values });

/** The rows as ranges of adjacent rows, each at most PART_BYTES of cells, marked to go ahead. */
export function aheadParts(sheetName: string, rows: readonly RowWrite[]): RangeWrite[] {
  const sorted = [...rows].sort((a, b) => a.row - b.row);
  const parts: RangeWrite[] = [];
  let chunk: RowWrite[] = [];
  let bytes = 0;
  for (const w of sorted) {
    const size = utf8Bytes(JSON.stringify(w.cells)) + 1;
    if (chunk.length > 0 && bytes + size > PART_BYTES) {
      parts.push(...mergeRowWrites(sheetName, chunk));
      chunk = [];
      bytes = 0;
    }
    chunk.push(w);
    bytes += size;
  }
  if (chunk.length > 0) parts.push(...mergeRowWrites(sheetName, chunk));
  return parts.map((r) => ({ ...r, ahead: 'part' }));
}

/** The write's ranges as the requests to send, in order (one unless parts must go ahead). */
export function requestsOf(data: readonly RangeWrite[]): SentRange[][] {
  const whole = data.filter((d) => d.ahead !== 'clear');
  if (!data.some((d) => d.ahead === 'part') || whole.reduce((n, d) => n + bytesOf(d), 0) <= WRITE_PAYLOAD_BYTES)
    return [whole.map(sent)];
  const requests: SentRange[][] = [];
  let request: SentRange[] = [];
  let size = 0;
  for (const d of data.filter((r) => r.ahead !== undefined)) {
    const bytes = bytesOf(d);
    if (request.length > 0 && size + bytes > WRITE_PAYLOAD_BYTES) {
      requests.push(request);
      request = [];
      size = 0;
    }
    request.push(sent(d));
    size += bytes;
  }
  if (request.length > 0) requests.push(request);
  requests.push(data.filter((d) => d.ahead === undefined).map(sent));
  return requests;
}
