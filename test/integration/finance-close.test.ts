/**
 * Month-end close: closeMonth saves a protected `Close YYYY-MM` snapshot; after a cost
 * correction in a closed month and the next sync, the Restatements sheet lists exactly the days
 * and fields the emulator's own daily truth says changed (old, new, difference to the cent), for
 * that month and nowhere else, and the sidebar says by how much net profit moved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import { sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
let stack: Stack;
let today = '';
let closed = '';
let older = '';
let currency = '';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

function monthBefore(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

function lastDay(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
}

async function truthDays(month: string): Promise<Json[]> {
  return ((await stack.control(`truth/daily?start_date=${month}-01&end_date=${lastDay(month)}`)) as { data: Json[] })
    .data;
}

/** Restatements rows of a section (the sheet leads with the summary; the day detail follows). */
function restatementRows(section: string): unknown[][] {
  const [header, ...rows] = sheetTable(stack, 'Restatements');
  return rows.filter((r) => r[header.indexOf('section')] === section);
}

/** Nothing moved: every summary line's difference is 0 and no order, allocation or day row is listed. */
function nothingRestated(): void {
  for (const row of restatementRows('summary')) expect(row[5]).toBe(0);
  for (const section of ['order', 'allocation', 'day']) expect(restatementRows(section)).toEqual([]);
}

async function run(name: string, args: unknown[] = []): Promise<Json> {
  const r = await stack.runtime.run(name, args, { authMode: 'FULL' });
  expect(r.ok, r.error?.message).toBe(true);
  return r.value as Json;
}

