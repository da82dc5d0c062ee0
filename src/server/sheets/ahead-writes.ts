/**
 * A write too big for one request (Google's recommended 2 MB, write-size.ts) whose extra weight is
 * cells marked to go ahead (RangeWrite.ahead): the row index's buckets of a large store go first in
 * requests of their own, its stamp cleared in the first, and the rows with the stamp last. Until
 * that last request the cleared stamp tells any reader not to trust the buckets, so the write
 * stays all or nothing for what the index says.
 */
import { mergeRowWrites, type RangeWrite, type RowWrite } from './row-writes';
import { utf8Bytes } from '../platform/property-size';
import { groupsWithin } from './groups-within';
import { WRITE_PAYLOAD_BYTES } from './write-size';

/** A part's text at most: several parts fit a request beside what else it carries. */
const PART_BYTES = 900_000;

type SentRange = Pick<RangeWrite, 'range' | 'values'>;

const bytesOf = (d: RangeWrite): number => utf8Bytes(JSON.stringify({ range: d.range, values: d.values }));
const sent = (d: RangeWrite): SentRange => ({ range: d.range, values: d.values });

/** The rows as ranges of adjacent rows, each at most PART_BYTES of cells, marked to go ahead. */
export function aheadParts(sheetName: string, rows: readonly RowWrite[]): RangeWrite[] {
  const sorted = [...rows].sort((a, b) => a.row - b.row);
  const chunks = groupsWithin(sorted, (w) => utf8Bytes(JSON.stringify(w.cells)) + 1, PART_BYTES);
  return chunks.flatMap((chunk) => mergeRowWrites(sheetName, chunk)).map((r) => ({ ...r, ahead: 'part' }));
}

/** The write's ranges as the requests to send, in order (one unless parts must go ahead). */
export function requestsOf(data: readonly RangeWrite[]): SentRange[][] {
  const whole = data.filter((d) => d.ahead !== 'clear');
  if (!data.some((d) => d.ahead === 'part') || whole.reduce((n, d) => n + bytesOf(d), 0) <= WRITE_PAYLOAD_BYTES)
    return [whole.map(sent)];
  const ahead = groupsWithin(
    data.filter((r) => r.ahead !== undefined),
    bytesOf,
    WRITE_PAYLOAD_BYTES,
  );
  const requests = ahead.map((group) => group.map(sent));
  requests.push(data.filter((d) => d.ahead === undefined).map(sent));
  return requests;
}
