import { describe, expect, it } from 'vitest';
import type { Order } from '../../src/server/api/types';
import { instantToSerial } from '../../src/server/platform/calendar';
import { KeyIndex } from '../../src/server/sheets/key-index';
import { mergeRowWrites } from '../../src/server/sheets/row-writes';
import { LINE_ITEMS, ORDERS } from '../../src/server/sheets/schema';
import { planGoneMarks } from '../../src/server/sync/gone-marks';
import { MemberIndex } from '../../src/server/sync/members';
import { planOrderPage } from '../../src/server/sync/order-page';
import { updatedAfterFor } from '../../src/server/sync/job-context';

const TZ = 'UTC';
const col = (h: string) => ORDERS.columns.findIndex((c) => c.header === h);

function order(id: string, updatedAt: string, lines: string[], extra: Partial<Order> = {}): Order {
  return {
    id,
    created_at: '2024-05-01T10:00:00Z',
    updated_at: updatedAt,
    canceled_at: null,
    line_items: lines.map((li) => ({ id: li, total: 0, price: 5, quantity: 1 })),
    ...extra,
  } as unknown as Order;
}

function emptyIndexes() {
  const orders = new KeyIndex([], TZ);
  const lines = new KeyIndex([], TZ);
  return { orders, lines, members: new MemberIndex(lines) };
}

const ctx = {
  spreadsheetTimeZone: TZ,
  storeTimeZone: 'America/New_York',
  syncedAt: Date.parse('2024-06-01T00:00:00Z'),
};

describe('upsert by id: new rows appended, known rows updated in place', () => {
  it('appends after the last keyed row and updates an existing id at its row', () => {
    const orders = new KeyIndex([['ord_a'], [''], ['ord_b']], TZ);
    const lines = new KeyIndex([], TZ);
    const plan = planOrderPage(
      [order('ord_b', '2024-05-02T00:00:00Z', []), order('ord_c', '2024-05-03T00:00:00Z', [])],
      orders,
      lines,
      new MemberIndex(lines),
      ctx,
    );
    expect(plan.orders.map((w) => w.row)).toEqual([4, 5]);
    expect(plan.counts).toMatchObject({ inserted: 1, updated: 1 });
    expect(plan.maxUpdatedAt).toBe('2024-05-03T00:00:00Z');
  });
  it('an id repeated in one page (at-least-once feed) is written once, last occurrence wins', () => {
    const { orders, lines, members } = emptyIndexes();
    const first = order('ord_a', '2024-05-02T00:00:00Z', [], { financial_status: 'paid' });
    const again = order('ord_a', '2024-05-02T00:00:00Z', [], { financial_status: 'refunded' });
    const plan = planOrderPage([first, again], orders, lines, members, ctx);
    expect(plan.orders).toHaveLength(1);
    expect(plan.orders[0].cells[col('financial_status')]).toBe('refunded');
  });
  it('a cancellation is marked and counted once', () => {
    const { orders, lines, members } = emptyIndexes();
    planOrderPage([order('ord_a', '2024-05-02T00:00:00Z', [])], orders, lines, members, ctx);
    const cancelled = order('ord_a', '2024-05-03T00:00:00Z', [], { canceled_at: '2024-05-03T00:00:00Z' });
    const plan = planOrderPage([cancelled], orders, lines, members, ctx);
    expect(plan.orders[0].cells[col('status')]).toBe('cancelled');
    expect(plan.counts.cancelled).toBe(1);
    expect(planOrderPage([cancelled], orders, lines, members, ctx).counts.cancelled).toBe(0);
  });
  it("placed_date is the store's calendar day", () => {
    const { orders, lines, members } = emptyIndexes();
    const plan = planOrderPage(
      [order('ord_a', '2024-05-02T00:00:00Z', [], { created_at: '2024-05-01T02:00:00Z' })],
      orders,
      lines,
      members,
      ctx,
    );
    // 02:00Z on May 1 is still April 30 in New York; 2024-04-30 is serial 45412.
    expect(plan.orders[0].cells[col('placed_date')]).toBe(45412);
  });
});

