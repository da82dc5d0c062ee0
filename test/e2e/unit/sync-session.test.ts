import { describe, expect, it } from 'vitest';
import { GrantRevokedError, InternalServerError } from '../../../src/server/api/errors';
import type { SyncStepReport } from '../../../src/server/sidebar/ports';
import type { PauseCause } from '../../../src/contract/pause-text';
import { SyncStoppedError } from '../../../src/server/sidebar/stopped-run';
import { estimateFraction, runSyncSessionStep, startSyncSession } from '../../../src/server/sidebar/sync-session';
import { fakeWorld } from './fake-ports';

/** What a step wrote: orders added/updated with their line items (3 per order here), and days. */
const written = (ordersAdded: number, ordersUpdated = 0, days = 0) => ({
  ordersAdded,
  ordersUpdated,
  ordersCancelled: 0,
  ordersRestored: 0,
  ordersGone: 0,
  lineItems: 3 * (ordersAdded + ordersUpdated),
  products: 0,
  variants: 0,
  days,
});
const step = (partial: Partial<SyncStepReport>): SyncStepReport => ({
  done: false,
  busy: false,
  job: 'orders',
  written: written(0, 0),
  ordersFrom: null,
  ordersMark: null,
  position: null,
  pausedUntil: null,
  pauseText: null,
  ...partial,
});
const NOW = Date.parse('2026-11-21T12:00:00Z');

describe('Sync now: counts add up across steps until every job has caught up', () => {
  it('accumulates rows written per step and reports done with a full bar', () => {
    const world = fakeWorld();
    world.steps.push(
      () => step({ written: written(1000), ordersMark: '2026-01-01T12:00:00Z' }),
      () => step({ written: written(990, 10), ordersMark: '2026-06-12T12:00:00Z' }),
      () => step({ done: true, job: 'daily', written: written(0, 0, 320) }),
    );
    expect(startSyncSession(world.ports)).toMatchObject({ done: false, counts: written(0), problem: null });
    expect(runSyncSessionStep(world.ports, 1000, () => NOW)).toMatchObject({
      done: false,
      phase: 'Orders and line items',
      counts: written(1000),
      fraction: 0,
    });
    const second = runSyncSessionStep(world.ports, 1000, () => NOW);
    expect(second.counts).toEqual({
      ordersAdded: 1990,
      ordersUpdated: 10,
      ordersCancelled: 0,
      ordersRestored: 0,
      ordersGone: 0,
      lineItems: 6000,
      products: 0,
      variants: 0,
      days: 0,
    });
    expect(second.fraction).toBeCloseTo(0.4, 2); // half-way from the first mark to now, on the orders' 80 % of the bar
    expect(runSyncSessionStep(world.ports, 1000, () => NOW)).toEqual({
      done: true,
      phase: 'Caught up',
      counts: {
        ordersAdded: 1990,
        ordersUpdated: 10,
        ordersCancelled: 0,
        ordersRestored: 0,
        ordersGone: 0,
        lineItems: 6000,
        products: 0,
        variants: 0,
        days: 320,
      },
      fraction: 1,
      problem: null,
      pausedUntil: null,
      cells: { ...world.ports.sheets.cells(), ordersWindow: null, offer: null },
    });
    expect(world.session).toBeNull();
  });

  it('a new Sync now starts counting from zero', () => {
    const world = fakeWorld();
    world.session = { counts: written(999, 9), startMark: '2020-01-01T00:00:00Z' };
    startSyncSession(world.ports);
    expect(world.session).toEqual({ counts: written(0), startMark: null, fraction: null });
  });

  it('a busy document (another sync holds the lock) keeps the run going and says so', () => {
    const world = fakeWorld();
    world.steps.push(() => step({ busy: true, job: null }));
    startSyncSession(world.ports);
    expect(runSyncSessionStep(world.ports)).toMatchObject({
      done: false,
      phase: expect.stringMatching(/another sync/),
      problem: null,
    });
  });
});

describe('Sync now: the progress estimate never claims more than it knows', () => {
  it('is unknown before the orders watermark exists, and capped below the products phase', () => {
    expect(estimateFraction(step({ ordersMark: null }), null, NOW)).toBeNull();
    expect(estimateFraction(step({ ordersMark: '2026-11-21T12:00:00Z' }), '2026-01-01T00:00:00Z', NOW)).toBeCloseTo(
      0.8,
      5,
    );
    expect(estimateFraction(step({ job: 'products' }), null, NOW)).toBe(0.8);
  });

  it("follows the daily job's days and never moves back", () => {
    const daily = step({ job: 'daily', position: { done: 200, total: 400, unit: 'days' } });
    expect(estimateFraction(daily, null, NOW)).toBeCloseTo(0.95, 5);
    // A later step that knows less (a busy lock) keeps what the bar showed.
    expect(estimateFraction(step({ busy: true, job: null }), null, NOW, 0.95)).toBe(0.95);
    expect(
      estimateFraction(step({ job: 'orders', ordersMark: '2026-01-02T00:00:00Z' }), '2026-01-01T00:00:00Z', NOW, 0.5),
    ).toBe(0.5);
  });

  it('starts a first backfill from the watermark before the step when there is one', () => {
    const world = fakeWorld();
    world.steps.push(() => step({ ordersFrom: '2026-01-01T12:00:00Z', ordersMark: '2026-06-12T12:00:00Z' }));
    startSyncSession(world.ports);
    expect(runSyncSessionStep(world.ports, 1000, () => NOW).fraction).toBeCloseTo(0.4, 2);
  });
});

