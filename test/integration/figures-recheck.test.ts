/**
 * Figures no day sum can prove, changed by the store without moving updated_at (the emulator's
 * silent-patch): a line item's cogs, an order's cogs_coverage_pct, its currency and cost status,
 * and two orders whose errors cancel within a day; and a hand edit of line item figures. Each leaves every day ✓, so only an order-by-
 * order comparison finds it: after the reconciliation pass every Orders and Line items cell equals
 * the emulator's truth, the Sync log names the orders rewritten (and only those), and Checks says
 * from when and by which pass those figures are proven.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { startStack, type Stack } from '../../dev/harness/index';
import { tieoutScopeText, type TieoutView } from '../../src/contract/tieout-text';
import { formatTime, setDisplayTimeZone } from '../../src/sidebar/format';
import { checksRow, checksScope, compareWithTruth, sheetTable, syncUntilCaughtUp } from './sync-support';

const RAW_UTC = /\d{4}-\d\d-\d\dT\d\d:\d\d/;

type Json = Record<string, unknown>;
const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
let stack: Stack;
let timeZone = '';

beforeAll(async () => {
  stack = await startStack({ orders: 200, seed: 97, plan: 'plus', days: 150 });
  await stack.connect();
  const store = (await stack.truth('store')) as Json;
  timeZone = String((store.store as Json).timezone);
  await syncUntilCaughtUp(stack);
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

const localDay = (iso: string): string => new Date(iso).toLocaleDateString('en-CA', { timeZone });
const cents = (v: unknown): number => Math.round(Number(v) * 100);
const amount = (c: number): number => c / 100;

async function truthOrders(): Promise<Json[]> {
  return ((await stack.truth('orders')) as { data: Json[] }).data;
}

async function activeOrders(): Promise<Json[]> {
  return (await truthOrders()).filter((o) => !o.canceled_at && (o.line_items as Json[]).length > 0);
}

async function silentPatch(id: string, patch: Json): Promise<void> {
  const before = (await truthOrders()).find((o) => o.id === id)!;
  await stack.control(`orders/${id}/silent-patch`, patch);
  const after = (await truthOrders()).find((o) => o.id === id)!;
  expect(after.updated_at, `${id}: the change marker did not move`).toBe(before.updated_at);
}

/** The reconciliation pass, on demand (Checks → Check for vanished orders), then Checks → Run. */
async function reconcileAndCheck(): Promise<void> {
  let done = false;
  for (let n = 0; n < 10 && !done; n++) {
    const r = await stack.runtime.run('reconcileOrdersNow', []);
    expect(r.ok, r.error?.message).toBe(true);
    done = (r.value as { done: boolean }).done;
  }
  expect(done, 'the reconciliation pass finished').toBe(true);
  const checked = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
  expect(checked.ok, checked.error?.message).toBe(true);
}

/** The orders the latest Sync log row says it rewrote because their figures differed. */
function ordersRewritten(): string[] {
  const [, ...rows] = sheetTable(stack, 'Sync log');
  const said = rows
    .map((r) => r.map(String).join(' '))
    .filter((text) => /Reconciliation complete/.test(text))
    .pop();
  expect(said, 'the Sync log has a completed reconciliation').toBeDefined();
  const listed = /figures differed from the service without a new updated_at rewritten: (.*?)\.(\s|$)/.exec(said!);
  return listed ? [...listed[1].matchAll(/ord_[A-Za-z0-9_]+/g)].map((m) => m[0]).sort() : [];
}

