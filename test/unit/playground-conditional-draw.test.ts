/**
 * The playground draws conditional formats as Sheets does: the add-on's own rules (highlights.ts)
 * on a sheet model, relative rows moved from the first range's anchor, absolute columns kept, text
 * compared case-insensitively, first true rule wins, a formula outside the drawn subset draws nothing.
 */
import { describe, expect, it } from 'vitest';
import { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import { evaluateRuleFormula, ruleDrawer } from '../../dev/playground/conditional-draw';

const AMBER = { red: 1, green: 0.949, blue: 0.8 };

function sheetWith(rows: unknown[][]): SheetModel {
  const sheet = new SheetModel(7, 'Orders');
  rows.forEach((row, r) =>
    row.forEach((v, c) => {
      if (v !== undefined) sheet.write(r + 1, c + 1, { value: v as string | number });
    }),
  );
  return sheet;
}

describe('rule formulas', () => {
  const read = (values: Record<string, string | number>) => (row: number, column: number) =>
    values[`${row}:${column}`] ?? '';

  it('moves relative rows, keeps $ columns, compares text case-insensitively', () => {
    const formula = '=OR($A2="unknown",AND(ISNUMBER($B2),$B2<100))';
    expect(evaluateRuleFormula(formula, read({ '5:1': 'Unknown' }), { rows: 3, columns: 4 })).toBe(true);
    expect(evaluateRuleFormula(formula, read({ '5:1': 'product_cost', '5:2': 83.33 }), { rows: 3, columns: 0 })).toBe(
      true,
    );
    expect(evaluateRuleFormula(formula, read({ '5:1': 'product_cost', '5:2': 100 }), { rows: 3, columns: 0 })).toBe(
      false,
    );
    // An empty coverage is not a number: not incomplete.
    expect(evaluateRuleFormula(formula, read({ '5:1': 'product_cost' }), { rows: 3, columns: 0 })).toBe(false);
  });

  it('refuses what it does not model instead of guessing', () => {
    expect(() => evaluateRuleFormula('=VLOOKUP(A1,B:C,2)', read({}), { rows: 0, columns: 0 })).toThrow(/cannot read/);
    expect(() => evaluateRuleFormula('=VLOOKUP(A1,2)', read({}), { rows: 0, columns: 0 })).toThrow(
      /VLOOKUP is not drawn/,
    );
  });
});

describe('ruleDrawer', () => {
  it("fills only the cells of the rule's ranges whose row the formula holds true for; the first rule wins", () => {
    const sheet = sheetWith([
      ['cogs_source', 'net_profit'],
      ['unknown', 5],
      ['product_cost', 6],
    ]);
    sheet.conditionalFormats = [
      {
        ranges: [{ sheetId: 7, startRowIndex: 1, startColumnIndex: 1, endColumnIndex: 2 }],
        condition: { type: 'CUSTOM_FORMULA', values: ['=$A2="unknown"'] },
        format: { backgroundColor: AMBER },
      },
      {
        ranges: [{ sheetId: 7, startRowIndex: 1 }],
        condition: { type: 'NOT_BLANK', values: [] },
        format: { textFormat: { bold: true } },
      },
    ];
    const draw = ruleDrawer(sheet);
    expect(draw.at(2, 2)).toEqual({ background: '#fff2cc' });
    expect(draw.at(3, 2)).toEqual({ bold: true });
    expect(draw.at(1, 2)).toBeUndefined();
    expect(draw.at(4, 2)).toBeUndefined();
    expect(draw.undrawn).toEqual([]);
  });

  it('a rule it cannot evaluate draws nothing and is named', () => {
    const sheet = sheetWith([['h'], ['x']]);
    sheet.conditionalFormats = [
      {
        ranges: [{ sheetId: 7 }],
        condition: { type: 'CUSTOM_FORMULA', values: ['=REGEXMATCH(A1,"x")'] },
        format: { backgroundColor: AMBER },
      },
    ];
    const draw = ruleDrawer(sheet);
    expect(draw.at(2, 1)).toBeUndefined();
    expect(draw.undrawn).toEqual([expect.stringMatching(/REGEXMATCH is not drawn/)]);
  });
});
