/**
 * Controller probes: a user's edit of a figure the add-on syncs or builds must never leave Checks ✓
 * while the figure differs from the API. Each test edits one kind of cell, runs tieOutNow and
 * expects the period ✗ (the correct figure is the API's), then puts the cell back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { startStack, type Stack } from '../../dev/harness/index';
import { checksRow, checksScope, sheetTable, storeDay, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
let stack: Stack;
let timeZone = '';
let today = '';

beforeAll(async () => {
  stack = await startStack({ orders: 160, seed: 83, plan: 'plus', days: 120 });
  await stack.connect();
  ({ timeZone, today } = await storeDay(stack));
  await syncUntilCaughtUp(stack);
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

const localDay = (iso: string): string => new Date(iso).toLocaleDateString('en-CA', { timeZone });
const sheet = (name: string): SheetModel =>
  (stack.runtime.workbook as unknown as Workbook).sheetByName(name) as SheetModel;

function checksResult(period: string): { result: unknown; note: unknown } {
  const row = checksRow(stack, period);
  expect(row, `Checks has a row for ${period}`).toBeDefined();
  return row!;
}

async function tieOutNow(): Promise<void> {
  const r = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
  expect(r.ok, r.error?.message).toBe(true);
}

/** Edits cells (row/column 1-based in the sheet), runs tieOutNow, returns a restore function. */
function edit(name: string, cells: Array<{ row: number; column: number; value: number | string }>): () => void {
  const table = sheetTable(stack, name);
  const originals = cells.map((c) => ({ ...c, value: table[c.row - 1][c.column - 1] }));
  for (const c of cells) sheet(name).write(c.row, c.column, { value: c.value });
  return () => {
    for (const c of originals) sheet(name).write(c.row, c.column, { value: c.value as number | string });
  };
}

/** A past month whose every day is in the Daily P&L, with orders. */
function closedMonth(): string {
  const [y, m] = today.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 2, 1)).toISOString().slice(0, 7);
}

/** A past day with at least two active orders of the store's currency. */
async function busyDay(): Promise<{ day: string; orders: Json[] }> {
  const orders = ((await stack.truth('orders')) as { data: Json[] }).data.filter((o) => !o.canceled_at);
  const byDay = new Map<string, Json[]>();
  for (const o of orders) {
    const d = localDay(String(o.created_at));
    if (d >= today) continue;
    byDay.set(d, [...(byDay.get(d) ?? []), o]);
  }
  const [day, list] = [...byDay].find(([, l]) => l.length >= 2)!;
  return { day, orders: list };
}

describe('controller: user edits of synced and built figures', () => {
  it('a clean sync ties out', async () => {
    await tieOutNow();
    expect(checksResult(closedMonth()).result).toBe('✓');
  });

  for (const column of ['net_margin_pct', 'contribution_margin_pct'] as const) {
    it(`Monthly P&L ${column} edited (35 typed over the month's margin) is ✗ for its month`, async () => {
      const month = closedMonth();
      const [headers, ...rows] = sheetTable(stack, 'Monthly P&L');
      const at = rows.findIndex((r) => r[headers.indexOf('month')] === month);
      expect(at).toBeGreaterThanOrEqual(0);
      const restore = edit('Monthly P&L', [{ row: at + 2, column: headers.indexOf(column) + 1, value: 35 }]);
      try {
        await tieOutNow();
        const c = checksResult(month);
        expect(
          c.result,
          `Monthly P&L ${month} ${column} reads 35 (the API's figures give ${String(rows[at][headers.indexOf(column)])}); Checks says ${String(c.result)} ${String(c.note)}`,
        ).toBe('✗');
      } finally {
        restore();
      }
    });
  }

  // Day sums cannot see two edits that cancel out within a day (no API figure is per order): the Checks
  // scope line must say plainly that Orders figures are proven as day sums, not order by order.
  it('two Orders cogs edits of +5.00 and −5.00 on one day (each order wrong by $5): the Checks scope line says Orders are proven as day sums, not order by order', async () => {
    const { day, orders } = await busyDay();
    const [headers, ...rows] = sheetTable(stack, 'Orders');
    const a = rows.findIndex((r) => r[headers.indexOf('id')] === orders[0].id);
    const b = rows.findIndex((r) => r[headers.indexOf('id')] === orders[1].id);
    const col = headers.indexOf('cogs');
    const va = rows[a][col] as number;
    const vb = rows[b][col] as number;
    expect(vb).toBeGreaterThanOrEqual(5);
    const restore = edit('Orders', [
      { row: a + 2, column: col + 1, value: Math.round(va * 100 + 500) / 100 },
      { row: b + 2, column: col + 1, value: Math.round(vb * 100 - 500) / 100 },
    ]);
    try {
      await tieOutNow();
      expect(
        checksScope(stack),
        `${day}: Orders cogs of ${String(orders[0].id)} reads ${va + 5} (API ${va}), of ${String(orders[1].id)} ${vb - 5} (API ${vb}); Checks says ${String(checksResult(day).result)}`,
      ).toMatch(/proven as day sums per figure, not order by order/);
    } finally {
      restore();
    }
  });

  for (const column of ['shipping_revenue', 'net_margin_pct', 'contribution_margin_pct', 'discount'] as const) {
    it(`Orders ${column} edited on one order is ✗ for its day`, async () => {
      const { day, orders } = await busyDay();
      const [headers, ...rows] = sheetTable(stack, 'Orders');
      const at = rows.findIndex((r) => r[headers.indexOf('id')] === orders[0].id);
      const col = headers.indexOf(column);
      expect(col, `Orders has ${column}`).toBeGreaterThanOrEqual(0);
      const original = rows[at][col] as number;
      const restore = edit('Orders', [
        { row: at + 2, column: col + 1, value: Math.round(Number(original) * 100 + 1234) / 100 },
      ]);
      try {
        await tieOutNow();
        const c = checksResult(day);
        expect(
          c.result,
          `${day}: Orders ${column} of ${String(orders[0].id)} reads ${Number(original) + 12.34} (API ${original}); Checks says ${String(c.result)}`,
        ).toBe('✗');
      } finally {
        restore();
      }
    });
  }

  // No API total confirms a line item's cogs or an order's cogs_coverage_pct: an edit stays unseen,
  // so Checks must say plainly that they are not proven.
  for (const [sheet, column] of [
    ['Line items', 'cogs'],
    ['Orders', 'cogs_coverage_pct'],
  ] as const) {
    it(`${sheet} ${column} edited: ✗ for its day, or the Checks scope line says it is not proven`, async () => {
      const { day, orders } = await busyDay();
      const [headers, ...rows] = sheetTable(stack, sheet);
      const at = rows.findIndex((r) => r[headers.indexOf(sheet === 'Orders' ? 'id' : 'order_id')] === orders[0].id);
      const col = headers.indexOf(column);
      const original = rows[at][col] as number;
      const restore = edit(sheet, [
        { row: at + 2, column: col + 1, value: Math.round(Number(original) * 100 + 1234) / 100 },
      ]);
      try {
        await tieOutNow();
        const c = checksResult(day);
        const scope = checksScope(stack);
        const said = new RegExp(
          `${sheet === 'Orders' ? "an order's cogs_coverage_pct" : 'Line items'}.*not proven`,
        ).test(scope);
        expect(
          c.result === '✗' || said,
          `${day}: ${sheet} ${column} of ${String(rows[at][0])} reads ${Number(original) + 12.34} (API ${original}); Checks says ${String(c.result)}; scope: ${scope}`,
        ).toBe(true);
      } finally {
        restore();
      }
    });
  }
});