/** The emulator's truth and the sheets agree on every cell; every day still ties out. */
async function expectRepaired(ids: string[], days: string[]): Promise<void> {
  await reconcileAndCheck();
  expect(await compareWithTruth(stack)).toEqual(EXACT);
  expect(ordersRewritten()).toEqual([...ids].sort());
  for (const day of days)
    expect(checksRow(stack, day)?.result, `${day}: ${String(checksRow(stack, day)?.note)}`).toBe('✓');
  const scope = checksScope(stack);
  // The pass's time as the reader's spreadsheet shows it, never UTC text (changed: it was the ISO stamp).
  const zone = (stack.runtime.workbook as { timeZone: string }).timeZone;
  expect(scope).toMatch(
    /every synced cell of Orders and Line items .* compared with the service by the reconciliation pass completed at \d\d:\d\d on \d{4}-\d{2}-\d{2} \(/,
  );
  expect(scope).toContain(`(${zone} time)`);
  expect(scope).not.toMatch(RAW_UTC);
  expect(scope).not.toMatch(/are not proven/);
  expect(scope).toContain(
    `rewritten where it differed (${ids.length} order${ids.length === 1 ? '' : 's'}, named in the Sync log)`,
  );
  // The sidebar's Checks card says the same, from the same record.
  const state = await stack.runtime.run('getSidebarState', [], { authMode: 'FULL' });
  expect(state.ok, state.error?.message).toBe(true);
  const view = (state.value as { tieout: TieoutView }).tieout;
  setDisplayTimeZone(zone);
  const shown = tieoutScopeText(view, formatTime);
  const local = new Date(view.recheckedAt!).toLocaleString('sv-SE', { timeZone: zone }).slice(0, 16);
  expect(shown).toContain(`compared with the service by the reconciliation pass completed at ${local},`);
  expect(shown).not.toMatch(RAW_UTC);
}

describe('the figure re-check: what no day sum proves [spec 2.3, 2.6, 4.4 rule 7]', () => {
  it("a line item's cogs moved to another line of its order (the order's cogs unchanged): the Line items cells are the API's after the pass", async () => {
    const order = (await activeOrders()).find((o) => {
      const lines = o.line_items as Json[];
      return lines.length >= 2 && cents(lines[1].cogs) >= 300;
    })!;
    const [a, b] = order.line_items as Json[];
    await silentPatch(String(order.id), {
      line_items: [
        { id: a.id, cogs: amount(cents(a.cogs) + 300) },
        { id: b.id, cogs: amount(cents(b.cogs) - 300) },
      ],
    });
    const after = (await truthOrders()).find((o) => o.id === order.id)!;
    expect((after.economics as Json).cogs, "the order's cogs did not move").toBe((order.economics as Json).cogs);
    await expectRepaired([String(order.id)], [localDay(String(order.created_at))]);
  });

  it("a hand edit of a line item's price, quantity and refund_amount (no day sum holds them): the pass puts the API's back", async () => {
    const order = (await activeOrders())[40];
    const line = (order.line_items as Json[])[0];
    const [headers, ...rows] = sheetTable(stack, 'Line items');
    const at = rows.findIndex((r) => r[headers.indexOf('id')] === line.id);
    expect(at, String(line.id)).toBeGreaterThanOrEqual(0);
    const sheet = (stack.runtime.workbook as unknown as Workbook).sheetByName('Line items') as SheetModel;
    const edit = (header: string, value: number): void => sheet.write(at + 2, headers.indexOf(header) + 1, { value });
    edit('price', Number(line.price) + 10);
    edit('quantity', Number(line.quantity) + 1);
    edit('refund_amount', Number(line.refund_amount) + 5);
    const checked = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
    expect(checked.ok, checked.error?.message).toBe(true);
    expect(checksRow(stack, localDay(String(order.created_at)))?.result, 'the day sums cannot see it').toBe('✓');
    await expectRepaired([String(order.id)], [localDay(String(order.created_at))]);
  });

  it("an order's cogs_coverage_pct changed (a line of unknown cost now known at 0): the Orders and Line items cells are the API's after the pass", async () => {
    // A line of unknown cost carries cogs 0 (spec 2.3): patched to a known 0, the order's cogs stays.
    const order = (await activeOrders()).find((o) => {
      const e = o.economics as Json;
      return (
        e.cogs_source !== 'unknown' &&
        Number(e.cogs_coverage_pct) < 100 &&
        (o.line_items as Json[]).some((l) => cents(l.cogs) === 0)
      );
    })!;
    expect(order, 'an order with part of its costs unknown').toBeDefined();
    const unknown = (order.line_items as Json[]).find((l) => cents(l.cogs) === 0)!;
    await silentPatch(String(order.id), { line_items: [{ id: unknown.id, cogs: 0 }] });
    const after = (await truthOrders()).find((o) => o.id === order.id)!;
    const [was, now] = [order.economics as Json, after.economics as Json];
    expect(now.cogs_coverage_pct).not.toBe(was.cogs_coverage_pct);
    expect(now.cogs).toBe(was.cogs);
    await expectRepaired([String(order.id)], [localDay(String(order.created_at))]);
  });

  it("an order's currency and another's cost status changed: the Orders rows say what the API says after the pass", async () => {
    const orders = await activeOrders();
    const euro = orders[7];
    const costless = orders.find(
      (o) =>
        localDay(String(o.created_at)) !== localDay(String(euro.created_at)) &&
        (o.economics as Json).cogs_source !== 'unknown',
    )!;
    await silentPatch(String(euro.id), { currency: 'EUR' });
    await silentPatch(String(costless.id), { economics: { cogs_source: 'unknown' } });
    // The EUR order's day is not asked to tie out: the tie-out leaves an order of another currency
    // out of the store's sums and says so on that day (figures-currency).
    await expectRepaired([String(euro.id), String(costless.id)], [localDay(String(costless.created_at))]);
  });

  it("two orders of one day whose payment_fee errors cancel out: both Orders rows are the API's after the pass, the day ✓ throughout", async () => {
    const byDay = new Map<string, Json[]>();
    for (const o of await activeOrders()) {
      const day = localDay(String(o.created_at));
      byDay.set(day, [...(byDay.get(day) ?? []), o]);
    }
    const [day, [up, down]] = [...byDay].find(
      ([, os]) => os.length >= 2 && cents((os[1].economics as Json).payment_fee) >= 250,
    )!;
    await silentPatch(String(up.id), {
      economics: { payment_fee: amount(cents((up.economics as Json).payment_fee) + 250) },
    });
    await silentPatch(String(down.id), {
      economics: { payment_fee: amount(cents((down.economics as Json).payment_fee) - 250) },
    });
    const checked = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
    expect(checked.ok, checked.error?.message).toBe(true);
    expect(checksRow(stack, day)?.result, 'the day sums cannot see it').toBe('✓');
    await expectRepaired([String(up.id), String(down.id)], [day]);
  });
});
