/** The header row check: every way a user can break the managed columns is found and named. */
import { describe, expect, it } from 'vitest';
import { findHeaderProblem } from '../../src/server/sheets/header-check';
import { LINE_ITEMS } from '../../src/server/sheets/schema';

const headers = LINE_ITEMS.columns.map((c) => c.header);

describe('findHeaderProblem', () => {
  it('accepts the managed headers, with the user’s own columns to the right', () => {
    expect(findHeaderProblem(LINE_ITEMS, headers)).toBeNull();
    expect(findHeaderProblem(LINE_ITEMS, [...headers, 'my note', ''])).toBeNull();
  });

  it('a column inserted among the managed ones (blank heading): names it and where to move it', () => {
    const row = [...headers.slice(0, 5), '', ...headers.slice(5)];
    const problem = findHeaderProblem(LINE_ITEMS, row);
    expect(problem?.column).toBe(6);
    expect(problem?.message).toContain('"(empty)" in column F, where "name" belongs ("name" is now in column G)');
    // Line items' last managed column is Q (order_number, added after cost_status in P).
    expect(problem?.message).toContain('to the right of column Q');
  });

  it('a deleted managed column: says which one is missing', () => {
    const row = headers.filter((h) => h !== 'price');
    const problem = findHeaderProblem(LINE_ITEMS, row);
    expect(problem?.message).toContain('missing its column "price" in column J');
  });

  it('two managed columns swapped: found at the first of them', () => {
    const row = headers.slice();
    [row[9], row[10]] = [row[10], row[9]];
    expect(findHeaderProblem(LINE_ITEMS, row)?.column).toBe(10);
  });

  it('a renamed heading and a cleared header row: says what the heading must be', () => {
    const renamed = headers.map((h) => (h === 'quantity' ? 'Qty' : h));
    expect(findHeaderProblem(LINE_ITEMS, renamed)?.message).toContain('reads "Qty" but must be "quantity"');
    expect(
      findHeaderProblem(
        LINE_ITEMS,
        headers.map(() => ''),
        'Line items (2025)',
      )?.message,
    ).toContain('column A in "Line items (2025)" reads "" but must be "id"');
  });
});
