/**
 * Formulas: what a formula cell costs must not grow with the store. The same cells
 * (PROFIT_SUMMARY with its incomplete-cost rows, the metric alone, PROFIT_DAILY, PROFIT_MONTHLY)
 * run one after another on a synced store of 1,000 and of 10,000 orders: each cell's cells read,
 * Sheets calls and API requests are the same at both sizes and within the committed budget. Then
 * the bench's report (200 cells over 12 argument sets, 20 executions at a time) on the 10k store:
 * one request per argument set, no cell failed, none longer than 5 modelled seconds. PROFIT_ORDER
 * by an order number reads the same cells at both sizes (one bucket of the order number index the
 * sync keeps, never the Orders sheet's order_number column).
 *
 * Figures are the runtime's counters and its modelled clock (modelledTimeOnly: the clock moves by
 * modelled service costs only), never wall time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { ExecutionResult } from '../../dev/gas-runtime/index';
import { recalculation, reportCells, type FormulaCell } from '../../bench/drivers';
import { syncUntilCaughtUp } from '../integration/sync-support';

/** The committed budget of one formula cell (the highest of the cells below). */
const CELL_BUDGET = { cellsRead: 0, sheetsCalls: 4, apiRequests: 1, modelledSeconds: 2 };
/** PROFIT_ORDER by a display number: one bucket cell of the order number index, then the order by id. */
const ORDER_CELL_BUDGET = { cellsRead: 1, sheetsCalls: 6, apiRequests: 1, modelledSeconds: 1 };
/** The formula budget: 12 argument sets, 200 cells. */
const REPORT_BUDGET = { apiRequests: 12, failed: 0, longestCellSeconds: 5, cellsRead: 0, sheetsCalls: 600 };

interface CellFigures {
  cell: string;
  ok: boolean;
  cellsRead: number;
  sheetsCalls: number;
  apiRequests: number;
  /** The cell's own modelled service time and sleeps (no CPU time: that is measured, not modelled). */
  modelledMs: number;
}

