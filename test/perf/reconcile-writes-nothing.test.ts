/**
 * A reconciliation that finds nothing gone writes nothing, and its paging is paced like
 * the orders feed (spec 8.1, 60 requests a minute) so the service never answers 429. On the
 * bench's 10,000-order store, after "Sync now" brought every sheet up to date: the pass pages every
 * order again (the emulator's truth: none vanished), writes 0 cells (no Sync log row, no Checks
 * rewrite: the Checks rows say what they said), gets 0 429s, and the sidebar still shows when it
 * ran and what it found. The 429s are provoked: the pass starts in the minute the backfill's
 * requests filled (no hour between), as a user who reconciles right after a sync does.
 *
 * Figures are the runtime's counters over the pass's executions: never wall time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconciliation, sidebarSync, type Run } from '../../bench/drivers';
import { figuresOf, type Figures } from '../../bench/figures';
import { startBenchStack, type BenchStack } from '../../bench/stack';
import { compareWithTruth, sheetTable } from '../integration/sync-support';

const ORDERS = 10_000;

interface SidebarView {
  jobs: Array<{ job: string; outcome: string; lastRunAt: string; counts: { ordersGone: number } | null }>;
  tieout?: { recheckedAt?: string | null; recheckedRepaired?: number } | null;
}

let bench: BenchStack;
let pass: Run;
let figures: Figures;
let syncLogRows: { before: number; after: number };
let checksBefore: unknown[][];
let checksAfter: unknown[][];
let sidebar: SidebarView;
let passStartedAt: number;
let truthOrders: number;
let mismatches: number;

beforeAll(async () => {
  bench = await startBenchStack(ORDERS);
  const { stack } = bench;
  truthOrders = ((await stack.truth('orders')) as { data: unknown[] }).data.length;
  const backfill = await sidebarSync(stack);
  expect(backfill.done, backfill.note).toBe(true);
  syncLogRows = { before: sheetTable(stack, 'Sync log').length, after: 0 };
  checksBefore = sheetTable(stack, 'Checks');
  passStartedAt = stack.runtime.clock.now();
  pass = await reconciliation(stack);
  figures = figuresOf({
    results: pass.results,
    sheetsWritesPerMinuteMax: pass.sheetsWritesPerMinuteMax,
    orders: ORDERS,
  });
  syncLogRows.after = sheetTable(stack, 'Sync log').length;
  checksAfter = sheetTable(stack, 'Checks');
  const state = await stack.runtime.run('getSidebarState', []);
  expect(state.ok, JSON.stringify(state.error)).toBe(true);
  sidebar = state.value as SidebarView;
  const c = await compareWithTruth(stack);
  mismatches = c.mismatches.length + c.missing.length + c.unexpected.length + c.duplicates.length;
}, 300_000);

afterAll(async () => {
  await bench?.close();
});

describe(`a reconciliation of ${ORDERS.toLocaleString('en')} orders that finds nothing gone`, () => {
  it('pages every order again and leaves the sheets equal to the truth', () => {
    expect(pass.done, pass.note).toBe(true);
    expect(pass.note).toContain('0 orders marked gone');
    expect(figures.api_requests_by_endpoint['/api/v1/orders']).toBeGreaterThanOrEqual(Math.ceil(truthOrders / 250));
    expect(mismatches, 'cells, rows and duplicates that differ from /_emulator/truth').toBe(0);
  });

  it('writes 0 cells: no Sync log row, no Checks rewrite', () => {
    expect(figures.cells_written, `cells written by the pass: ${JSON.stringify(figures.sheets_calls_by_kind)}`).toBe(0);
    expect(syncLogRows.after).toBe(syncLogRows.before);
    expect(checksAfter).toEqual(checksBefore);
  });

  it('gets 0 429s from the API: its pages are paced under the minute', () => {
    expect(figures.api_429s).toBe(0);
  });

  it('the sidebar still shows when it ran and what it found', () => {
    const [last] = sidebar.jobs;
    expect(last.job).toMatch(/reconcil/i);
    expect(last.outcome).toBe('ok');
    expect(last.counts?.ordersGone).toBe(0);
    expect(Date.parse(last.lastRunAt)).toBeGreaterThanOrEqual(passStartedAt - 1000);
    // The Checks line: every order's figures re-checked by this pass, none repaired.
    expect(Date.parse(sidebar.tieout?.recheckedAt ?? '')).toBeGreaterThanOrEqual(passStartedAt - 1000);
    expect(sidebar.tieout?.recheckedRepaired).toBe(0);
  });
});
