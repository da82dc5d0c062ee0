/**
 * The schedule owner's copy of a spreadsheet's state (kept in the owner's user properties for the
 * runs Google starts without the document) shares Google's 500 KB per user store with every other
 * spreadsheet the user schedules (guides/services/quotas). The copy stays small, a run without the
 * document still syncs when the store is nearly full, and a store too full for the run says what to
 * do, in the Sync log and the sidebar, never with Google's raw quota text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { compareWithTruth, scheduleTrigger, sheetTable, syncUntilCaughtUp } from './sync-support';

const GOOGLE_RAW = /exceeded the property storage quota/;
const STORE_BYTES = 500 * 1024;
let stack: Stack;
let id: string;
let uid: string;

const user = () => stack.runtime.properties.user;
const bytesOf = (entries: Array<[string, string]>): number =>
  entries.reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(v), 0);
const copyEntries = (): Array<[string, string]> =>
  Object.entries(user().all()).filter(([k]) => k.startsWith(`d:${id}:`));

/** Other scheduled spreadsheets' copies (this one's, under other ids), as many as fit, then filler up to `leaveFree` bytes. */
function fillUserStore(leaveFree: number): void {
  const mine = copyEntries();
  for (let i = 0; ; i++) {
    const other = `1OTHERSPREADSHEET${i}`.padEnd(id.length, 'x');
    const used = bytesOf(Object.entries(user().all()));
    if (used + bytesOf(mine) > STORE_BYTES - leaveFree) break;
    for (const [k, v] of mine) user().set(k.replace(id, other), v);
  }
  for (let i = 0; ; i++) {
    const key = `other.add-on.setting.${i}`;
    const size = Math.min(8_000, STORE_BYTES - bytesOf(Object.entries(user().all())) - leaveFree - key.length);
    if (size <= 0) break;
    user().set(key, 'x'.repeat(size));
  }
}

beforeAll(async () => {
  stack = await startStack({ orders: 2_000, seed: 1, modelledTimeOnly: true });
  await stack.connect();
  uid = await scheduleTrigger(stack);
  await syncUntilCaughtUp(stack);
  id = stack.runtime.workbook.id;
}, 600_000);

afterAll(async () => {
  await stack?.close();
});

describe("the schedule owner's copy in a user store shared with other scheduled spreadsheets", () => {
  it('the copy of a 2,000-order store is small (no day sums, under 20 KB); with the store nearly full the run without the document syncs, and the next with it', async () => {
    const copy = copyEntries();
    expect(copy.map(([k]) => k).filter((k) => k.includes('ma.orderSums'))).toEqual([]);
    // 16.2 KB: the tie-out state carries a digest per Checks row (2.5 KB at this store's 416 rows, 3.6 KB at most).
    expect(bytesOf(copy)).toBeLessThan(20_000);
    // Filled by other spreadsheets' copies to 4 KB short of Google's 500 KB: the run without the
    // document rebuilds the day sums it lacks, has no room to keep them, gives them up and syncs.
    fillUserStore(4_000);
    const runs = [];
    for (const document of [false, true]) {
      await stack.control('orders', { count: 20 });
      await stack.advanceClocks(3_600_000);
      const r = await stack.runtime.fireTrigger(uid, { document });
      runs.push({ ok: r.ok, value: r.value, error: r.error?.message });
    }
    expect(JSON.stringify(runs)).not.toMatch(GOOGLE_RAW);
    expect(runs.map((r) => [r.ok, (r.value as { outcome?: string } | undefined)?.outcome])).toEqual([
      [true, 'ok'],
      [true, 'ok'],
    ]);
    const c = await compareWithTruth(stack);
    expect({ m: c.mismatches.length, missing: c.missing.length, unexpected: c.unexpected.length }).toEqual({
      m: 0,
      missing: 0,
      unexpected: 0,
    });
  });

  it("a full store: the run without the document ends in words that say what to do, never Google's raw quota text", async () => {
    fillUserStore(0);
    await stack.control('orders', { count: 5 });
    await stack.advanceClocks(3_600_000);
    const r = await stack.runtime.fireTrigger(uid, { document: false });
    const said = JSON.stringify({ value: r.value, error: r.error?.message });
    expect(said).not.toMatch(GOOGLE_RAW);
    expect(said).toMatch(/storage for Merchant Analytics .* is full\. Open this spreadsheet/);
    expect(JSON.stringify(sheetTable(stack, 'Sync log'))).not.toMatch(GOOGLE_RAW);
  });
});
