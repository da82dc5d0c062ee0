import { describe, expect, it } from 'vitest';
import type { RowWrite } from '../../src/server/sheets/row-writes';
import { rowWritesBytes } from '../../src/server/sheets/write-size';

/** Each row its cells as UTF-8 JSON and a comma; 56 bytes where a run of adjacent rows of one span starts. */
function bytesRowByRow(writes: readonly RowWrite[]): number {
  let bytes = 0;
  writes.forEach((w, i) => {
    const p = writes[i - 1];
    const adjacent =
      p !== undefined && w.row === p.row + 1 && w.column === p.column && w.cells.length === p.cells.length;
    bytes += (adjacent ? 0 : 56) + Buffer.byteLength(JSON.stringify(w.cells), 'utf8') + 1;
  });
  return bytes;
}

describe('rowWritesBytes', () => {
  it('is nothing for no rows', () => {
    expect(rowWritesBytes([])).toBe(0);
  });

  it('counts each row as its UTF-8 JSON and a comma, and a range where a run starts', () => {
    const writes: RowWrite[] = [
      { row: 2, column: 1, cells: ['ord_1', 12.5, '', true] },
      { row: 3, column: 1, cells: ['ord_2', -0.1, 'Zoë "quoted" \\ tab\t', false] },
      { row: 4, column: 1, cells: ['ord_3', 1e21, '😀 – €', null as unknown as string] },
      { row: 9, column: 3, cells: ['\ud800 lone', 45000.25] },
      { row: 10, column: 3, cells: ['日本語', 0] },
    ];
    expect(rowWritesBytes(writes)).toBe(bytesRowByRow(writes));
    expect(rowWritesBytes(writes.slice(0, 1))).toBe(56 + Buffer.byteLength('["ord_1",12.5,"",true]') + 1);
  });
});
