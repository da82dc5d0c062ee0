/**
 * The hourly run ties out from the Orders day sums the sync keeps as it writes, not from
 * a read of the whole Orders sheet. Those sums must be the service's own figures (the emulator's
 * truth), the Checks sheet must say which way its Orders side was taken, and Checks → Run must
 * still read the sheet whole and catch a hand edit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { checksScope, sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
type Row = unknown[];

let stack: Stack;
let timeZone: string;

beforeAll(async () => {
  stack = await startStack({ orders: 400, seed: 71 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
  timeZone = String(((await stack.truth('store')) as { store: Json }).store.timezone);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

/** Checks day rows: period → the named columns. */
function checksDays(columns: string[]): Map<string, Record<string, unknown>> {
  const [headers, ...rows] = sheetTable(stack, 'Checks') as Row[];
  const out = new Map<string, Record<string, unknown>>();
  for (const r of rows)
    if (r[headers.indexOf('kind')] === 'day')
      out.set(String(r[headers.indexOf('period')]), Object.fromEntries(columns.map((c) => [c, r[headers.indexOf(c)]])));
  return out;
}

describe('the hourly tie-out from kept day sums', () => {
  it('after cost corrections, every changed day ties out with the Orders side equal to the service truth, and the scope line says the sums were kept', async () => {
    const orders = ((await stack.truth('orders')) as { data: Json[] }).data.filter((o) => !o.canceled_at);
    const changed = [orders[5], orders[50], orders[150], orders[250]];
    for (const order of changed) await stack.control(`orders/${String(order.id)}/change`, { kind: 'cost_correction' });
    await stack.advanceClocks(2 * 60_000);
    await syncUntilCaughtUp(stack);

    expect(checksScope(stack)).toContain('the day sums the sync kept as it wrote');
    const days = [
      ...new Set(changed.map((o) => new Date(String(o.created_at)).toLocaleDateString('en-CA', { timeZone }))),
    ];
    const checks = checksDays(['result', 'cogs_orders', 'net_revenue_orders']);
    for (const day of days) {
      const truth = ((await stack.control(`truth/daily?start_date=${day}&end_date=${day}`)) as { data: Json[] })
        .data[0];
      const row = checks.get(day);
      expect(row?.result, `${day}: Checks says ${JSON.stringify(row)}`).toBe('✓');
      expect(Math.round(Number(row?.cogs_orders) * 100), `${day} cogs summed from Orders`).toBe(
        Math.round(Number(truth.cogs) * 100),
      );
      expect(Math.round(Number(row?.net_revenue_orders) * 100), `${day} net_revenue summed from Orders`).toBe(
        Math.round(Number(truth.net_revenue) * 100),
      );
    }
  });

  it('Checks → Run reads the Orders sheet whole: a hand edit is ✗ on its day, and the scope line says the sheet was read in full', async () => {
    const [headers, ...rows] = sheetTable(stack, 'Orders') as Row[];
    const at = rows.findIndex((r) => r[headers.indexOf('status')] === 'active');
    const column = headers.indexOf('cogs') + 1;
    const sheet = (
      stack.runtime.workbook as unknown as {
        sheetByName(n: string): { write(r: number, c: number, v: { value: unknown }): void };
      }
    ).sheetByName('Orders');
    const original = Number(rows[at][column - 1]);
    sheet.write(at + 2, column, { value: original + 3 });
    try {
      const r = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
      expect(r.ok, r.error?.message).toBe(true);
      expect(checksScope(stack)).toContain('Orders sheet read in full for this check');
      const day = [...checksDays(['result'])].filter(([, v]) => v.result !== '✓').map(([d]) => d);
      expect(day, 'days ✗ after the edit').toHaveLength(1);
    } finally {
      sheet.write(at + 2, column, { value: original });
    }
  });
});
