/**
 * The progress bar of a first full sync: the orders feed runs oldest change first, so its span in
 * time (oldest order to now) is known from the first page. A first Sync now stopped part-way (the
 * service fails after two pages) leaves that start in the state, equal to the truth's oldest
 * updated_at (the sidebar measures the bar from it: sync-session.ts). Each step carries the cells
 * gauge measured after it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';

type Json = Record<string, unknown>;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ orders: 900, seed: 8, modelledTimeOnly: true });
  await stack.connect();
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

const ordersState = () =>
  JSON.parse(stack.runtime.properties.document.get('ma.sync.orders') ?? 'null') as {
    watermark: string | null;
    feedFrom?: string | null;
  };

describe('progress of a first full sync', () => {
  it("knows where the feed starts from its first page (the truth's oldest updated_at), and keeps it while the sync resumes", async () => {
    const truth = ((await stack.truth('orders')) as { data: Json[] }).data;
    const oldest = truth.map((o) => String(o.updated_at)).sort((a, b) => Date.parse(a) - Date.parse(b))[0];
    // Pages 1 and 2 come through; the third and every retry of it fail: the first step stops part-way.
    await stack.control('faults', { status: 500, count: 20, path_prefix: '/api/v1/orders', after: 2 });
    expect((await stack.runtime.run('startSync', [], { authMode: 'FULL' })).ok).toBe(true);
    const stopped = await stack.runtime.run('runSyncStep', [], { authMode: 'FULL' });
    expect(stopped.ok, stopped.error?.message).toBe(true);
    expect((stopped.value as { problem: unknown }).problem).not.toBeNull();
    const state = ordersState();
    expect(state.watermark).not.toBeNull();
    expect(Date.parse(state.feedFrom!)).toBe(Date.parse(oldest));
    // The next Sync now starts from the saved watermark; its step's fraction is measured from there.
    await stack.control('faults/clear', {});
    await stack.control('faults', { status: 500, count: 20, path_prefix: '/api/v1/orders', after: 1 });
    await stack.runtime.run('startSync', [], { authMode: 'FULL' });
    const next = await stack.runtime.run('runSyncStep', [], { authMode: 'FULL' });
    expect((next.value as { problem: unknown }).problem).not.toBeNull();
    expect(ordersState().feedFrom).toBe(state.feedFrom);
  }, 120_000);

  it('each step carries the cells gauge measured after it, so the gauge grows with the sheets', async () => {
    await stack.control('faults/clear', {});
    await stack.runtime.run('startSync', [], { authMode: 'FULL' });
    const done = await stack.runtime.run('runSyncStep', [], { authMode: 'FULL' });
    const progress = done.value as { done: boolean; fraction: number | null; cells?: { used: number } };
    expect(progress.done).toBe(true);
    expect(progress.fraction).toBe(1);
    // Ground truth: the runtime's own grid, every sheet's rows × columns.
    const sheets = (stack.runtime.workbook as unknown as { sheets: Array<{ maxRows: number; maxColumns: number }> })
      .sheets;
    expect(progress.cells?.used).toBe(sheets.reduce((n, s) => n + s.maxRows * s.maxColumns, 0));
  }, 120_000);
});
