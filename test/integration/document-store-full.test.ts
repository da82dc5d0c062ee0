/**
 * The spreadsheet's document properties share Google's 500 KB per store with whatever else keeps
 * data there (guides/services/quotas; the runtime refuses a write past it with Google's text). A
 * store a few KB short of full must not break every hourly run: the run drops the Orders day sums
 * (a saving: the next tie-out reads Orders whole), keeps the rest and says so; a store with no room
 * even then ends the run in the add-on's words, in the Sync log and the sidebar, losing nothing,
 * and the next run once there is room completes. The sheets equal the emulator's truth throughout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { compareWithTruth, sheetTable, syncUntilCaughtUp } from './sync-support';

const GOOGLE_RAW = /exceeded the property storage quota/;
const STORE_BYTES = 500 * 1024;
const FILLER = 'other.add-on.data.';
let stack: Stack;

const doc = () => stack.runtime.properties.document;
const used = (): number =>
  Object.entries(doc().all()).reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(v), 0);
const sumsKeys = (): string[] =>
  doc()
    .keys()
    .filter((k) => k === 'ma.orderSums' || k.startsWith('ma.orderSums.'));

/** Another add-on's data fills the document store up to `leaveFree` bytes short of 500 KB. */
function fillDocumentStore(leaveFree: number): void {
  for (let i = 0; ; i++) {
    const key = `${FILLER}${i}`;
    if (doc().get(key) !== null) continue;
    const size = Math.min(8_000, STORE_BYTES - used() - leaveFree - key.length);
    if (size <= 0) break;
    doc().set(key, 'x'.repeat(size));
  }
}

function emptyFiller(): void {
  for (const key of doc().keys()) if (key.startsWith(FILLER)) doc().delete(key);
}

async function hourlyRun(newOrders: number) {
  if (newOrders > 0) await stack.control('orders', { count: newOrders });
  await stack.advanceClocks(3_600_000);
  const r = await stack.runtime.run('onScheduledSync', []);
  const value = r.value as { outcome?: string; message?: string } | undefined;
  return { ok: r.ok, outcome: value?.outcome, message: value?.message ?? r.error?.message ?? '' };
}

async function expectTruth(): Promise<void> {
  const c = await compareWithTruth(stack);
  expect({ m: c.mismatches.slice(0, 3), missing: c.missing.length, unexpected: c.unexpected.length }).toEqual({
    m: [],
    missing: 0,
    unexpected: 0,
  });
}

beforeAll(async () => {
  stack = await startStack({ orders: 400, seed: 71 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
}, 300_000);

afterAll(async () => {
  await stack?.close();
});

describe('a document store near its 500 KB', () => {
  it('the hourly run drops the day sums it cannot keep, completes and says so; the next completes too', async () => {
    expect(sumsKeys().length).toBeGreaterThan(0);
    fillDocumentStore(60);
    await stack.advanceClocks(86_400_000);
    const first = await hourlyRun(20);
    console.log(`used ${used()} first ${JSON.stringify(first)} sums ${sumsKeys().length}`);
    expect(first.message).not.toMatch(GOOGLE_RAW);
    expect([first.ok, first.outcome]).toEqual([true, 'ok']);
    expect(first.message).toContain('dropped the Orders day totals');
    expect(sumsKeys()).toEqual([]);
    expect(used()).toBeLessThanOrEqual(STORE_BYTES);
    await expectTruth();

    const second = await hourlyRun(5);
    expect([second.ok, second.outcome, second.message]).not.toContainEqual(expect.stringMatching(GOOGLE_RAW));
    expect([second.ok, second.outcome]).toEqual([true, 'ok']);
    await expectTruth();
  });

  it("a store with no room even without the day sums: the run ends in the add-on's words, and the next run once there is room catches up", async () => {
    fillDocumentStore(0);
    const full = await hourlyRun(20);
    expect(full.message).not.toMatch(GOOGLE_RAW);
    expect([full.ok, full.outcome]).toEqual([true, 'error']);
    expect(full.message).toMatch(/storage for add-ons is full/);
    expect(JSON.stringify(sheetTable(stack, 'Sync log'))).not.toMatch(GOOGLE_RAW);
    expect(JSON.stringify(sheetTable(stack, 'Sync log'))).toMatch(/storage for add-ons is full/);
    const sidebar = await stack.runtime.run('getSidebarState', []);
    expect(JSON.stringify(sidebar.value ?? sidebar.error)).not.toMatch(GOOGLE_RAW);
    expect(JSON.stringify(sidebar.value)).toMatch(/storage for add-ons is full/);

    emptyFiller();
    const after = await hourlyRun(0);
    expect([after.ok, after.outcome]).toEqual([true, 'ok']);
    await expectTruth();
  });
});
