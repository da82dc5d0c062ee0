/**
 * A backfill at 1,000 orders, where the fixed cost of setting up the sheets weighs most:
 * "Sync now" in a new spreadsheet creates and sets up every sheet (Orders, Line items, Products,
 * Variants, Daily P&L, Monthly P&L, Checks, Sync log) and writes them, within the committed budget
 * (backfill-setup-budget.json) of Sheets calls, Sheets API write requests (Google's 60 a minute),
 * cells read and modelled seconds. A set-up that goes back to a call per header, note, format or
 * tag, a flush per sheet, or a read of the grids it just made, fails here.
 *
 * Figures are the runtime's counters and its modelled clock (modelledTimeOnly): service costs and
 * sleeps, never wall time or JavaScript CPU time, so every figure repeats exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import { sidebarSync, type Run } from '../../bench/drivers';
import { figuresOf, serviceSeconds, type Figures } from '../../bench/figures';
import { startBenchStack, type BenchStack } from '../../bench/stack';
import { truthRowCounts } from './truth-counts';
import budget from './backfill-setup-budget.json';

const SHEETS = ['Orders', 'Line items', 'Products', 'Variants', 'Daily P&L', 'Monthly P&L', 'Checks', 'Sync log'];

let bench: BenchStack;
let ours: Run;
let figures: Figures;
let truth: { orders: number; lineItems: number };
let sheets: Record<string, { rows: number; header: unknown[]; bold: boolean; notes: number; frozen: number }>;

beforeAll(async () => {
  bench = await startBenchStack(budget.orders);
  const { stack } = bench;
  truth = await truthRowCounts(stack);
  ours = await sidebarSync(stack);
  figures = figuresOf({ results: ours.results, sheetsWritesPerMinuteMax: ours.sheetsWritesPerMinuteMax, orders: 0 });
  const workbook = stack.runtime.workbook as unknown as { sheetByName(n: string): SheetModel | undefined };
  sheets = Object.fromEntries(
    SHEETS.map((name) => {
      const sheet = workbook.sheetByName(name);
      const columns = sheet ? sheet.maxColumns : 0;
      const header = Array.from({ length: columns }, (_, c) => sheet?.value(1, c + 1) ?? '');
      return [
        name,
        {
          rows: (sheet?.lastRow() ?? 1) - 1,
          header,
          bold: columns > 0 && header.every((_, c) => sheet?.style(1, c + 1)?.fontWeight === 'bold'),
          notes: header.filter((_, c) => (sheet?.note(1, c + 1) ?? '') !== '').length,
          frozen: sheet?.frozenRows ?? 0,
        },
      ];
    }),
  );
}, 300_000);

afterAll(async () => {
  await bench?.close();
});

describe(`the backfill of ${budget.orders} orders into a new spreadsheet`, () => {
  it('sets up and writes every sheet (bold header with its notes, frozen header row) within the committed budget of Sheets calls, Sheets API write requests, cells read and modelled seconds', () => {
    expect(ours.done, ours.note).toBe(true);
    expect(sheets.Orders.rows).toBe(truth.orders);
    expect(sheets['Line items'].rows).toBe(truth.lineItems);
    for (const name of SHEETS) {
      const sheet = sheets[name];
      expect(sheet.rows, name).toBeGreaterThan(0);
      expect(sheet.header[0], name).not.toBe('');
      expect(sheet.bold, `${name}: header in bold`).toBe(true);
      expect(sheet.frozen, `${name}: header row frozen`).toBe(1);
    }
    expect(sheets.Orders.notes).toBeGreaterThan(0);
    const got = {
      sheets_calls: figures.sheets_calls,
      sheets_api_writes: figures.sheets_calls_by_kind.api_write,
      cells_read: figures.cells_read,
      sheets_seconds: figures.time_split_seconds.sheets,
      service_seconds: serviceSeconds(figures),
    };
    for (const key of Object.keys(got) as Array<keyof typeof got>)
      expect(got[key], `${key}: ${JSON.stringify(got)}`).toBeLessThanOrEqual(budget[key]);
  });
});
