/**
 * Conditional format rules when rows are deleted under them: a range shrinks by the deleted rows
 * inside it and moves up by those above it; a range left with no row goes, and a rule left with no
 * range goes (rulesAfterDeletedRows, used by Sheet.deleteRows).
 */
import { describe, expect, it } from 'vitest';
import {
  rulesAfterDeletedRows,
  type ConditionalFormatRecord,
} from '../../dev/gas-runtime/spreadsheet/conditional-formats';

const rule = (ranges: ConditionalFormatRecord['ranges']): ConditionalFormatRecord => ({
  ranges,
  condition: { type: 'NOT_BLANK', values: [] },
  format: {},
});

describe('conditional format rules over deleted rows', () => {
  it('shrinks a range over the deleted rows, moves one below them up, and keeps an unbounded one unbounded', () => {
    // Rows 3..10 (1-based) deleted: 0-based indexes 2..9.
    expect(
      rulesAfterDeletedRows(
        [
          rule([{ sheetId: 1, startRowIndex: 1, endRowIndex: 20 }]),
          rule([{ sheetId: 1, startRowIndex: 12, endRowIndex: 14 }]),
          rule([{ sheetId: 1, startRowIndex: 1 }]),
        ],
        1,
        3,
        8,
      ).map((r) => r.ranges),
    ).toEqual([
      [{ sheetId: 1, startRowIndex: 1, endRowIndex: 12 }],
      [{ sheetId: 1, startRowIndex: 4, endRowIndex: 6 }],
      [{ sheetId: 1, startRowIndex: 1 }],
    ]);
  });

  it('drops a rule whose only range was deleted, and leaves another sheet’s rules alone', () => {
    const other = rule([{ sheetId: 2, startRowIndex: 2, endRowIndex: 5 }]);
    expect(rulesAfterDeletedRows([rule([{ sheetId: 1, startRowIndex: 2, endRowIndex: 5 }]), other], 1, 3, 3)).toEqual([
      other,
    ]);
  });
});
