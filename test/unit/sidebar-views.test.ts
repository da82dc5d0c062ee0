/**
 * What the sidebar and the menu say, built from the sync's own records without Apps Script:
 * the schedule card, the cards drawn from the kept sync state, and the menu's Sync now toast.
 */
import { describe, expect, it } from 'vitest';
import { emptyCounts } from '../../src/contract/counts-text';
import type { SyncProgress } from '../../src/contract/sidebar';
import { menuSyncToast, refreshFormulasToast } from '../../src/server/sidebar/menu-toasts';
import { pausedNote, scheduleViewOf } from '../../src/server/sidebar/schedule-view';
import {
  closedMonthLines,
  costGapsViewOf,
  skippedViewOf,
  tieoutViewOf,
} from '../../src/server/sidebar/sync-state-views';

const NOW = Date.parse('2026-11-21T12:10:00Z');

describe('the schedule card', () => {
  it("another editor's schedule is theirs: named, not yours, the next run 'within the hour' without their record", () => {
    const view = scheduleViewOf(
      { kind: 'hourly' },
      'Europe/Berlin',
      null,
      { owner: 'ana@example.com', yours: false, lastRun: null },
      NOW,
    );
    expect(view).toEqual({
      mode: 'hourly',
      hour: null,
      timeZone: 'Europe/Berlin',
      note: null,
      owner: 'ana@example.com',
      yours: false,
      nextRun: 'Next run: within the hour.',
    });
  });

  it('an hourly run of yours that started 10 minutes ago runs next about an hour after it, in the zone', () => {
    const lastRun = NOW - 10 * 60_000;
    const view = scheduleViewOf({ kind: 'hourly' }, 'Europe/Berlin', null, { owner: null, yours: true, lastRun }, NOW);
    expect(view.nextRun).toBe('Next run: about 14:00.');
  });

  it('a daily schedule keeps its hour; without a time zone no next run is said', () => {
    const view = scheduleViewOf(
      { kind: 'daily', hour: 7 },
      null,
      null,
      { owner: null, yours: true, lastRun: null },
      NOW,
    );
    expect(view).toMatchObject({ mode: 'daily', hour: 7, timeZone: null, nextRun: null });
  });

  it('a schedule a lost connection paused says it is off until the reconnect and how it resumes', () => {
    const note = pausedNote({
      schedule: { kind: 'daily', hour: 7 },
      storeId: 'st_1',
      at: NOW,
      timeZone: 'Europe/Berlin',
    });
    expect(note).toEqual({
      kind: 'paused',
      message:
        'Automatic sync is off until you reconnect the store these sheets hold; then it resumes every day at 07:00 (Europe/Berlin time).',
    });
  });
});

