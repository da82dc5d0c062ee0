/**
 * Sheets API addConditionalFormatRule in the local runtime: the rule is kept on its sheet in the
 * API's order, survives saveState/fromJSON, is exported in workbook.json with A1 ranges, and what
 * the API refuses (ranges on two grids, a CUSTOM_FORMULA without "=", a format conditional
 * formatting cannot set) is refused with nothing kept.
 */
import { describe, expect, it } from 'vitest';
import { exportWorkbookJson } from '../../dev/gas-runtime/spreadsheet/export';
import { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { lineItemsBook } from './sheets-api-fixture';

const ID = 'book-cf';
const amber = { red: 1, green: 0.95, blue: 0.8 };
const rule = (
  sheetId: number,
  formula: string,
  format: Record<string, unknown> = { backgroundColor: amber },
  columns: Array<[number, number]> = [[2, 3]],
) => ({
  addConditionalFormatRule: {
    rule: {
      ranges: columns.map(([start, end]) => ({
        sheetId,
        startRowIndex: 1,
        startColumnIndex: start,
        endColumnIndex: end,
      })),
      booleanRule: { condition: { type: 'CUSTOM_FORMULA', values: [{ userEnteredValue: formula }] }, format },
    },
    index: 0,
  },
});

describe('addConditionalFormatRule', () => {
  it('keeps the rule on its sheet (index 0 goes first), exports it with A1 ranges and restores it from a saved state', () => {
    const { wb, items, Sheets } = lineItemsBook(ID);
    const sheetId = items.getSheetId();
    Sheets.Spreadsheets.batchUpdate(
      {
        requests: [
          rule(sheetId, '=$A2="x"'),
          rule(sheetId, '=$B2<0', { textFormat: { bold: true } }, [
            [0, 1],
            [4, 5],
          ]),
        ],
      },
      ID,
    );
    const model = wb.sheets.find((s) => s.name === 'Line items')!;
    expect(model.conditionalFormats.map((r) => r.condition.values[0])).toEqual(['=$B2<0', '=$A2="x"']);
    const exported = exportWorkbookJson(wb).conditionalFormats?.['Line items'];
    expect(exported?.[1]).toEqual({
      ranges: ['C2:C'],
      condition: { type: 'CUSTOM_FORMULA', values: ['=$A2="x"'] },
      format: { backgroundColor: amber },
    });
    expect(exported?.[0]?.ranges).toEqual(['A2:A', 'E2:E']);
    const restored = Workbook.fromJSON(JSON.parse(JSON.stringify(wb.toJSON())));
    expect(restored.sheets.find((s) => s.name === 'Line items')!.conditionalFormats).toEqual(model.conditionalFormats);
  });

  it('refuses what the API refuses, keeping nothing', () => {
    const { wb, ss, items, Sheets } = lineItemsBook(ID);
    const other = ss.insertSheet('Other').getSheetId();
    const sheetId = items.getSheetId();
    const twoGrids = rule(sheetId, '=TRUE');
    twoGrids.addConditionalFormatRule.rule.ranges.push({
      sheetId: other,
      startRowIndex: 1,
      startColumnIndex: 0,
      endColumnIndex: 1,
    });
    expect(() => Sheets.Spreadsheets.batchUpdate({ requests: [twoGrids] }, ID)).toThrow(/same grid/);
    expect(() => Sheets.Spreadsheets.batchUpdate({ requests: [rule(sheetId, '$A2="x"')] }, ID)).toThrow(
      /starting with "="/,
    );
    expect(() =>
      Sheets.Spreadsheets.batchUpdate({ requests: [rule(sheetId, '=TRUE', { numberFormat: { type: 'NUMBER' } })] }, ID),
    ).toThrow(/cannot set numberFormat/);
    expect(() =>
      Sheets.Spreadsheets.batchUpdate({ requests: [rule(sheetId, '=TRUE', { textFormat: { fontSize: 14 } })] }, ID),
    ).toThrow(/textFormat.fontSize/);
    expect(() => Sheets.Spreadsheets.batchUpdate({ requests: [rule(999, '=TRUE')] }, ID)).toThrow(
      /No grid with id: 999/,
    );
    expect(wb.sheets.every((s) => s.conditionalFormats.length === 0)).toBe(true);
  });
});