describe('line items are replaced per order', () => {
  it('a line item the order no longer lists is marked removed at its row; others are upserted', () => {
    const { orders, lines, members } = emptyIndexes();
    planOrderPage([order('ord_a', '2024-05-02T00:00:00Z', ['li_1', 'li_2'])], orders, lines, members, ctx);
    const plan = planOrderPage([order('ord_a', '2024-05-03T00:00:00Z', ['li_2', 'li_3'])], orders, lines, members, ctx);
    const removed = plan.lineItems.filter((w) => w.column === 3);
    expect(removed).toEqual([{ row: 2, column: 3, cells: ['removed', instantToSerial(ctx.syncedAt, TZ)] }]);
    expect(plan.lineItems.filter((w) => w.column === 1).map((w) => w.row)).toEqual([3, 4]);
  });
  it('membership is rebuilt from the sheet in a later run', () => {
    const lines = new KeyIndex(
      [
        ['li_1', 'ord_a', 'active'],
        ['li_2', 'ord_a', 'active'],
      ],
      TZ,
    );
    const orders = new KeyIndex([['ord_a']], TZ);
    const plan = planOrderPage(
      [order('ord_a', '2024-05-03T00:00:00Z', ['li_1'])],
      orders,
      lines,
      new MemberIndex(lines),
      ctx,
    );
    expect(plan.lineItems.filter((w) => w.column === 3).map((w) => w.row)).toEqual([3]);
  });
});

describe('writes are batched into contiguous ranges', () => {
  it('consecutive rows merge; scattered rows stay separate ranges', () => {
    const cells = ['x', 'y'];
    const ranges = mergeRowWrites('Orders', [
      { row: 10, column: 1, cells },
      { row: 2, column: 1, cells },
      { row: 11, column: 1, cells },
      { row: 12, column: 1, cells },
    ]);
    expect(ranges.map((r) => r.range)).toEqual(["'Orders'!A2:B2", "'Orders'!A10:B12"]);
    expect(ranges[1].values).toHaveLength(3);
  });
});

describe('resume from watermark − 5 minutes (spec 4.4 rule 6)', () => {
  it('first run starts at the epoch, later runs overlap by five minutes', () => {
    expect(updatedAfterFor(null)).toBe('1970-01-01T00:00:00Z');
    expect(updatedAfterFor('2024-05-03T00:04:00Z')).toBe('2024-05-02T23:59:00.000Z');
  });
});

describe('reconciliation marks unseen orders gone, within the plan window only', () => {
  it('rows not written since the pass started become gone; seen, already gone and pre-window rows stay', () => {
    const passStart = Date.parse('2024-06-01T00:00:00Z');
    const before = instantToSerial(passStart - 60_000, TZ);
    const after = instantToSerial(passStart + 60_000, TZ);
    const index = new KeyIndex(
      [
        ['ord_seen', 'active', 45400, '', after],
        ['ord_vanished', 'cancelled', 45400, '', before],
        ['ord_old', 'active', 45000, '', before],
        ['ord_gone', 'gone', 45400, 45401, before],
      ],
      TZ,
    );
    const now = passStart + 3_600_000;
    const { writes, gone } = planGoneMarks(index, {
      passStartedAt: passStart,
      historyAvailableFrom: '2024-01-01',
      now,
      spreadsheetTimeZone: TZ,
    });
    expect(gone).toBe(1);
    expect(writes).toEqual([{ row: 3, column: 2, cells: ['gone', 45400, instantToSerial(now, TZ)] }]);
  });
});

describe('the key index', () => {
  it('reads Daily P&L date keys from serials or Dates', () => {
    const index = new KeyIndex([[45306], [new Date(Date.UTC(2024, 0, 16))]], 'UTC', true);
    expect(index.get('2024-01-15')?.row).toBe(2);
    expect(index.get('2024-01-16')?.row).toBe(3);
    expect(index.nextRow).toBe(4);
  });
  it('Orders index columns match the schema order used by the gone planner', () => {
    expect(ORDERS.columns.slice(0, ORDERS.indexColumns).map((c) => c.header)).toEqual([
      'id',
      'status',
      'placed_date',
      'gone_at',
      'synced_at',
    ]);
    expect(LINE_ITEMS.columns.slice(0, LINE_ITEMS.indexColumns).map((c) => c.header)).toEqual([
      'id',
      'order_id',
      'sync_status',
    ]);
  });
});

