import { describe, expect, it } from 'vitest';
import {
  columnToLetters,
  formatA1,
  lettersToColumn,
  parseA1,
  quoteSheetName,
  resolveReference,
} from '../../dev/gas-runtime/spreadsheet/a1';

describe('A1 notation: columns', () => {
  it('maps letters to 1-based columns both ways', () => {
    expect(lettersToColumn('A')).toBe(1);
    expect(lettersToColumn('Z')).toBe(26);
    expect(lettersToColumn('AA')).toBe(27);
    expect(lettersToColumn('ZZZ')).toBe(18278);
    expect(columnToLetters(52)).toBe('AZ');
    expect(columnToLetters(703)).toBe('AAA');
  });
});

describe('A1 notation: ranges with sheet names', () => {
  it('parses quoted sheet names with spaces, ampersands and escaped quotes', () => {
    expect(parseA1("'Line items'!A2:F9")).toEqual({
      sheetName: 'Line items',
      startRow: 2,
      startColumn: 1,
      endRow: 9,
      endColumn: 6,
    });
    expect(parseA1("'Daily P&L'!A1")).toEqual({
      sheetName: 'Daily P&L',
      startRow: 1,
      startColumn: 1,
      endRow: 1,
      endColumn: 1,
    });
    expect(parseA1("'Bob''s sheet'!B3")?.sheetName).toBe("Bob's sheet");
  });

  it('parses unquoted names, absolute markers, open and whole-column ranges', () => {
    expect(parseA1('Orders!$A$1:$C$2')).toEqual({
      sheetName: 'Orders',
      startRow: 1,
      startColumn: 1,
      endRow: 2,
      endColumn: 3,
    });
    expect(parseA1('Orders!A:C')).toEqual({ sheetName: 'Orders', startColumn: 1, endColumn: 3 });
    expect(parseA1('A2:F')).toEqual({ startRow: 2, startColumn: 1, endColumn: 6 });
    expect(parseA1('2:5')).toEqual({ startRow: 2, endRow: 5 });
  });

  it('reads a bare name as a whole sheet, and a cell-looking text as a cell', () => {
    expect(parseA1('Orders')).toEqual({ sheetName: 'Orders' });
    expect(parseA1("'Line items'")).toEqual({ sheetName: 'Line items' });
    expect(parseA1('B7')).toEqual({ startRow: 7, startColumn: 2, endRow: 7, endColumn: 2 });
  });

  it('rejects malformed references', () => {
    for (const bad of ['', "'unterminated!A1", 'Orders!A0', 'Orders!1A', 'Orders!A1:B2:C3', "'x'A1", 'Orders!AAAA1']) {
      expect(parseA1(bad), bad).toBeUndefined();
    }
  });

  it('closes open bounds against the grid and prints A1 back', () => {
    const rect = resolveReference(parseA1('A2:F')!, 1000, 26);
    expect(rect).toEqual({ row: 2, column: 1, numRows: 999, numColumns: 6 });
    expect(formatA1(rect)).toBe('A2:F1000');
    expect(formatA1({ row: 3, column: 28, numRows: 1, numColumns: 1 })).toBe('AB3');
  });

  it('quotes sheet names the way the Sheets API prints them', () => {
    expect(quoteSheetName('Orders')).toBe('Orders');
    expect(quoteSheetName('Line items')).toBe("'Line items'");
    expect(quoteSheetName("Bob's")).toBe("'Bob''s'");
    expect(quoteSheetName('A1')).toBe("'A1'");
  });
});
