/**
 * Restatements end to end in real Chromium: close last month from the sidebar, then refund one
 * of its orders, correct another's cost and cancel a third in the emulator, and sync. The
 * Restatements sheet leads with the month per P&L line, equal to the API's own summary now minus the
 * summary at close (GET /profitability/summary); lists exactly those three orders with the kind of
 * change and the Δ the emulator's truth moved them by; shows the overhead allocation apart, equal to
 * the orders' allocated_overhead the truth moved; and the Close sheet shows its times as local
 * date-times in the spreadsheet's zone. Screenshots: out/screenshots/restatements.png, close-sheet.png.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '../../dev/harness/index';
import {
  browserReady,
  connectFromSidebar,
  openSidebar,
  SCREENSHOTS,
  type SidebarSession,
  syncFromSidebar,
} from './sidebar-session';

type Json = Record<string, unknown>;
type Economics = Record<string, number>;

const ALLOCATION = ['opex', 'amortised_expenses', 'interest_expense'];

function monthBefore(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

function lastDay(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
}

/** "yyyy-mm-dd hh:mm:ss" of an instant in a time zone, computed independently of the runtime. */
function localDateTime(iso: string, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

const cents = (v: unknown): number => Math.round(Number(v) * 100);

describe.skipIf(!browserReady)('Restatements a controller can sign (Chromium, emulator, local runtime)', () => {
  let stack: Stack;
  let session: SidebarSession;
  let token = '';
  let zone = '';
  let month = '';

  const summary = async (): Promise<Json> => {
    const res = await fetch(
      `${stack.apiUrl}/api/v1/profitability/summary?start_date=${month}-01&end_date=${lastDay(month)}`,
      { headers: { Authorization: `Bearer ${token}` } },
    );
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { totals: Json } }).data.totals;
  };
  const truthOrders = async (): Promise<Map<string, Json>> =>
    new Map(((await stack.control('truth/orders')) as { data: Json[] }).data.map((o) => [String(o.id), o]));
  const textNow = (row: number, column: number): Promise<string | null> =>
    session.page.evaluate(
      ([r, c]) => document.querySelector(`#grid .g-c[data-row="${r}"][data-column="${c}"]`)?.textContent ?? null,
      [row, column],
    );
  const showSheet = async (name: string): Promise<void> => {
    await session.page.click(`#tabs button:has-text("${name}")`);
    await session.page.waitForSelector(`#tabs button[aria-selected="true"]:has-text("${name}")`);
  };
  const table = (name: string): unknown[][] => (stack.runtime.exportJson().sheets[name] ?? []) as unknown[][];

  beforeAll(async () => {
    session = await openSidebar({ orders: 300, seed: 17, plan: 'plus' }, { viewport: { width: 1700, height: 1100 } });
    stack = session.stack;
    const truthStore = (await stack.truth('store')) as Json;
    zone = String((truthStore.store as Json).timezone);
    month = monthBefore(String(truthStore.today).slice(0, 7));
    token = String(((await stack.control('tokens', { scope: 'profitability:read' })) as Json).access_token);
    await connectFromSidebar(session, String((truthStore.store as Json).id));
    await syncFromSidebar(session.sidebar);
    await session.sidebar.waitForSelector('#finance-card:not([hidden])');
  }, 240_000);

  afterAll(async () => {
    await session?.close();
  });

  it('lists the month per line, the three changed orders and the allocation apart; the Close sheet shows local times', async () => {
    const { sidebar, page } = session;
    await sidebar.fill('#close-month', month);
    await sidebar.click('#close-month-button');
    await sidebar.waitForFunction(
      () => /^Closed /.test(document.querySelector('#finance-result')?.textContent ?? ''),
      undefined,
      { timeout: 30_000 },
    );
    const atClose = await summary();
    const watermark = String(
      (JSON.parse(stack.runtime.properties.document.get('ma.sync.orders') ?? '{}') as Json).watermark ?? '',
    );
    expect(watermark).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const before = await truthOrders();

    const inMonth = [...before.values()].filter(
      (o) =>
        !o.canceled_at &&
        cents((o.economics as Economics).refunds) === 0 &&
        cents((o.economics as Economics).net_revenue) > 0 &&
        new Date(String(o.created_at)).toLocaleDateString('en-CA', { timeZone: zone }).startsWith(month),
    );
    expect(inMonth.length).toBeGreaterThanOrEqual(3);
    const [refunded, corrected, cancelled] = [
      inMonth[0]!,
      inMonth[Math.floor(inMonth.length / 2)]!,
      inMonth[inMonth.length - 1]!,
    ].map((o) => String(o.id));
    await stack.control(`orders/${refunded}/change`, { kind: 'refund' });
    await stack.control(`orders/${corrected}/change`, { kind: 'cost_correction' });
    await stack.control(`orders/${cancelled}/change`, { kind: 'cancel' });
    await stack.advanceClocks(60_000);
    await syncFromSidebar(sidebar);
    const after = await truthOrders();
    const now = await summary();

    const [header, ...rows] = table('Restatements');
    const col = (name: string): number => header!.indexOf(name);
    const own = rows.filter((r) => r[col('closed_month')] === month);
    const section = (name: string): unknown[][] => own.filter((r) => r[col('section')] === name);
    // The controller's summary leads the sheet; the detail by day comes last.
    expect(rows[0]![col('section')]).toBe('summary');
    const sections = rows.map((r) => r[col('section')]).filter((s) => s !== '');
    expect(sections.lastIndexOf('summary')).toBeLessThan(sections.indexOf('day'));

    // Summary per P&L line = the API's summary now minus the summary at close, to the cent.
    const lines = section('summary');
    expect(lines.map((r) => r[col('field')]).sort()).toEqual(Object.keys(now).sort());
    for (const line of lines) {
      const field = String(line[col('field')]);
      expect([
        field,
        cents(line[col('closed_value')]),
        cents(line[col('current_value')]),
        cents(line[col('difference')]),
      ]).toEqual([field, cents(atClose[field]), cents(now[field]), cents(now[field]) - cents(atClose[field])]);
    }

    // Exactly the orders the truth moved (the three; any other the emulator's own order life moved
    // meanwhile would be listed too), each with the Δ the truth moved its P&L contribution by.
    const counted = (o: Json | undefined): Economics =>
      !o || o.canceled_at
        ? { net_revenue: 0, cogs: 0, contribution_profit: 0, allocated_overhead: 0 }
        : (o.economics as Economics);
    const placedInMonth = (o: Json): boolean =>
      new Date(String(o.created_at)).toLocaleDateString('en-CA', { timeZone: zone }).startsWith(month);
    const expected = [...after.values()]
      .filter(placedInMonth)
      .map((o) => {
        const d = (f: string): number => cents(counted(o)[f]) - cents(counted(before.get(String(o.id)))[f]);
        return [String(o.id), String(o.order_number), d('net_revenue'), d('cogs'), d('contribution_profit')];
      })
      .filter(([, , ...deltas]) => deltas.some((d) => d !== 0));
    expect(expected.map((e) => e[0])).toEqual(expect.arrayContaining([refunded, corrected, cancelled]));
    const orderRows = section('order');
    const listed = orderRows.map((r) => [
      r[col('order_id')],
      r[col('order_number')],
      cents(r[col('delta_net_revenue')]),
      cents(r[col('delta_cogs')]),
      cents(r[col('delta_profit_before_overhead')]),
    ]);
    expect(listed.sort()).toEqual(expected.sort());
    const kindOf = (id: string): unknown => orderRows.find((r) => r[col('order_id')] === id)?.[col('change')];
    expect([kindOf(refunded), kindOf(corrected), kindOf(cancelled)]).toEqual([
      'refund',
      'cost correction',
      'cancellation',
    ]);

    // The allocation apart: the lines that moved only because overhead is shared out by revenue,
    // in words, their total equal to the orders' allocated_overhead the truth moved.
    const allocation = section('allocation');
    const overheadMoved = expected.reduce(
      (n, [id]) =>
        n +
        cents(counted(after.get(String(id))).allocated_overhead) -
        cents(counted(before.get(String(id))).allocated_overhead),
      0,
    );
    expect(overheadMoved).not.toBe(0);
    const total = allocation.find((r) => r[col('field')] === 'allocated_overhead');
    expect(cents(total?.[col('difference')])).toBe(overheadMoved);
    const moved = ALLOCATION.filter((f) => cents(now[f]) !== cents(atClose[f]));
    expect(allocation.map((r) => r[col('field')])).toEqual([...moved, 'allocated_overhead']);
    for (const row of allocation.slice(0, -1))
      expect(String(row[col('explanation')])).toMatch(
        /^Overhead allocation, not a change of any order's costs: .* by net revenue/,
      );

    // Every time on the Close sheet is a local date-time in the spreadsheet's zone, as Orders shows times.
    await showSheet(`Close ${month}`);
    const sheetZone = stack.runtime.workbook.timeZone;
    const closeTable = table(`Close ${month}`);
    expect(closeTable[4]![0]).toBe('Orders sync watermark');
    await expect.poll(() => textNow(5, 2)).toBe(localDateTime(watermark, sheetZone));
    expect(await textNow(2, 2)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(await textNow(2, 2)).toBe(localDateTime(String(closeTable[1]![1]), sheetZone));
    await page.screenshot({ path: path.join(SCREENSHOTS, 'close-sheet.png') });
    await showSheet('Restatements');
    await expect.poll(() => textNow(2, 9)).toBe('summary');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'restatements.png') });
  }, 400_000);
});
