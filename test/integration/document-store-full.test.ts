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
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { decodeDaySums } from '../../src/server/finance/order-sums-text';
import type { DaySums } from '../../src/server/finance/order-day-sums';
import { checksRow, compareWithTruth, sheetTable, syncUntilCaughtUp } from './sync-support';

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

/** The kept day sums as stored (the stamp's groups decoded). */
function keptDays(): Map<string, DaySums> {
  const stamp = JSON.parse(doc().get('ma.orderSums') ?? '{}') as { parts?: string };
  const days = new Map<string, DaySums>();
  for (const part of (stamp.parts ?? '').split(',').filter((p) => p !== '')) {
    const [group = '', times = '1'] = part.split('*');
    const values = Array.from({ length: Number(times) }, (_, i) =>
      doc().get(`ma.orderSums.${group}${i ? `.${i}` : ''}`)!,
    );
    decodeDaySums(group, values, days);
  }
  return days;
}

describe('orders whose margin percentages disagree with their figures', () => {
  it('past three a day, the kept sums count them without listing them, and the Checks note says how many more', async () => {
    // Twenty orders placed now, synced; then their contribution margins changed by hand to disagree.
    const synced = await hourlyRun(20);
    expect([synced.ok, synced.outcome]).toEqual([true, 'ok']);
    const model = (stack.runtime.workbook as unknown as Workbook).sheetByName('Orders') as SheetModel;
    const [headers = []] = sheetTable(stack, 'Orders');
    const placed = headers.indexOf('placed_date');
    const pct = headers.indexOf('contribution_margin_pct');
    const rows = model.rows.slice(1, model.lastRow()).filter((r) => r !== undefined);
    const lastDay = Math.max(...rows.map((r) => Number(r!.v[placed])));
    const today = rows.filter((r) => Number(r!.v[placed]) === lastDay && r!.v[headers.indexOf('status')] === 'active');
    expect(today.length).toBeGreaterThan(10);
    for (const r of today) r!.v[pct] = 0.0123;
    const day = new Date(Math.round((lastDay - 25_569) * 86_400_000)).toISOString().slice(0, 10);

    // Checks → Run reads Orders whole and keeps the sums; an hourly run then ties out from them.
    const checked = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
    expect(checked.ok).toBe(true);
    const kept = keptDays().get(day)!;
    expect([kept.inconsistent.length, kept.unlisted]).toEqual([3, today.length - 3]);
    expect(checksRow(stack, day)?.result).toBe('✗');
    expect(String(checksRow(stack, day)?.note)).toContain(` and ${today.length - 3} more.`);

    const hourly = await hourlyRun(0);
    expect([hourly.ok, hourly.outcome]).toEqual([true, 'ok']);
    // The run wrote some of those orders again (the service's figures): what the sums count is what the sheet holds.
    const still = sheetTable(stack, 'Orders').filter((r) => r[placed] === lastDay && r[pct] === 0.0123).length;
    const after = keptDays().get(day);
    expect((after?.inconsistent.length ?? 0) + (after?.unlisted ?? 0)).toBe(still);
    if (still > 3) expect(String(checksRow(stack, day)?.note)).toContain(` and ${still - 3} more.`);
  });
});
