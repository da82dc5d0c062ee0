/**
 * A bucket cell of the hidden row index sheet names its own bucket before its entries: the sheet
 * can be unhidden, sorted, have a row deleted or a cell cleared by a user, and a cell found at a
 * bucket's row is that bucket's only when it says so. An empty bucket is `17|`, never an empty
 * cell (a cleared cell is damage, not "no orders"). Pure.
 */

export function tagBucket(bucket: number, body: string): string {
  return `${bucket}|${body}`;
}

/** The entries' text of a bucket's cell; null when the cell is not that bucket's (moved, cleared, another's text). */
export function untagBucket(cell: unknown, bucket: number): string | null {
  if (typeof cell !== 'string') return null;
  const prefix = `${bucket}|`;
  return cell.startsWith(prefix) ? cell.slice(prefix.length) : null;
}