describe('the cards drawn from the kept sync state', () => {
  it('the tie-out is null before the first, then passed on with its time as an ISO string', () => {
    const t = { checkedAt: null, days: 0, failedDays: [], failedCount: 0, rows: 0, cutFrom: null };
    expect(tieoutViewOf(t)).toBeNull();
    const checkedAt = Date.parse('2026-11-24T06:00:00Z');
    expect(tieoutViewOf({ ...t, checkedAt, days: 40, failedDays: ['2026-10-03'], failedCount: 1 })).toEqual({
      checkedAt: '2026-11-24T06:00:00.000Z',
      days: 40,
      failedDays: ['2026-10-03'],
      failedCount: 1,
      cutFrom: null,
      provenFrom: null,
      ordersFrom: null,
    });
  });

  it('a tie-out that did not run is passed on with why, so the Checks line is no earlier ✓', () => {
    const t = {
      checkedAt: Date.parse('2026-11-24T06:00:00Z'),
      days: 40,
      failedDays: [],
      failedCount: 0,
      rows: 41,
      cutFrom: null,
    };
    const notRun = 'Tie-out not run this time: The column "cogs" of "Daily P&L" was deleted.';
    expect(tieoutViewOf({ ...t, notRun })?.notRun).toBe(notRun);
    expect(tieoutViewOf(t)).not.toHaveProperty('notRun');
  });

  it('skipped records: null when none; a Daily P&L row without a day is left out, orders keep their day', () => {
    expect(skippedViewOf({ orders: [], products: [], days: [] })).toBeNull();
    const view = skippedViewOf({
      orders: [{ id: 'ord_1', day: '2026-11-02', reason: 'too long' }],
      products: [{ id: 'prd_1', day: null, reason: 'bad' }],
      days: [
        { id: '?', day: null, reason: 'unreadable' },
        { id: '2026-11-03', day: '2026-11-03', reason: 'bad figure' },
      ],
    });
    expect(view).toEqual({
      orders: [{ id: 'ord_1', day: '2026-11-02', reason: 'too long' }],
      products: [{ id: 'prd_1', reason: 'bad' }],
      days: [{ day: '2026-11-03', reason: 'bad figure' }],
    });
  });

  it("cost gaps: null before a full read of Orders, then in the store's currency", () => {
    const gaps = { orders: 3, netRevenue: 120.5, ordersCounted: 40, otherCurrencies: [], checkedAt: null };
    expect(costGapsViewOf(gaps, 'USD')).toBeNull();
    expect(costGapsViewOf({ ...gaps, checkedAt: NOW }, 'USD')).toEqual({
      orders: 3,
      ordersCounted: 40,
      netRevenue: 120.5,
      currency: 'USD',
      otherCurrencies: [],
    });
  });

  it('closed months: each line says what moved, every month named with its year', () => {
    const month = (m: string, change: number) => ({
      month: m,
      netProfitChange: change,
      changedDays: 2,
      changedValues: change === 0 ? 0 : 5,
      basisChanged: false,
      currency: 'USD',
    });
    const lines = closedMonthLines([month('2026-10', -312.4), month('2025-10', 0), month('2026-09', 0)]);
    expect(lines.map((l) => l.text)).toEqual([
      'October 2026 changed by −$312.40 net profit since you closed it',
      'October 2025: no change since you closed it',
      'September 2026: no change since you closed it',
    ]);
  });

  it('a lone closed month is named with its year too: a store with 2025-11 and 2026-11 of history cannot tell which', () => {
    const [line] = closedMonthLines([
      {
        month: '2025-11',
        netProfitChange: -4.5,
        changedDays: 1,
        changedValues: 1,
        basisChanged: false,
        currency: 'EUR',
      },
    ]);
    expect(line!.text).toBe('November 2025 changed by −€4.50 net profit since you closed it');
  });
});

describe("the menu's toasts", () => {
  const progress = (partial: Partial<SyncProgress>): SyncProgress => ({
    done: true,
    phase: 'Caught up',
    counts: { ...emptyCounts(), ordersAdded: 2 },
    fraction: 1,
    problem: null,
    pausedUntil: null,
    ...partial,
  });

  it('a stopped run shows its problem', () => {
    const problem = {
      code: 'revoked',
      userMessage: 'Access was turned off.',
      action: 'reconnect' as const,
      retryAt: null,
    };
    expect(menuSyncToast(progress({ problem }))).toEqual({
      message: 'Access was turned off.',
      title: 'Merchant Analytics: sync stopped',
      seconds: 15,
    });
  });

  it('caught up, paused and more to fetch each say what was written and what comes next', () => {
    const caughtUp = menuSyncToast(progress({}));
    expect(caughtUp).toMatchObject({ title: 'Merchant Analytics', seconds: 10 });
    expect(caughtUp.message).toMatch(/^Caught up\. Orders: 2 new, 0 updated · .*\.$/);
    const more = menuSyncToast(progress({ done: false, phase: 'Orders and line items' }));
    expect(more.message).toMatch(/\. More to fetch: run Sync now again or open the sidebar\.$/);
    const paused = menuSyncToast(
      progress({ done: false, pausedUntil: '2026-11-21T13:05:00.000Z', phase: 'Paused until 14:05' }),
    );
    expect(paused).toMatchObject({ title: 'Merchant Analytics: sync paused', seconds: 15 });
    expect(paused.message).toMatch(/\. Paused until 14:05\.$/);
  });

  it('Refresh formulas says how many formulas recalculate, one in the singular', () => {
    expect(refreshFormulasToast(1)).toEqual({
      message: '1 formula recalculates.',
      title: 'Merchant Analytics',
      seconds: 5,
    });
    expect(refreshFormulasToast(0).message).toBe('0 formulas recalculate.');
    expect(refreshFormulasToast(12).message).toBe('12 formulas recalculate.');
  });
});
