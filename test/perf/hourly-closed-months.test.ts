/**
 * In CI: a finance team closes every month (Close month). Each later hourly run compares the
 * closed months with their closes (Restatements). The hourly run after 100 cost corrections, with
 * the last 12 months closed, at 2k and 10k orders (the hourly run's cells read follow the
 * changed orders, not the store), beside the same run before any month was closed. Measured here:
 * the cells the run reads of the close sheets (every Values.batchGet's and batchGetByDataFilter's
 * ranges on a `Close YYYY-MM` sheet), which must not grow with the store. Ground truth: the emulator's truth, cell for cell.
 * Figures are the runtime's counts: never wall time.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBenchBundle } from '../../bench/bundle';
import { ensureHourlySchedule, hourlyTrigger, sidebarSync, type Run } from '../../bench/drivers';
import { figuresOf, type Figures } from '../../bench/figures';
import { startBenchStack, type BenchStack } from '../../bench/stack';
import { SheetsValues } from '../../dev/gas-runtime/spreadsheet/sheets-values';
import { compareWithTruth, type Comparison } from '../integration/sync-support';

type BatchGet = (id: string, options?: Parameters<SheetsValues['batchGet']>[1]) => ReturnType<SheetsValues['batchGet']>;
const proto = SheetsValues.prototype as unknown as { batchGet: BatchGet };
const original = proto.batchGet;
type ByDataFilter = (
  resource: Parameters<SheetsValues['batchGetByDataFilter']>[0],
  id: string,
) => ReturnType<SheetsValues['batchGetByDataFilter']>;
const filterProto = SheetsValues.prototype as unknown as { batchGetByDataFilter: ByDataFilter };
const originalByFilter = filterProto.batchGetByDataFilter;
/** Cells read from close sheets while counting (null: not counting). */
let closeCells: number | null = null;

function countClose(range: string, values: unknown[][] | undefined): void {
  if (closeCells === null || !/^'?Close \d{4}-\d{2}/.test(range)) return;
  closeCells += (values ?? []).reduce((n, row) => n + row.length, 0);
}

const HOUR_MS = 3_600_000;
const CHANGED = 100;
const EXACT: Comparison = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
const MONTHS = Array.from(
  { length: 12 },
  (_, i) => `${i < 2 ? 2025 : 2026}-${String(((i + 10) % 12) + 1).padStart(2, '0')}`,
);
const stacks: BenchStack[] = [];

interface Measured {
  closeCells: number;
  open: Figures;
  closed: Figures;
  closes: string[];
  truth: Comparison;
}

async function measure(orders: number, dir: string): Promise<Measured> {
  const bench = await startBenchStack(orders, dir);
  stacks.push(bench);
  const { stack } = bench;
  const all = ((await stack.truth('orders')) as { data: Array<{ id: string; line_items: unknown[] }> }).data;
  const ids = all.filter((o) => o.line_items.length === 2).map((o) => o.id);
  const change = async (offset: number): Promise<void> => {
    for (let i = 0; i < CHANGED; i++) {
      await stack.control(`orders/${ids[(offset + i * 97) % ids.length]}/change`, { kind: 'cost_correction' });
      await stack.advanceClocks(Math.floor(HOUR_MS / CHANGED));
    }
  };
  const figures = (r: Run): Figures => {
    expect(r.done, r.note).toBe(true);
    return figuresOf({ results: r.results, sheetsWritesPerMinuteMax: r.sheetsWritesPerMinuteMax, orders });
  };
  const backfill = await sidebarSync(stack);
  expect(backfill.done, backfill.note).toBe(true);
  await stack.advanceClocks(HOUR_MS);
  const uid = await ensureHourlySchedule(stack);
  await hourlyTrigger(stack, uid);
  await change(0);
  const open = figures(await hourlyTrigger(stack, uid));
  const closes: string[] = [];
  for (const month of MONTHS) {
    const r = await stack.runtime.run('closeMonth', [{ month }]);
    closes.push(r.ok ? (r.value as { status: string }).status : String(r.error?.message));
  }
  await stack.advanceClocks(HOUR_MS);
  await hourlyTrigger(stack, uid);
  await change(13);
  closeCells = 0;
  const closed = figures(await hourlyTrigger(stack, uid));
  const counted = closeCells;
  closeCells = null;
  return { closeCells: counted, open, closed, closes, truth: await compareWithTruth(stack) };
}

let small: Measured;
let large: Measured;

beforeAll(async () => {
  proto.batchGet = function (this: SheetsValues, id, options) {
    const got = original.call(this, id, options);
    const ranges = ([] as string[]).concat(options?.ranges ?? []);
    ranges.forEach((range, i) => countClose(range, (got.valueRanges[i] as { values?: unknown[][] }).values));
    return got;
  };
  filterProto.batchGetByDataFilter = function (this: SheetsValues, resource, id) {
    const got = originalByFilter.call(this, resource, id);
    for (const match of got.valueRanges as Array<{
      valueRange: { values?: unknown[][] };
      dataFilters: Array<{ a1Range: string }>;
    }>)
      countClose(match.dataFilters[0].a1Range, match.valueRange.values);
    return got;
  };
  const dir = writeBenchBundle(path.resolve('dist'), mkdtempSync(path.join(os.tmpdir(), 'perf-dist-')));
  small = await measure(2_000, dir);
  large = await measure(10_000, dir);
}, 1_200_000);

afterAll(async () => {
  proto.batchGet = original;
  filterProto.batchGetByDataFilter = originalByFilter;
  for (const s of stacks) await s.close();
});

describe('the hourly run with 12 closed months', () => {
  it('closes the 12 months and leaves the sheets matching the truth', () => {
    for (const m of [small, large]) {
      expect(m.closes).toEqual(MONTHS.map(() => 'closed'));
      expect(m.truth).toEqual(EXACT);
    }
  });

  it('reads no more of the close sheets at 10k than at 2k: what it reads follows the changed orders', () => {
    expect(small.closeCells, 'the close sheets are read (the restatements compare them)').toBeGreaterThan(0);
    expect(large.closeCells, `close sheet cells read: ${small.closeCells} at 2k`).toBeLessThanOrEqual(
      Math.max(1_000, small.closeCells * 1.5),
    );
  });
});