describe('Sync now: a refusal ends the run with the problem and its action', () => {
  it('grant_revoked stops, marks the connection and asks to reconnect; counts so far are kept', () => {
    const world = fakeWorld();
    world.steps.push(
      () => step({ written: written(250) }),
      () => {
        throw new GrantRevokedError({ status: 401 });
      },
    );
    startSyncSession(world.ports);
    runSyncSessionStep(world.ports);
    const stopped = runSyncSessionStep(world.ports);
    expect(stopped).toMatchObject({
      done: true,
      counts: written(250),
      problem: { code: 'grant_revoked', action: 'reconnect' },
    });
    expect(world.marked).toEqual(['revoked']);
  });

  it('a run the sync module stopped keeps its message and action', () => {
    const world = fakeWorld();
    world.steps.push(() => {
      throw new SyncStoppedError('revoked', 'The connection was turned off in Merchant Analytics.', 'reconnect');
    });
    startSyncSession(world.ports);
    expect(runSyncSessionStep(world.ports).problem).toEqual({
      code: 'revoked',
      userMessage: 'The connection was turned off in Merchant Analytics.',
      action: 'reconnect',
      retryAt: null,
    });
  });

  it('a server error does not touch the connection and says to retry later', () => {
    const world = fakeWorld();
    world.steps.push(() => {
      throw new InternalServerError({ status: 500 });
    });
    startSyncSession(world.ports);
    expect(runSyncSessionStep(world.ports).problem).toMatchObject({ code: 'internal_error', action: 'retry_later' });
    expect(world.marked).toEqual([]);
  });

  it('refuses to start when not connected, with Connect as the action', () => {
    const world = fakeWorld();
    world.status = { state: 'not_connected', message: 'x', action: 'connect' };
    expect(startSyncSession(world.ports)).toMatchObject({ done: true, problem: { action: 'connect' } });
  });
});

describe("Sync now: a run paused for the API's hourly reserve is partial, not a failure", () => {
  it('ends this Sync now without a problem, keeps the bar where it was and says when it resumes', () => {
    const world = fakeWorld();
    world.steps.push(
      () => step({ written: written(250), ordersMark: '2026-06-12T12:00:00Z', ordersFrom: '2026-01-01T12:00:00Z' }),
      () =>
        step({
          written: written(250),
          pausedUntil: '2026-11-21T13:05:00.000Z',
          pauseText: '14:05 (Europe/Berlin time)',
          pauseFor: 'reserve',
        }),
    );
    startSyncSession(world.ports);
    const first = runSyncSessionStep(world.ports, 1000, () => NOW);
    const paused = runSyncSessionStep(world.ports, 1000, () => NOW);
    expect(paused).toEqual({
      done: false,
      phase:
        'Paused to keep the hourly request allowance (fewer than 20 requests left); resumes after 14:05 (Europe/Berlin time)',
      counts: written(500),
      fraction: first.fraction,
      problem: null,
      pausedUntil: '2026-11-21T13:05:00.000Z',
      pauseFor: 'reserve',
      cells: { ...world.ports.sheets.cells(), ordersWindow: null, offer: null },
    });
    expect(world.session).toBeNull();
  });
});

describe('Sync now ends naming what paused it (spec 8.1), one cause each, with when it resumes', () => {
  const CAUSES: ReadonlyArray<[PauseCause, RegExp]> = [
    ['reserve', /^Paused to keep the hourly request allowance \(fewer than 20 requests left\); /],
    ['burst', /^Paused: Merchant Analytics asked for fewer requests a minute; /],
    ['client_global', /^Paused: Merchant Analytics is limiting this add-on across all stores for a moment; /],
    ['concurrency', /^Paused: Merchant Analytics had too many requests in progress for this store; /],
    ['hour', /^Paused: this store's hourly request limit at Merchant Analytics is used up; /],
    ['day', /^Paused: this store's daily request limit at Merchant Analytics is used up; /],
    ['unnamed', /^Paused: Merchant Analytics asked us to slow down; /],
  ];
  it.each(CAUSES)('paused for %s: its own words in the phase, and the cause for the end text', (pauseFor, words) => {
    const world = fakeWorld();
    world.steps.push(() =>
      step({ pausedUntil: '2026-11-21T09:14:00.000Z', pauseText: '10:14 (Europe/Berlin time)', pauseFor }),
    );
    startSyncSession(world.ports);
    const paused = runSyncSessionStep(world.ports, 1000, () => NOW);
    expect(paused.phase).toMatch(words);
    expect(paused.phase).toMatch(/; resumes after 10:14 \(Europe\/Berlin time\)$/);
    expect(paused.pauseFor).toBe(pauseFor);
    if (pauseFor !== 'reserve') expect(paused.phase).not.toMatch(/allowance/);
  });
});
