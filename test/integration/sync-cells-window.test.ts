/**
 * ARCHITECTURE "Scale": a spreadsheet holds 10 M cells. Near the limit the sidebar offers a
 * created_after window; a first backfill whose estimate cannot fit is refused (nothing written)
 * with a window proposed; a chosen window reaches the API as created_after on every orders request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SidebarState } from '../../src/contract/sidebar';
import type { ExecutionResult } from '../../dev/gas-runtime/index';
import { startStack, type Stack } from '../../dev/harness/index';
import { sheetTable } from './sync-support';

type TruthOrder = { id: string; created_at: string };
const LIMIT = 10_000_000;

async function sidebar(stack: Stack): Promise<SidebarState> {
  const r = await stack.runtime.run('getSidebarState', [], { authMode: 'FULL' });
  if (!r.ok) throw new Error(`getSidebarState failed: ${r.error?.message}`);
  return r.value as SidebarState;
}

async function chooseWindow(stack: Stack, createdAfter: string | null): Promise<SidebarState> {
  const r = await stack.runtime.run('setOrdersWindow', [{ createdAfter }], { authMode: 'FULL' });
  if (!r.ok) throw new Error(`setOrdersWindow failed: ${r.error?.message}`);
  return r.value as SidebarState;
}

async function syncRuns(stack: Stack, max = 10): Promise<ExecutionResult[]> {
  const runs: ExecutionResult[] = [];
  for (let n = 0; n < max; n++) {
    const r = await stack.runtime.run('onScheduledSync', []);
    runs.push(r);
    const value = r.value as { done?: boolean } | undefined;
    if (r.ok && value?.done) break;
  }
  return runs;
}

function orderRequestUrls(runs: ExecutionResult[]): URL[] {
  return runs.flatMap((r) =>
    r.counts.requests.map((q) => new URL(q.url)).filter((u) => u.pathname === '/api/v1/orders'),
  );
}

async function truthOrders(stack: Stack): Promise<{ orders: TruthOrder[]; timeZone: string }> {
  const store = (await stack.truth('store')) as { store: { timezone: string } };
  const orders = ((await stack.truth('orders')) as { data: TruthOrder[] }).data;
  return { orders, timeZone: store.store.timezone };
}

const placedDay = (o: TruthOrder, timeZone: string): string =>
  new Date(o.created_at).toLocaleDateString('en-CA', { timeZone });

function sheetOrderIds(stack: Stack): string[] {
  const [header, ...rows] = sheetTable(stack, 'Orders');
  return rows.map((r) => String(r[header.indexOf('id')]));
}

/** A sheet of the user's own that fills the spreadsheet up to `cells` grid cells. */
function fillUp(stack: Stack, cells: number): void {
  stack.runtime.workbook.insertSheet('Archive', undefined, { rows: Math.floor(cells / 20), columns: 20 });
}

