/**
 * The playground's MATCH and VLOOKUP compare as Sheets does (exact match): text with text ignoring
 * case, a number (a date's serial) with a number, never a number with text — the month "2026-01"
 * is not the date 1/1/2026 — and the sorted forms are refused, not guessed.
 */
import { describe, expect, it } from 'vitest';
import { lookup, type LookupArg } from '../../dev/playground/lookups';

const range = (...rows: Array<Array<string | number>>): LookupArg => ({
  kind: 'range',
  cells: rows.map((r) => r.map((value) => ({ value, format: typeof value === 'number' ? '$#,##0.00' : undefined }))),
});
const value = (v: string | number | boolean): LookupArg => ({ kind: 'value', value: v });
const months = range(['2025-12', 10], ['2026-01', 20.5], ['2026-02', 30]);

describe('playground lookups', () => {
  it('MATCH(…, 0) gives the 1-based position of text ignoring case, and #N/A for a date serial against text', () => {
    expect(lookup('MATCH', [value('2026-01'), range(['2025-12'], ['2026-01']), value(0)])).toEqual({
      ok: true,
      cell: { value: 2 },
    });
    expect(lookup('MATCH', [value('abc'), range(['x', 'ABC']), value(0)])).toMatchObject({ cell: { value: 2 } });
    expect(lookup('MATCH', [value(46023), range(['2026-01']), value(0)])).toEqual({
      ok: false,
      message: "Did not find value '46023' in MATCH evaluation.",
    });
    expect(lookup('MATCH', [value('2026-01'), range(['2026-01'])])).toMatchObject({ ok: false });
  });

  it("VLOOKUP(…, FALSE) gives the row's cell with its format; not found is #N/A; sorted is refused", () => {
    expect(lookup('VLOOKUP', [value('2026-01'), months, value(2), value(false)])).toEqual({
      ok: true,
      cell: { value: 20.5, format: '$#,##0.00' },
    });
    expect(lookup('VLOOKUP', [value('2026-03'), months, value(2), value(false)])).toMatchObject({ ok: false });
    expect(lookup('VLOOKUP', [value('2026-01'), months, value(3), value(false)])).toMatchObject({ ok: false });
    expect(lookup('VLOOKUP', [value('2026-01'), months, value(2)])).toMatchObject({ ok: false });
  });
});
