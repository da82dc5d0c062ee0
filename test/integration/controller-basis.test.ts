/**
 * Controller probe: the merchant starts treating sales tax as a cost (spec 2.3 rule 6; no change
 * marker moves). After the next sync every sheet holds one basis: Orders net_profit, the Daily and
 * Monthly P&L equal the API, the Monthly P&L says the new basis, Checks ties out, and the closed
 * month's Restatements and sidebar line say the basis changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { compareWithTruth, sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
type Row = Array<string | number | boolean>;
let stack: Stack;
let today = '';
let closed = '';

const cents = (value: unknown): number => Math.round(Number(value) * 100);
function lastDay(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
}

async function run(name: string, args: unknown[] = []): Promise<Json> {
  const r = await stack.runtime.run(name, args, { authMode: 'FULL' });
  expect(r.ok, r.error?.message).toBe(true);
  return r.value as Json;
}

beforeAll(async () => {
  stack = await startStack({ orders: 200, seed: 53, plan: 'plus', days: 120 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
  today = String(((await stack.truth('store')) as Json).today);
  const [y, m] = today.split('-').map(Number) as [number, number];
  closed = new Date(Date.UTC(y, m - 3, 1)).toISOString().slice(0, 7);
  expect(await run('closeMonth', [{ month: closed }])).toMatchObject({ status: 'closed' });
}, 240_000);

afterAll(async () => {
  await stack?.close();
});

describe('controller: tax becomes a cost', () => {
  it('before any sync, Check again says ✗ (the sheets hold the old basis)', async () => {
    await stack.control('settings', { tax_treated_as_cost: true });
    await stack.advanceClocks(120_000);
    const v = await run('tieOutNow');
    const [h, ...rows] = sheetTable(stack, 'Checks') as Row[];
    const month = rows.find((r) => r[h.indexOf('period')] === closed);
    expect(
      month?.[h.indexOf('result')],
      `Checks ${closed} after the basis changed, before a sync: ${String(month?.[h.indexOf('note')])}; ${String(v.message)}`,
    ).toBe('✗');
  });

  it('after the sync every sheet holds the new basis and equals the API', async () => {
    await syncUntilCaughtUp(stack);
    const cmp = await compareWithTruth(stack);
    expect(cmp.mismatches.slice(0, 5)).toEqual([]);
    const [mh, ...months] = sheetTable(stack, 'Monthly P&L') as Row[];
    const row = months.find((r) => r[mh.indexOf('month')] === closed)!;
    expect(String(row[mh.indexOf('basis')])).toContain('tax_treated_as_cost=true');
    const days = (
      (await stack.control(`truth/daily?start_date=${closed}-01&end_date=${lastDay(closed)}`)) as { data: Json[] }
    ).data;
    expect(cents(row[mh.indexOf('net_profit')])).toBe(days.reduce((n, d) => n + cents(d.net_profit), 0));
    const [ch, ...checks] = sheetTable(stack, 'Checks') as Row[];
    const failing = checks
      .filter((r) => r[ch.indexOf('result')] === '✗')
      .map((r) => `${String(r[0])}: ${String(r[ch.indexOf('note')])}`);
    expect(failing.slice(0, 5)).toEqual([]);
    const [rh, ...rest] = sheetTable(stack, 'Restatements') as Row[];
    const summary = rest.find(
      (r) =>
        r[rh.indexOf('section')] === 'summary' &&
        r[rh.indexOf('field')] === 'net_profit' &&
        r[rh.indexOf('closed_month')] === closed,
    );
    expect(summary, 'Restatements summary net_profit row').toBeDefined();
    expect(cents(summary![rh.indexOf('current_value')])).toBe(days.reduce((n, d) => n + cents(d.net_profit), 0));
    const lines = (await run('getSidebarState')).closedMonths as Array<{ month: string; text: string }>;
    const text = lines.find((l) => l.month === closed)?.text ?? '';
    expect(text, 'the sidebar line names the basis change').toMatch(/basis/i);
  });
});
