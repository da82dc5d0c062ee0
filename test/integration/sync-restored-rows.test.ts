/**
 * A row the user deleted from Orders is put back by the sync, and counted as what it is: an order
 * synced before whose row was restored, not a new order. The Sync log's orders_added and the
 * sidebar's "new" count only the orders the store added (the emulator's truth), the restored one
 * is counted apart ("1 restored").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { SidebarState } from '../../src/contract/sidebar';
import { countsText } from '../../src/contract/counts-text';
import { compareWithTruth, deleteSheetRow, keyColumn, sheetTable, syncUntilCaughtUp } from './sync-support';

const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ orders: 200, seed: 31 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
});

afterAll(async () => {
  await stack?.close();
});

describe('a deleted Orders row put back', () => {
  it('is counted restored, not new: orders_added counts only the orders the store added', async () => {
    const orders = sheetTable(stack, 'Orders');
    const deletedId = orders[20]![keyColumn(orders)];
    const logBefore = sheetTable(stack, 'Sync log').length;
    deleteSheetRow(stack, 'Orders', 21);
    const added = ((await stack.control('orders', { count: 2 })) as { created: string[] }).created.length;
    expect(added).toBe(2);
    await stack.advanceClocks(3_600_000);
    await syncUntilCaughtUp(stack);
    expect(await compareWithTruth(stack)).toEqual(EXACT);
    const after = sheetTable(stack, 'Orders');
    expect(after.filter((r) => r[keyColumn(after)] === deletedId)).toHaveLength(1);

    const [header, ...log] = sheetTable(stack, 'Sync log');
    const runs = log.slice(logBefore - 1);
    const sum = (name: string): number => runs.reduce((n, r) => n + Number(r[header!.indexOf(name)] || 0), 0);
    expect(sum('orders_added')).toBe(added);

    const state = await stack.runtime.run('getSidebarState', [], { authMode: 'FULL' });
    expect(state.ok, state.error?.message).toBe(true);
    const counts = (state.value as SidebarState).jobs.flatMap((j) => (j.counts ? [j.counts] : []));
    const restored = counts.reduce((n, c) => n + c.ordersRestored, 0);
    expect(restored).toBe(1);
    expect(countsText(counts.find((c) => c.ordersRestored === 1)!)).toMatch(/1 restored: a deleted row put back/);
  });

  it('the Sync log says what was deleted in words that agree with their numbers, never "row(s)"', () => {
    const [header, ...log] = sheetTable(stack, 'Sync log');
    const messages = log.map((r) => String(r[header!.indexOf('message')]));
    const said = messages.find((m) => m.includes('were deleted from the sheets'));
    expect(said).toContain('1 order row and 0 line item rows were deleted from the sheets');
    expect(messages.filter((m) => /\w\(s\)/.test(m))).toEqual([]);
  });
});
