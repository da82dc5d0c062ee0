/**
 * The playground's formula cells over a real workbook model: what a formula hands the custom
 * function (a date cell as a Date at its wall time in the spreadsheet's zone, a range as 2-D),
 * how the answer spills into the grid window, #REF! when it would cover content, #ERROR! with the
 * execution's message, and formulas the playground does not compute.
 */
import { describe, expect, it } from 'vitest';
import { userEnteredWrite } from '../../dev/gas-runtime/spreadsheet/input';
import { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { parseFormulaCall } from '../../dev/playground/formula-call';
import { FormulaCells } from '../../dev/playground/formula-cells';
import { gridWindow } from '../../dev/playground/grid-view';
import type { PlaygroundRuntime, RunResultLike } from '../../dev/playground/types';

const ZONE = 'Asia/Tokyo';

type Answer = Pick<RunResultLike, 'ok' | 'value' | 'error'>;

function setup(answer: (name: string, args: unknown[]) => Answer) {
  const calls: Array<{ name: string; args: unknown[]; authMode?: string }> = [];
  const runtime: PlaygroundRuntime = {
    run: async (name, args = [], options) => {
      calls.push({ name, args, authMode: options?.authMode });
      return { timedOut: false, logs: [], ...answer(name, args) } as RunResultLike;
    },
    fireTrigger: async () => ({ ok: true, timedOut: false, logs: [] }) as unknown as RunResultLike,
    triggers: [],
    exportJson: () => ({ sheets: {} }),
  };
  const workbook = new Workbook({ timeZone: ZONE });
  const sheet = workbook.sheets[0]!;
  const formulas = new FormulaCells(
    runtime,
    () => workbook,
    async () => ['PROFIT_SUMMARY', 'PROFIT_DAILY'],
  );
  return { calls, workbook, sheet, formulas };
}

describe('parseFormulaCall', () => {
  it('reads literal and reference arguments', () => {
    expect(parseFormulaCall('=profit_summary("2026-10-01", B4, "a ""q"", b", -1.5, TRUE, \'My sheet\'!A1:B2)')).toEqual(
      {
        name: 'PROFIT_SUMMARY',
        args: [
          { kind: 'value', value: '2026-10-01' },
          { kind: 'ref', row: 4, column: 2, numRows: 1, numColumns: 1 },
          { kind: 'value', value: 'a "q", b' },
          { kind: 'value', value: -1.5 },
          { kind: 'value', value: true },
          { kind: 'ref', sheetName: 'My sheet', row: 1, column: 1, numRows: 2, numColumns: 2 },
        ],
      },
    );
    expect(parseFormulaCall('=MA_FRESHNESS()')).toEqual({ name: 'MA_FRESHNESS', args: [] });
  });
  it('leaves expressions and nested calls alone', () => {
    expect(parseFormulaCall('=PROFIT_SUMMARY(A1, A2) * 2')).toBeNull();
    expect(parseFormulaCall('=PROFIT_SUMMARY(TODAY(), A2)')).toBeNull();
    expect(parseFormulaCall('=A1+1')).toBeNull();
  });
});

describe('formula cells', () => {
  it('runs a custom-function execution with a date cell as its wall-time Date, and spills the answer', async () => {
    const { calls, sheet, formulas } = setup(() => ({
      ok: true,
      value: [
        ['date', 'net_profit'],
        [new Date('2026-10-01T15:00:00Z'), 12.5],
      ],
    }));
    sheet.write(1, 1, userEnteredWrite('2026-10-02', ZONE));
    sheet.write(3, 2, { formula: '=PROFIT_DAILY(A1, A1:A2)' });
    await formulas.recalculate(sheet, 3, 2);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.authMode).toBe('CUSTOM_FUNCTION');
    const [day, range] = calls[0]!.args as [Date, unknown[][]];
    expect(day.toISOString()).toBe('2026-10-01T15:00:00.000Z'); // midnight of 2026-10-02 in Tokyo
    expect(range).toEqual([[day], ['']]);
    const rows = gridWindow(sheet, 3, 2, formulas).rows;
    expect(rows[0]!.map((c) => c?.t ?? '')).toEqual(['', 'date', 'net_profit']);
    expect(rows[0]![1]!.edit).toBe('=PROFIT_DAILY(A1, A1:A2)');
    expect(rows[1]!.map((c) => c?.t ?? '')).toEqual(['', '10/2/2026', '12.5']);
    expect(rows[1]![2]).toMatchObject({ k: 'n', spill: true });
  });

  it('shows #REF! when the answer would cover a cell with content, #ERROR! with the message when the execution fails', async () => {
    const { sheet, formulas } = setup((_name, args) =>
      args[0] === 'bad'
        ? { ok: false, error: { name: 'Error', message: 'PROFIT_SUMMARY: start must be a date or YYYY-MM-DD' } }
        : { ok: true, value: [[1], [2]] },
    );
    sheet.write(2, 1, { value: 'mine' });
    sheet.write(1, 1, { formula: '=PROFIT_SUMMARY("2026-10-01", "2026-10-31")' });
    sheet.write(1, 3, { formula: '=PROFIT_SUMMARY("bad", "2026-10-31")' });
    await formulas.settle(sheet);
    const [first] = gridWindow(sheet, 1, 1, formulas).rows;
    expect(first![0]).toMatchObject({
      t: '#REF!',
      k: 'e',
      message: 'Array result was not expanded because it would overwrite data in A2.',
    });
    expect(first![2]).toMatchObject({
      t: '#ERROR!',
      k: 'e',
      message: 'PROFIT_SUMMARY: start must be a date or YYYY-MM-DD',
    });
  });

  it("shows #REF! on a formula whose answer would spill over another formula's spilled answer, and writes none of it", async () => {
    const { sheet, formulas } = setup((_name, args) => ({
      ok: true,
      value:
        args[0] === 'first'
          ? [
              ['a1', 'b1'],
              ['a2', 'b2'],
              ['a3', 'b3'],
            ]
          : [
              ['x1', 'y1'],
              ['x2', 'y2'],
            ],
    }));
    sheet.write(1, 2, { formula: '=PROFIT_DAILY("first", "2026-10-31")' }); // B1: spills B1:C3
    await formulas.settle(sheet);
    sheet.write(2, 1, { formula: '=PROFIT_DAILY("second", "2026-10-31")' }); // A2: would spill A2:B3, over B2:B3
    await formulas.settle(sheet);
    const rows = gridWindow(sheet, 1, 3, formulas).rows;
    expect(rows.map((line) => [0, 1, 2].map((c) => line[c]?.t ?? ''))).toEqual([
      ['', 'a1', 'b1'],
      ['#REF!', 'a2', 'b2'],
      ['', 'a3', 'b3'],
    ]);
    expect(rows[1]![0]).toMatchObject({
      k: 'e',
      message: 'Array result was not expanded because it would overwrite data in B2.',
    });
  });

  it('does not run formulas it cannot compute, and says why', async () => {
    const { calls, sheet, formulas } = setup(() => ({ ok: true, value: 1 }));
    sheet.write(1, 1, { formula: '=SUM(B1:B3)' });
    await formulas.settle(sheet);
    expect(calls).toHaveLength(0);
    expect(gridWindow(sheet, 1, 1, formulas).rows[0]![0]).toMatchObject({ t: '#N/A', k: 'e' });
  });

  it('never runs a custom function with a volatile argument (direct, nested, or in a referenced cell): "Loading..." for good', async () => {
    const { calls, sheet, formulas } = setup(() => ({ ok: true, value: 1 }));
    sheet.write(1, 1, { formula: '=EOMONTH(TODAY(),-1)' }); // A1: computed from TODAY()
    sheet.write(2, 1, { formula: '=A1+1' }); // A2: from A1, so from TODAY() too
    sheet.write(3, 1, userEnteredWrite('2026-10-31', ZONE));
    const volatile = [
      '=PROFIT_SUMMARY(TODAY(), "2026-10-31", "net_profit")',
      '=profit_summary(DATE(YEAR(NOW()),1,1), A3)',
      '=PROFIT_DAILY(A3, A3, RANDARRAY(1))',
      '=PROFIT_SUMMARY(RANDBETWEEN(1, 2), A3)',
      '=PROFIT_SUMMARY(A3, rand())',
      '=PROFIT_SUMMARY(A1, A3)',
      '=PROFIT_SUMMARY(A2:A3, A3)',
    ];
    volatile.forEach((f, i) => sheet.write(5 + i, 2, { formula: f }));
    // A volatile name inside a text argument is text, not a call: that formula runs.
    sheet.write(20, 2, { formula: '=PROFIT_SUMMARY(A3, "TODAY()", "now")' });
    await formulas.settle(sheet);
    await formulas.settle(sheet);
    expect(calls.map((c) => c.args.slice(1))).toEqual([['TODAY()', 'now']]);
    const rows = gridWindow(sheet, 5, volatile.length, formulas).rows;
    expect(rows.map((r) => r[1])).toEqual(volatile.map((edit) => ({ t: 'Loading...', edit })));
    expect(formulas.pending(sheet)).toBe(false); // nothing is computing: it never will
  });

  it('recalculates a custom function when a cell it references changes value, and only then', async () => {
    const { calls, sheet, formulas } = setup((_name, args) => ({ ok: true, value: (args[0] as Date).toISOString() }));
    sheet.write(1, 1, userEnteredWrite('2026-10-01', ZONE));
    sheet.write(2, 1, userEnteredWrite('2026-10-31', ZONE));
    sheet.write(4, 2, { formula: '=PROFIT_SUMMARY($A$1, $A$2, "net_profit")' });
    await formulas.settle(sheet);
    await formulas.settle(sheet);
    expect(calls).toHaveLength(1);
    sheet.write(1, 1, userEnteredWrite('2026-11-01', ZONE)); // the period cell moves, the formula does not
    await formulas.settle(sheet);
    expect(calls).toHaveLength(2);
    expect((calls[1]!.args[0] as Date).toISOString()).toBe('2026-10-31T15:00:00.000Z'); // midnight of 2026-11-01 in Tokyo
    expect(gridWindow(sheet, 4, 1, formulas).rows[0]![1]).toMatchObject({ t: '2026-10-31T15:00:00.000Z' });
    await formulas.settle(sheet);
    expect(calls).toHaveLength(2);
  });

  it('shows a formula\'s answer in the number format of its cell, as Sheets does (the dashboard\'s #,##0.00 and 0.00"%")', async () => {
    const { sheet, formulas } = setup((_name, args) => ({
      ok: true,
      value: args[2] === 'net_margin_pct' ? 12.3456 : 10280.3,
    }));
    sheet.write(1, 1, { formula: '=PROFIT_SUMMARY("2026-10-01", "2026-10-31", "net_revenue")' });
    sheet.write(1, 2, { formula: '=PROFIT_SUMMARY("2026-10-01", "2026-10-31", "net_margin_pct")' });
    sheet.setFormat(1, 1, '#,##0.00');
    sheet.setFormat(1, 2, '0.00"%"');
    await formulas.settle(sheet);
    expect(gridWindow(sheet, 1, 1, formulas).rows[0]!.map((c) => c?.t)).toEqual(['10,280.30', '12.35%']);
  });
});