beforeAll(async () => {
  stack = await startStack({ orders: 900, seed: 29 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
  const store = (await stack.truth('store')) as Json;
  today = String(store.today);
  currency = String((store.store as Json).currency);
  closed = monthBefore(today.slice(0, 7));
  older = monthBefore(closed);
});

afterAll(async () => {
  await stack?.close();
});

describe('closeMonth', () => {
  it('refuses the month in progress and a malformed month, changing nothing', async () => {
    expect(await run('closeMonth', [{ month: today.slice(0, 7) }])).toMatchObject({
      status: 'refused',
      message: expect.stringMatching(/not over yet/),
    });
    expect(await run('closeMonth', [{ month: '2026-13' }])).toMatchObject({
      status: 'refused',
      message: expect.stringMatching(/YYYY-MM/),
    });
    expect(Object.keys(stack.runtime.exportJson().sheets).filter((n) => n.startsWith('Close '))).toEqual([]);
  });

  it('saves a protected snapshot of the month: summary, days, basis, time of closing and watermark', async () => {
    for (const month of [closed, older]) {
      const result = await run('closeMonth', [{ month }]);
      expect(result).toMatchObject({ status: 'closed', sheetName: `Close ${month}` });
    }
    const sheet = sheetTable(stack, `Close ${closed}`);
    expect(sheet[0].slice(0, 2)).toEqual(['Closed month', closed]);
    expect(sheet[2][0]).toBe('Basis');
    expect(String(sheet[2][1])).toMatch(/^tax_treated_as_cost=(true|false); refund_recognition=/);
    expect(sheet[4][0]).toBe('Orders sync watermark');
    expect(String(sheet[4][1])).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const header = sheet[7];
    const days = sheet.slice(9).filter((r) => String(r[0]).startsWith(closed));
    const truth = await truthDays(closed);
    expect(days.map((r) => r[0])).toEqual(truth.map((d) => d.date));
    for (const d of truth) {
      const row = days.find((r) => r[0] === d.date)!;
      expect(Math.round(Number(row[header.indexOf('net_profit')]) * 100)).toBe(Math.round(Number(d.net_profit) * 100));
    }
    const model = stack.runtime.workbook.sheetByName(`Close ${closed}`) as SheetModel;
    expect(model.protection).toMatchObject({ domainEdit: false, editors: [] });
    expect(model.protection?.description).toMatch(/snapshot/);
  });

  it('asks before replacing a closed month', async () => {
    expect(await run('closeMonth', [{ month: closed }])).toMatchObject({
      status: 'confirm',
      message: expect.stringMatching(/closed already/),
    });
  });
});

describe('a cost correction in a closed month', () => {
  it('shows in Restatements after the next sync with the right difference, and nowhere else', async () => {
    await syncUntilCaughtUp(stack);
    nothingRestated();
    const closeBefore = JSON.stringify(sheetTable(stack, `Close ${closed}`));

    const before = await truthDays(closed);
    const orders = ((await stack.truth('orders')) as { data: Json[] }).data;
    const tz = String((((await stack.truth('store')) as Json).store as Json).timezone);
    const inMonth = orders.filter(
      (o) =>
        !o.canceled_at &&
        new Date(String(o.created_at)).toLocaleDateString('en-CA', { timeZone: tz }).startsWith(closed),
    );
    expect(inMonth.length).toBeGreaterThan(0);
    await stack.control(`orders/${String(inMonth[Math.floor(inMonth.length / 2)].id)}/change`, {
      kind: 'cost_correction',
    });
    const after = await truthDays(closed);
    const expected: Array<[string, string, number, number, number]> = [];
    for (const b of before) {
      const a = after.find((d) => d.date === b.date)!;
      for (const field of Object.keys(b)) {
        if (field === 'date') continue;
        const oldCents = Math.round(Number(b[field]) * 100);
        const newCents = Math.round(Number(a[field]) * 100);
        if (oldCents !== newCents) expected.push([String(b.date), field, oldCents, newCents, newCents - oldCents]);
      }
    }
    expect(expected.length).toBeGreaterThan(0);

    await stack.advanceClocks(60_000);
    await syncUntilCaughtUp(stack);
    const header = sheetTable(stack, 'Restatements')[0];
    const rows = restatementRows('day');
    const listed = rows.map((r) => {
      const at = (name: string): unknown => r[header.indexOf(name)];
      return [
        String(at('date')),
        String(at('field')),
        Math.round(Number(at('closed_value')) * 100),
        Math.round(Number(at('current_value')) * 100),
        Math.round(Number(at('difference')) * 100),
      ];
    });
    expect(rows.every((r) => r[0] === closed)).toBe(true);
    expect(listed.sort()).toEqual(expected.sort());
    // The snapshot itself never moves.
    expect(JSON.stringify(sheetTable(stack, `Close ${closed}`))).toBe(closeBefore);

    const netCents = expected.filter((e) => e[1] === 'net_profit').reduce((n, e) => n + e[4], 0);
    expect(netCents).not.toBe(0);
    const state = await run('getSidebarState');
    const lines = state.closedMonths as Array<{ month: string; text: string }>;
    const amount = (Math.abs(netCents) / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    const symbol = currency === 'USD' ? '$' : '';
    const name = `${MONTHS[Number(closed.slice(5)) - 1]} ${closed.slice(0, 4)}`;
    expect(lines.find((l) => l.month === closed)?.text).toBe(
      `${name} changed by ${netCents < 0 ? '−' : '+'}${symbol}${amount}${symbol ? '' : ` ${currency}`} net profit since you closed it`,
    );
    expect(lines.find((l) => l.month === older)?.text).toBe(
      `${MONTHS[Number(older.slice(5)) - 1]} ${older.slice(0, 4)}: no change since you closed it`,
    );
  });

  it('re-closing with replace takes the current figures and clears the month from Restatements at the next sync', async () => {
    expect(await run('closeMonth', [{ month: closed, replace: true }])).toMatchObject({ status: 'closed' });
    await stack.advanceClocks(60_000);
    await syncUntilCaughtUp(stack);
    nothingRestated();
    expect(Object.keys(stack.runtime.exportJson().sheets).filter((n) => n === `Close ${closed}`)).toHaveLength(1);
  });
});
