import { describe, expect, it } from 'vitest';
import { openSession } from '../../dev/gas-runtime/spreadsheet/session';
import { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';

function setup(timeZone = 'America/New_York') {
  const workbook = new Workbook({ timeZone, id: 'sheet-id-1', name: 'Book' });
  const session = openSession(workbook);
  const sheet = session.SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Sheet1')!;
  return { workbook, session, sheet };
}

describe('setValue(s): a string starting with "=" becomes a formula', () => {
  it('stores the formula, reads "" as its value and lists it in getFormulas', () => {
    const { sheet } = setup();
    sheet.getRange('A1:B1').setValues([['=SUM(1,2)', 'plain']]);
    expect(sheet.getRange('A1:B1').getFormulas()).toEqual([['=SUM(1,2)', '']]);
    expect(sheet.getRange('A1:B1').getValues()).toEqual([['', 'plain']]);
    expect(sheet.getLastRow()).toBe(1);
  });

  it('reads "+x"/"-x" non-numbers as formulas too (modelled on the safe side)', () => {
    const { sheet } = setup();
    sheet.getRange('A1:C1').setValues([['+cmd', '-1', '-']]);
    expect(sheet.getRange('A1:C1').getFormulas()).toEqual([['=+cmd', '', '']]);
    expect(sheet.getRange('B1').getValue()).toBe(-1);
    expect(sheet.getRange('C1').getValue()).toBe('-');
  });
});

describe('setValue(s): a leading apostrophe keeps text', () => {
  it('drops the apostrophe and keeps formula-looking and number-looking text as text', () => {
    const { sheet } = setup();
    sheet.getRange('A1:C1').setValues([['\'=IMPORTXML("x")', "'00123", "'TRUE"]]);
    expect(sheet.getRange('A1:C1').getValues()).toEqual([['=IMPORTXML("x")', '00123', 'TRUE']]);
    expect(sheet.getRange('A1:C1').getFormulas()).toEqual([['', '', '']]);
  });
});

describe('setValue(s) parses typed text like Sheets', () => {
  it('turns number-looking text into numbers and TRUE/FALSE into booleans', () => {
    const { sheet } = setup();
    sheet.getRange('A1:F1').setValues([['00123', '1e3', '-4.5', 'TRUE', 'false', '12 apples']]);
    expect(sheet.getRange('A1:F1').getValues()).toEqual([[123, 1000, -4.5, true, false, '12 apples']]);
  });

  it('parses percents and ISO dates with their implied formats', () => {
    const { sheet } = setup();
    sheet.getRange('A1:B1').setValues([['12.5%', '2024-01-15']]);
    expect(sheet.getRange('A1').getValue()).toBe(0.125);
    expect(sheet.getRange('A1').getDisplayValue()).toBe('12.50%');
    const date = sheet.getRange('B1').getValue() as Date;
    // Midnight of 2024-01-15 in New York is 05:00 UTC.
    expect(date.toISOString()).toBe('2024-01-15T05:00:00.000Z');
    expect(sheet.getRange('B1').getDisplayValue()).toBe('2024-01-15');
  });

  it('null, undefined and "" empty the cell', () => {
    const { sheet } = setup();
    sheet.getRange('A1:C1').setValues([[1, 2, 3]]);
    sheet.getRange('A1:C1').setValues([[null, undefined, '']]);
    expect(sheet.getRange('A1:C1').getValues()).toEqual([['', '', '']]);
    expect(sheet.getLastRow()).toBe(0);
  });
});

describe('dates live in the spreadsheet time zone', () => {
  it('a Date written reads back as the same instant and displays as wall time in the zone', () => {
    const { sheet, workbook } = setup('America/New_York');
    const instant = new Date('2024-01-15T15:30:00Z');
    sheet.getRange('A1').setValue(instant);
    expect((sheet.getRange('A1').getValue() as Date).getTime()).toBe(instant.getTime());
    expect(sheet.getRange('A1').getDisplayValue()).toBe('1/15/2024 10:30:00');
    // Sheets serial: 2024-01-15 is day 45306; 10:30 is 0.4375 of a day.
    expect(workbook.sheets[0].value(1, 1)).toBeCloseTo(45306.4375, 9);
  });

  it('a serial number with a date format reads as a Date at that wall time', () => {
    const { sheet } = setup('Asia/Tokyo');
    sheet.getRange('A1').setValue(45306.5).setNumberFormat('yyyy-mm-dd hh:mm:ss');
    expect((sheet.getRange('A1').getValue() as Date).toISOString()).toBe('2024-01-15T03:00:00.000Z');
    expect(sheet.getRange('A1').getDisplayValue()).toBe('2024-01-15 12:00:00');
  });
});

describe('getDisplayValues formats with the number format', () => {
  const cases: Array<[number | string, string, string]> = [
    [1234.5, '0', '1235'],
    [1234.5, '0.00', '1234.50'],
    [1234.5, '#,##0.00', '1,234.50'],
    [-1234.5, '#,##0.00', '-1,234.50'],
    [0.1234, '0.00%', '12.34%'],
    [0.1234, '0%', '12%'],
    [1234.5, '[$USD] #,##0.00', 'USD 1,234.50'],
    [45306, 'yyyy-mm-dd', '2024-01-15'],
    [45306.75, 'yyyy-mm-dd hh:mm:ss', '2024-01-15 18:00:00'],
    [45306.75, 'mmm d, yyyy h:mm am/pm', 'Jan 15, 2024 6:00 PM'],
    [123, '@', '123'],
  ];
  it.each(cases)('%s with "%s" shows %s', (value, format, shown) => {
    const { sheet } = setup();
    sheet.getRange('A1').setNumberFormat(format).setValue(value);
    expect(sheet.getRange('A1').getDisplayValue()).toBe(shown);
    expect(sheet.getRange('A1').getNumberFormat()).toBe(format);
  });

  it('unformatted cells show numbers plainly and booleans in capitals', () => {
    const { sheet } = setup();
    sheet.getRange('A1:C1').setValues([[0.1 + 0.2, true, 'text']]);
    expect(sheet.getRange('A1:C1').getDisplayValues()).toEqual([['0.3', 'TRUE', 'text']]);
    expect(sheet.getRange('A1').getNumberFormat()).toBe('0.###############');
  });
});

describe('Range validation uses Google messages and writes nothing on bad input', () => {
  it('rejects a row-count mismatch', () => {
    const { sheet } = setup();
    expect(() => sheet.getRange('A1:B2').setValues([[1, 2]])).toThrow(
      'The number of rows in the data does not match the number of rows in the range. The data has 1 but the range has 2.',
    );
  });

  it('rejects a column-count mismatch without writing the rows before it', () => {
    const { sheet } = setup();
    expect(() => sheet.getRange('A1:B2').setValues([[1, 2], [3]])).toThrow(
      'The number of columns in the data does not match the number of columns in the range. The data has 1 but the range has 2.',
    );
    expect(sheet.getLastRow()).toBe(0);
  });

  it('rejects ranges outside the grid and bad A1', () => {
    const { sheet } = setup();
    expect(() => sheet.getRange(1001, 1)).toThrow(
      'The coordinates of the range are outside the dimensions of the sheet.',
    );
    expect(() => sheet.getRange(1, 1, 1, 27)).toThrow(
      'The coordinates of the range are outside the dimensions of the sheet.',
    );
    expect(() => sheet.getRange(0, 1)).toThrow('The starting row of the range is too small.');
    expect(() => sheet.getRange('A1:B')).not.toThrow();
    expect(() => sheet.getRange('A1001')).toThrow('Range not found');
    expect(() => sheet.getRange('Nope!A1')).toThrow('Range not found');
    expect(() => sheet.getRange('#$%')).toThrow('Range not found');
  });
});

describe('appendRow and the data range', () => {
  it('appends after the last row with content and grows the grid at the end', () => {
    const { sheet } = setup();
    sheet.getRange(1000, 1).setValue('last');
    sheet.appendRow(['x', 2]);
    expect(sheet.getMaxRows()).toBe(1001);
    expect(sheet.getRange(1001, 1, 1, 2).getValues()).toEqual([['x', 2]]);
    expect(sheet.getDataRange().getA1Notation()).toBe('A1:B1001');
  });
});
