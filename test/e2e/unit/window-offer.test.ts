/** The sidebar's created_after offer (src/server/sidebar/window-offer.ts) and its server call. */
import { describe, expect, it } from 'vitest';
import type { CellsView } from '../../../src/contract/sidebar';
import { parseOrdersWindowRequest } from '../../../src/server/sidebar/orders-window-request';
import { sidebarState } from '../../../src/server/sidebar/state';
import { windowOfferOf } from '../../../src/server/sidebar/window-offer';
import type { CapacityFacts } from '../../../src/server/sidebar/ports';
import { fakeWorld } from './fake-ports';

const cells = (percent: number): CellsView => ({
  used: percent * 100_000,
  limit: 10_000_000,
  percent,
  warn: percent >= 70,
  ordersWindow: null,
  offer: null,
});
const facts = (partial: Partial<CapacityFacts> = {}): CapacityFacts => ({
  ordersWindow: null,
  stopped: false,
  estimate: null,
  today: '2026-11-21',
  ...partial,
});
const estimate = {
  createdAfter: null,
  rateFrom: '2025-11-21',
  today: '2026-11-21',
  orders: 120_000,
  cellsPerOrder: 100,
  neededCells: 12_000_000,
  freeCells: 9_000_000,
  fits: false,
  suggestedFrom: '2026-03-01',
};

describe('the offer appears when room runs short, and only then', () => {
  it('none below 70 % with no stop and no refused backfill', () => {
    expect(windowOfferOf(cells(69.9), facts())).toBeNull();
  });

  it('from 70 %: filling up, proposing the last year', () => {
    expect(windowOfferOf(cells(74), facts())).toMatchObject({
      reason: 'filling_up',
      suggestedFrom: '2025-11-22',
      latest: '2026-11-21',
    });
  });

  it('after a sync stopped on the limit, whatever the gauge says', () => {
    expect(windowOfferOf(cells(40), facts({ stopped: true }))).toMatchObject({ reason: 'stopped' });
  });

  it('a refused backfill names its figures and proposes the day its estimate fits', () => {
    const offer = windowOfferOf(cells(10), facts({ estimate }));
    expect(offer).toMatchObject({ reason: 'would_not_fit', suggestedFrom: '2026-03-01' });
    expect(offer!.message).toMatch(/120,000 orders need about 12,000,000 cells, and 9,000,000 are free/);
  });

  it('within a window of less than a year, proposes keeping half of it', () => {
    expect(windowOfferOf(cells(80), facts({ ordersWindow: '2026-09-21' }))!.suggestedFrom).toBe('2026-10-21');
  });
});

describe('setOrdersWindow: the request is checked before anything changes', () => {
  it('accepts a real day or null', () => {
    expect(parseOrdersWindowRequest({ createdAfter: '2026-02-28' })).toEqual({ createdAfter: '2026-02-28' });
    expect(parseOrdersWindowRequest({ createdAfter: null })).toEqual({ createdAfter: null });
  });

  it('refuses anything else with a clear message', () => {
    for (const bad of [
      null,
      {},
      { createdAfter: '2026-02-30' },
      { createdAfter: '28/02/2026' },
      { createdAfter: 20260228 },
    ]) {
      expect(() => parseOrdersWindowRequest(bad)).toThrow(/Nothing was changed/);
    }
  });

  it('the sidebar state carries the window in force and the offer', () => {
    const world = fakeWorld();
    world.cells = cells(75);
    world.capacity = facts({ ordersWindow: '2025-06-01' });
    const state = sidebarState(world.ports);
    expect(state.cells.ordersWindow).toBe('2025-06-01');
    expect(state.cells.offer).toMatchObject({ reason: 'filling_up' });
  });
});