describe('near the limit (70 %): the sidebar offers a window, and the next sync keeps to it', () => {
  let stack: Stack;
  let before: SidebarState;
  let after: SidebarState;
  let runs: ExecutionResult[];
  let windowFrom: string;

  beforeAll(async () => {
    stack = await startStack({ orders: 1200, seed: 5 });
    await stack.connect();
    fillUp(stack, 7_300_000);
    before = await sidebar(stack);
    const { orders, timeZone } = await truthOrders(stack);
    const days = orders.map((o) => placedDay(o, timeZone)).sort();
    windowFrom = days[Math.floor(days.length / 2)]!;
    after = await chooseWindow(stack, windowFrom);
    runs = await syncRuns(stack);
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('shows cells used against 10 M with the offer to keep only recent orders', () => {
    expect(before.cells.limit).toBe(LIMIT);
    expect(before.cells.warn).toBe(true);
    expect(before.cells.offer).toMatchObject({ reason: 'filling_up' });
    expect(before.cells.offer!.suggestedFrom).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(before.cells.offer!.suggestedFrom <= before.cells.offer!.latest).toBe(true);
  });

  it('the chosen day is the window in force', () => {
    expect(after.cells.ordersWindow).toBe(windowFrom);
  });

  it('every orders request of the next sync carries created_after = the chosen day', () => {
    const urls = orderRequestUrls(runs);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url.searchParams.get('created_after')).toBe(windowFrom);
    expect((runs[runs.length - 1].value as { outcome: string }).outcome).toBe('ok');
  });

  it('the Orders sheet holds exactly the orders placed since that day, once each', async () => {
    const { orders, timeZone } = await truthOrders(stack);
    const expected = orders.filter((o) => placedDay(o, timeZone) >= windowFrom).map((o) => o.id);
    const ids = sheetOrderIds(stack);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set(expected));
    expect(expected.length).toBeLessThan(orders.length);
  });

  it('a date that is not a real day is refused with a clear error and changes nothing', async () => {
    const r = await stack.runtime.run('setOrdersWindow', [{ createdAfter: '2026-02-30' }], { authMode: 'FULL' });
    expect(r.ok).toBe(false);
    expect(r.error?.message).toMatch(/Nothing was changed/);
    expect((await sidebar(stack)).cells.ordersWindow).toBe(windowFrom);
  });

  it('removing the window (a wider one) fetches the older orders too: every order once', async () => {
    await chooseWindow(stack, null);
    const more = await syncRuns(stack);
    for (const url of orderRequestUrls(more)) expect(url.searchParams.has('created_after')).toBe(false);
    const { orders } = await truthOrders(stack);
    const ids = sheetOrderIds(stack);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set(orders.map((o) => o.id)));
  });
});

describe('a first backfill that cannot fit is refused before anything is written, and a window is proposed', () => {
  let stack: Stack;
  let refused: ExecutionResult[];
  let state: SidebarState;
  let estimate: { orders: number; neededCells: number; freeCells: number; fits: boolean; suggestedFrom: string | null };
  let total: number;

  beforeAll(async () => {
    stack = await startStack({ orders: 3000, seed: 6 });
    await stack.connect();
    fillUp(stack, 9_700_000);
    refused = await syncRuns(stack, 1);
    state = await sidebar(stack);
    estimate = JSON.parse(stack.runtime.properties.document.get('ma.sync.capacity') ?? '{}').estimate;
    total = (await truthOrders(stack)).orders.length;
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('stops with a message naming the cells needed and free; no order row is written', () => {
    const value = refused[0].value as { outcome: string; message: string };
    expect(value.outcome).toBe('error');
    expect(value.message).toMatch(/would not fit/);
    expect(sheetOrderIds(stack)).toEqual([]);
  });

  it('estimates the order count from the API within 25 % of the truth', () => {
    expect(estimate.fits).toBe(false);
    expect(Math.abs(estimate.orders - total) / total).toBeLessThan(0.25);
    expect(estimate.neededCells).toBeGreaterThan(estimate.freeCells);
  });

  it('the sidebar offers the window it estimates would fit', () => {
    expect(state.cells.offer).toMatchObject({ reason: 'would_not_fit', suggestedFrom: estimate.suggestedFrom });
  });

  it('with the proposed window the sync runs, keeps to it and stays within the limit', async () => {
    const from = state.cells.offer!.suggestedFrom;
    await chooseWindow(stack, from);
    const runs = await syncRuns(stack);
    expect((runs[runs.length - 1].value as { outcome: string }).outcome).toBe('ok');
    for (const url of orderRequestUrls(runs)) expect(url.searchParams.get('created_after')).toBe(from);
    const { orders, timeZone } = await truthOrders(stack);
    const expected = orders.filter((o) => placedDay(o, timeZone) >= from).map((o) => o.id);
    expect(new Set(sheetOrderIds(stack))).toEqual(new Set(expected));
    expect(stack.runtime.workbook.totalCells()).toBeLessThanOrEqual(LIMIT);
    expect((await sidebar(stack)).cells.offer?.reason).not.toBe('would_not_fit');
  });
});