function figuresOf(cell: { fn: string; args: readonly unknown[] }, r: ExecutionResult): CellFigures {
  const c = r.counts;
  return {
    cell: `${cell.fn}(${cell.args.join(', ')})`,
    ok: r.ok,
    cellsRead: c.cellsRead,
    sheetsCalls: c.sheetsCalls,
    apiRequests: c.requests.filter((q) => new URL(q.url).pathname.startsWith('/api/v1/')).length,
    modelledMs: Object.values(c.modelledMsByService).reduce((s, ms) => s + ms, 0) + c.sleptMs,
  };
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The kinds of cell a report holds; the incomplete-cost ones are those that read what the sync counted. */
function sampleCells(today: string): FormulaCell[] {
  const r = (a: number, b: number): string[] => [addDays(today, a), addDays(today, b)];
  return [
    { fn: 'PROFIT_SUMMARY', args: r(-60, -31) },
    { fn: 'PROFIT_SUMMARY', args: [...r(-365, -1), 'orders_with_incomplete_costs'] },
    { fn: 'PROFIT_SUMMARY', args: [...r(-90, -61), 'net_revenue_with_incomplete_costs'] },
    { fn: 'PROFIT_SUMMARY', args: [...r(-60, -31), 'net_profit'] },
    { fn: 'PROFIT_DAILY', args: r(-14, -1) },
    { fn: 'PROFIT_MONTHLY', args: [...r(-100, -1), 'net_profit, cm3'] },
  ];
}

/**
 * PROFIT_ORDER by numbers both stores show (the emulator numbers orders from #1001), each looked
 * up once: nothing in the document cache, the order number index read.
 */
const ORDER_CELLS = [
  { fn: 'PROFIT_ORDER', args: ['#1005'] },
  { fn: 'PROFIT_ORDER', args: ['#1900'] },
];

interface Store {
  stack: Stack;
  today: string;
  cells: CellFigures[];
  orderCells: CellFigures[];
}

async function syncedStore(orders: number): Promise<Store> {
  const stack = await startStack({ orders, seed: 1, modelledTimeOnly: true });
  await stack.connect();
  await syncUntilCaughtUp(stack);
  // The cells are measured in a minute of their own: the backfill just made up to 60 requests in the
  // last one (the API's burst limit, spec), and cells that meet its 429s wait them out — correct,
  // but that is the sync's cost, not the cells'.
  await stack.advanceClocks(120_000);
  const today = ((await stack.truth('store')) as { today: string }).today;
  const cells: CellFigures[] = [];
  for (const cell of sampleCells(today)) {
    cells.push(figuresOf(cell, await stack.runtime.run(cell.fn, cell.args, { authMode: 'CUSTOM_FUNCTION' })));
  }
  const orderCells: CellFigures[] = [];
  for (const cell of ORDER_CELLS) {
    orderCells.push(figuresOf(cell, await stack.runtime.run(cell.fn, cell.args, { authMode: 'CUSTOM_FUNCTION' })));
  }
  return { stack, today, cells, orderCells };
}

let small: Store;
let large: Store;

beforeAll(async () => {
  small = await syncedStore(1_000);
  large = await syncedStore(10_000);
});

afterAll(async () => {
  await small?.stack.close();
  await large?.stack.close();
});

describe('a formula cell costs the same on a store of 1,000 and of 10,000 orders', () => {
  it('every sample cell answers', () => {
    expect([...small.cells, ...large.cells].filter((c) => !c.ok)).toEqual([]);
  });

  it('reads the same cells, makes the same Sheets calls and API requests at both sizes', () => {
    const counters = (s: Store) =>
      s.cells.map(({ cell, cellsRead, sheetsCalls, apiRequests }) => ({ cell, cellsRead, sheetsCalls, apiRequests }));
    expect(counters(large)).toEqual(counters(small));
  });

  it('stays within the committed budget per cell', () => {
    for (const c of large.cells) {
      expect(c.cellsRead, c.cell).toBeLessThanOrEqual(CELL_BUDGET.cellsRead);
      expect(c.sheetsCalls, c.cell).toBeLessThanOrEqual(CELL_BUDGET.sheetsCalls);
      expect(c.apiRequests, c.cell).toBeLessThanOrEqual(CELL_BUDGET.apiRequests);
      expect(c.modelledMs / 1000, c.cell).toBeLessThanOrEqual(CELL_BUDGET.modelledSeconds);
    }
  });
});

describe('PROFIT_ORDER by an order number costs the same on a store of 1,000 and of 10,000 orders', () => {
  it('answers, reading the same cells (the number index, never the Orders sheet) at both sizes and within its budget', () => {
    expect([...small.orderCells, ...large.orderCells].filter((c) => !c.ok)).toEqual([]);
    const counters = (s: Store) =>
      s.orderCells.map(({ cell, cellsRead, sheetsCalls, apiRequests }) => ({
        cell,
        cellsRead,
        sheetsCalls,
        apiRequests,
      }));
    expect(counters(large)).toEqual(counters(small));
    for (const c of large.orderCells) {
      expect(c.cellsRead, c.cell).toBeLessThanOrEqual(ORDER_CELL_BUDGET.cellsRead);
      expect(c.sheetsCalls, c.cell).toBeLessThanOrEqual(ORDER_CELL_BUDGET.sheetsCalls);
      expect(c.apiRequests, c.cell).toBeLessThanOrEqual(ORDER_CELL_BUDGET.apiRequests);
      expect(c.modelledMs / 1000, c.cell).toBeLessThanOrEqual(ORDER_CELL_BUDGET.modelledSeconds);
    }
  });
});

describe('the 200-cell report on the 10k store', () => {
  it('one request per argument set, no cell failed, none over 5 modelled seconds', async () => {
    // A new formula generation, as after a sync: nothing the sample cells cached is reused.
    const refreshed = await large.stack.runtime.run('refreshFormulasFromMenu', []);
    expect(refreshed.ok, JSON.stringify(refreshed.error)).toBe(true);
    const run = await recalculation(large.stack, reportCells(large.today));
    const requests = run.results.reduce(
      (s, r) => s + r.counts.requests.filter((q) => new URL(q.url).pathname.startsWith('/api/v1/')).length,
      0,
    );
    const longest = Math.max(...run.results.map((r) => r.elapsedMs)) / 1000;
    const cellsRead = run.results.reduce((s, r) => s + r.counts.cellsRead, 0);
    const sheetsCalls = run.results.reduce((s, r) => s + r.counts.sheetsCalls, 0);
    expect(run.note).toBe('every cell answered');
    expect(run.failed).toBe(REPORT_BUDGET.failed);
    expect(requests).toBeLessThanOrEqual(REPORT_BUDGET.apiRequests);
    expect(longest).toBeLessThanOrEqual(REPORT_BUDGET.longestCellSeconds);
    expect(cellsRead).toBeLessThanOrEqual(REPORT_BUDGET.cellsRead);
    expect(sheetsCalls).toBeLessThanOrEqual(REPORT_BUDGET.sheetsCalls);
  });
});