describe('"updated" counts only orders whose values changed (spec 3.1: updated_at is the change marker)', () => {
  it('an order re-read in the 5-minute overlap with the same updated_at is not written, nor its line items', () => {
    const { orders, lines, members } = emptyIndexes();
    planOrderPage([order('ord_a', '2024-05-02T00:00:00Z', ['li_1'])], orders, lines, members, ctx);
    const again = planOrderPage([order('ord_a', '2024-05-02T00:00:00Z', ['li_1'])], orders, lines, members, ctx);
    expect(again.orders).toEqual([]);
    expect(again.lineItems).toEqual([]);
    expect(again.counts).toEqual({ inserted: 0, updated: 0, cancelled: 0, restored: 0, children: 0 });
    // The watermark still moves with it, and its day is not marked for a Daily P&L refresh.
    expect(again.maxUpdatedAt).toBe('2024-05-02T00:00:00Z');
    expect(again.minPlacedDate).toBeNull();
  });
  it('the same order read back from the sheet (index columns then updated_at, as the batchGet gives them) is unchanged', () => {
    const { orders, lines, members } = emptyIndexes();
    const written = planOrderPage([order('ord_a', '2024-05-02T00:00:00Z', [])], orders, lines, members, ctx).orders[0]
      .cells;
    const stored = [...written.slice(0, ORDERS.indexColumns), written[col('updated_at')]];
    const fromSheet = new KeyIndex([stored], TZ, { keyPrefix: 'ord_' });
    const plan = planOrderPage([order('ord_a', '2024-05-02T00:00:00Z', [])], fromSheet, lines, members, ctx);
    expect(plan.counts.updated).toBe(0);
    const changed = planOrderPage([order('ord_a', '2024-05-02T00:00:01Z', [])], fromSheet, lines, members, ctx);
    expect(changed.counts.updated).toBe(1);
  });
  it("a late writer's change 1 ms after the last one is an update (the emulator moves the marker by 1 ms; a date serial hides it from a relative tolerance)", () => {
    const { orders, lines, members } = emptyIndexes();
    const written = planOrderPage(
      [order('ord_a', '2024-05-02T00:00:00.000Z', [], { financial_status: 'paid' })],
      orders,
      lines,
      members,
      ctx,
    ).orders[0].cells;
    const fromSheet = new KeyIndex([[...written.slice(0, ORDERS.indexColumns), written[col('updated_at')]]], TZ, {
      keyPrefix: 'ord_',
    });
    const late = planOrderPage(
      [order('ord_a', '2024-05-02T00:00:00.001Z', [], { financial_status: 'partially_refunded' })],
      fromSheet,
      lines,
      members,
      ctx,
    );
    expect(late.counts.updated).toBe(1);
    expect(late.orders[0].cells[col('financial_status')]).toBe('partially_refunded');
    // The index now holds the new marker: the same order again is not an update.
    const again = planOrderPage([order('ord_a', '2024-05-02T00:00:00.001Z', [])], fromSheet, lines, members, ctx);
    expect(again.counts.updated).toBe(0);
  });
  it('a gone order the service returns again is rewritten (its status changes), even with the same updated_at', () => {
    const { orders, lines, members } = emptyIndexes();
    const written = planOrderPage([order('ord_a', '2024-05-02T00:00:00Z', [])], orders, lines, members, ctx).orders[0]
      .cells;
    const gone = [written[0], 'gone', written[2], 45000, written[4], written[col('updated_at')]];
    const plan = planOrderPage(
      [order('ord_a', '2024-05-02T00:00:00Z', [])],
      new KeyIndex([gone], TZ),
      lines,
      members,
      ctx,
    );
    expect(plan.counts.updated).toBe(1);
    expect(plan.orders[0].cells[col('status')]).toBe('active');
  });
  it('the monthly check writes only synced_at of an unchanged order: the proof it was listed, not an update', () => {
    const { orders, lines, members } = emptyIndexes();
    planOrderPage([order('ord_a', '2024-05-02T00:00:00Z', ['li_1'])], orders, lines, members, ctx);
    const later = { ...ctx, syncedAt: ctx.syncedAt + 86_400_000, markSeen: true };
    const plan = planOrderPage([order('ord_a', '2024-05-02T00:00:00Z', ['li_1'])], orders, lines, members, later);
    expect(plan.counts.updated).toBe(0);
    expect(plan.orders).toEqual([
      { row: 2, column: col('synced_at') + 1, cells: [instantToSerial(later.syncedAt, TZ)] },
    ]);
    expect(orders.get('ord_a')!.cells[col('synced_at')]).toBe(instantToSerial(later.syncedAt, TZ));
  });
});
