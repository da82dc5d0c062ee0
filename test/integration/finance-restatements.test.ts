/**
 * The orders behind a restatement with the Essentials columns (the Orders sheet's
 * own layout, read row by row): after the close, a refund and a late fulfilment charge in the
 * closed month are listed with the kind of change and the Δ the emulator's truth moved them by; an
 * order whose attribution only changed moved nothing in the P&L and is not listed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
let stack: Stack;
let month = '';
let zone = '';

function monthBefore(m: string): string {
  const [y, n] = m.split('-').map(Number) as [number, number];
  return n === 1 ? `${y - 1}-12` : `${y}-${String(n - 1).padStart(2, '0')}`;
}

async function run(name: string, args: unknown[] = []): Promise<Json> {
  const r = await stack.runtime.run(name, args, { authMode: 'FULL' });
  expect(r.ok, r.error?.message).toBe(true);
  return r.value as Json;
}

async function truthOrders(): Promise<Map<string, Json>> {
  return new Map(((await stack.truth('orders')) as { data: Json[] }).data.map((o) => [String(o.id), o]));
}

const cents = (v: unknown): number => Math.round(Number(v) * 100);

beforeAll(async () => {
  stack = await startStack({ orders: 600, seed: 41 });
  await stack.connect();
  await run('setColumns', [{ Orders: { preset: 'essentials' }, 'Line items': { preset: 'essentials' } }]);
  await syncUntilCaughtUp(stack);
  const store = (await stack.truth('store')) as Json;
  zone = String((store.store as Json).timezone);
  month = monthBefore(String(store.today).slice(0, 7));
});

afterAll(async () => {
  await stack?.close();
});

describe('orders changed since the close (Essentials columns)', () => {
  it("lists a refund and a late fulfilment charge with the truth's Δ, and not an attribution change", async () => {
    expect(await run('closeMonth', [{ month }])).toMatchObject({ status: 'closed' });
    const before = await truthOrders();
    const inMonth = [...before.values()].filter(
      (o) =>
        !o.canceled_at &&
        cents((o.economics as Json).refunds) === 0 &&
        cents((o.economics as Json).net_revenue) > 0 &&
        new Date(String(o.created_at)).toLocaleDateString('en-CA', { timeZone: zone }).startsWith(month),
    );
    expect(inMonth.length).toBeGreaterThanOrEqual(3);
    const [refunded, charged, attributed] = [inMonth[0]!, inMonth[1]!, inMonth[2]!].map((o) => String(o.id));
    await stack.control(`orders/${refunded}/change`, { kind: 'refund' });
    await stack.control(`orders/${charged}/change`, { kind: 'late_fulfillment' });
    await stack.control(`orders/${attributed}/change`, { kind: 'attribution' });
    await stack.advanceClocks(60_000);
    await syncUntilCaughtUp(stack);
    const after = await truthOrders();

    const [header, ...rows] = sheetTable(stack, 'Restatements');
    const at = (r: unknown[], name: string): unknown => r[header!.indexOf(name)];
    const orderRows = rows.filter((r) => at(r, 'section') === 'order' && at(r, 'closed_month') === month);
    const listed = orderRows.map((r) => [
      at(r, 'order_id'),
      cents(at(r, 'delta_net_revenue')),
      cents(at(r, 'delta_cogs')),
      cents(at(r, 'delta_profit_before_overhead')),
    ]);
    // Every order of the month the truth moved (the two; any other the emulator's own order life
    // moved meanwhile too), with the Δ of its P&L contribution; not the attribution change.
    const counted = (o: Json | undefined): Json => (!o || o.canceled_at ? {} : (o.economics as Json));
    const expected = [...after.values()]
      .filter((o) => new Date(String(o.created_at)).toLocaleDateString('en-CA', { timeZone: zone }).startsWith(month))
      .map((o) => {
        const d = (f: string): number => cents(counted(o)[f] ?? 0) - cents(counted(before.get(String(o.id)))[f] ?? 0);
        return [String(o.id), d('net_revenue'), d('cogs'), d('contribution_profit')];
      })
      .filter(([, ...deltas]) => deltas.some((d) => d !== 0));
    expect(expected.map((e) => e[0])).toEqual(expect.arrayContaining([refunded, charged]));
    expect(listed.sort()).toEqual(expected.sort());
    const kindOf = (id: string): unknown => at(orderRows.find((r) => at(r, 'order_id') === id) ?? [], 'change');
    expect([kindOf(refunded), kindOf(charged), kindOf(attributed)]).toEqual(['refund', 'other change', undefined]);
    // The updated_at of the attribution change did move: it was compared, and found to change no figure.
    expect(after.get(attributed)!.updated_at).not.toBe(before.get(attributed)!.updated_at);
  });

  it('a sheet written before, with delta_profit: renamed in place to say it is before overhead, and the sync goes on', async () => {
    const sheet = stack.runtime.workbook.sheetByName('Restatements')!;
    const deltas = (): Map<unknown, unknown> => {
      const [header, ...rows] = sheetTable(stack, 'Restatements');
      const id = header!.indexOf('order_id');
      const delta = header!.indexOf('delta_profit_before_overhead');
      return new Map(rows.filter((r) => r[id] !== '').map((r) => [r[id], r[delta]]));
    };
    const at = (sheetTable(stack, 'Restatements')[0] as unknown[]).indexOf('delta_profit_before_overhead') + 1;
    expect(at).toBeGreaterThan(0);
    const listed = deltas();
    expect(listed.size).toBeGreaterThanOrEqual(2);
    // As an earlier version wrote it: header and note.
    sheet.write(1, at, { value: 'delta_profit' });
    sheet.setNote(
      1,
      at,
      "Change of the order's contribution profit (before allocated overhead: see the allocation rows).",
    );
    await stack.advanceClocks(60_000);
    await syncUntilCaughtUp(stack);
    const log = sheetTable(stack, 'Sync log');
    expect(log[log.length - 1]![log[0]!.indexOf('outcome')]).toBe('ok');
    expect(sheetTable(stack, 'Restatements')[0]![at - 1]).toBe('delta_profit_before_overhead');
    expect(sheet.note(1, at)).toMatch(/before allocated overhead: not its net profit/);
    expect(deltas()).toEqual(listed);
  });
});
