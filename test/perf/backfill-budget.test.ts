/**
 * Backfill: "Sync now" on a 10,000-order store (the bench's store: bench/stack.ts) stays
 * within the committed budget (backfill-budget.json) of executions, Sheets API write requests (the
 * ones Google's 60-a-minute quota counts), Sheets calls, cells read and modelled seconds, writes
 * every data sheet, and takes less modelled time than both naive alternatives (bench/alternatives)
 * on the same store. The runtime refuses a Sheets API body past 2 MB (sheets-payload-limit.ts), so
 * a backfill that finishes kept every write request within it.
 *
 * Figures are the runtime's counters and its modelled clock (modelledTimeOnly): service costs and
 * sleeps, never wall time or JavaScript CPU time, so every figure repeats exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionResult } from '../../dev/gas-runtime/index';
import { alternative, sidebarSync, type Run } from '../../bench/drivers';
import { startBenchStack, type BenchStack } from '../../bench/stack';
import { truthRowCounts } from './truth-counts';
import budget from './backfill-budget.json';

interface Figures {
  executions: number;
  sheetsApiWriteRequests: number;
  /** SpreadsheetApp and Advanced Sheets calls: a grid grown once a write, not once a flush, shows here. */
  sheetsCalls: number;
  cellsRead: number;
  modelledSeconds: number;
}

function modelledMs(r: ExecutionResult): number {
  return Object.values(r.counts.modelledMsByService).reduce((s, ms) => s + ms, 0) + r.counts.sleptMs;
}

function figuresOf(run: Run): Figures {
  const sum = (f: (r: ExecutionResult) => number): number => run.results.reduce((s, r) => s + f(r), 0);
  return {
    executions: run.results.length,
    sheetsApiWriteRequests: sum((r) => r.counts.sheetsApiWrites),
    sheetsCalls: sum((r) => r.counts.sheetsCalls),
    cellsRead: sum((r) => r.counts.cellsRead),
    modelledSeconds: Math.round(sum(modelledMs) / 100) / 10,
  };
}

type Workbook = { sheetByName(n: string): { lastRow(): number } | undefined };

let bench: BenchStack;
let ours: Run;
let sheetRows: Record<string, number>;
let truth: { orders: number; lineItems: number };
const alternatives: Record<string, Run> = {};

beforeAll(async () => {
  bench = await startBenchStack(budget.orders);
  const { stack } = bench;
  truth = await truthRowCounts(stack);
  ours = await sidebarSync(stack);
  const workbook = stack.runtime.workbook as unknown as Workbook;
  sheetRows = Object.fromEntries(
    ['Orders', 'Line items', 'Products', 'Variants', 'Daily P&L'].map((name) => [
      name,
      (workbook.sheetByName(name)?.lastRow() ?? 1) - 1,
    ]),
  );
  // Each alternative in a workbook of its own, on the same store and connection.
  for (const fn of ['altRefreshAll', 'altRowByRow']) {
    const previous = stack.runtime.replaceWorkbook();
    try {
      alternatives[fn] = await alternative(stack, fn);
    } finally {
      stack.runtime.replaceWorkbook(previous as never);
    }
  }
});

afterAll(async () => {
  await bench?.close();
});

describe('the backfill of 10,000 orders', () => {
  it('finishes and writes every data sheet', () => {
    expect(ours.done, ours.note).toBe(true);
    expect(sheetRows.Orders).toBe(truth.orders);
    expect(sheetRows['Line items']).toBe(truth.lineItems);
    for (const name of ['Products', 'Variants', 'Daily P&L']) expect(sheetRows[name], name).toBeGreaterThan(0);
  });

  it('stays within the committed budget of executions, write requests, Sheets calls, cells read and modelled seconds', () => {
    const got = figuresOf(ours);
    expect(got.executions).toBeLessThanOrEqual(budget.executions);
    expect(got.sheetsApiWriteRequests).toBeLessThanOrEqual(budget.sheetsApiWriteRequests);
    expect(got.sheetsCalls).toBeLessThanOrEqual(budget.sheetsCalls);
    expect(got.cellsRead).toBeLessThanOrEqual(budget.cellsRead);
    expect(got.modelledSeconds).toBeLessThanOrEqual(budget.modelledSeconds);
  });

  it('takes less modelled time than refresh-all and row-by-row on the same store', () => {
    const mine = figuresOf(ours).modelledSeconds;
    for (const [fn, run] of Object.entries(alternatives)) {
      expect(run.done, `${fn}: ${run.note}`).toBe(true);
      expect(mine, fn).toBeLessThan(figuresOf(run).modelledSeconds);
    }
  });
});
