/**
 * The sidebar's view of the sync module: what a stopped run asks the user to do, and how the
 * recent runs are listed once a failure is history. Pure functions of sync-port.ts.
 */
import { describe, expect, it } from 'vitest';
import { jobViewsOf } from '../../../src/server/sidebar/runs-view';
import { stopActionOf } from '../../../src/server/sidebar/stopped-run';
import { loggedRuns, type LoggedRun } from '../../../src/server/sync/sync-log';
import { SyncStateStore } from '../../../src/server/state/sync-state';
import type { PauseCause } from '../../../src/contract/pause-text';

const connected = { state: 'connected', action: null };
const NOW = Date.parse('2026-11-21T12:00:00Z');

function run(partial: Partial<LoggedRun>): LoggedRun {
  return {
    job: 'orders, products, daily',
    startedAt: NOW - 60_000,
    endedAt: NOW - 30_000,
    outcome: 'ok',
    rows: 10,
    message: 'ok',
    failureCode: null,
    connectionLost: false,
    pausedUntil: null,
    counts: null,
    ...partial,
  };
}

describe("a run that stopped on the sheets' layout asks for a fix, not a retry", () => {
  it('sheet_layout (a managed column moved or renamed) maps to fix_request', () => {
    expect(stopActionOf('sheet_layout', connected)).toEqual({ code: 'sheet_layout', action: 'fix_request' });
  });
  it('room in the spreadsheet is fixed there too; a server hiccup is retried later', () => {
    expect(stopActionOf('cell_limit', connected).action).toBe('fix_request');
    expect(stopActionOf('internal_error', connected).action).toBe('retry_later');
  });
  it('a lost connection asks for what the connection state says', () => {
    expect(stopActionOf('grant_revoked', { state: 'revoked', action: 'reconnect' })).toEqual({
      code: 'revoked',
      action: 'reconnect',
    });
  });
});

describe('"Last sync": past failures are history, not a call to action', () => {
  const revoked = run({
    outcome: 'error',
    message: 'Access was turned off. Click Reconnect to resume syncing.',
    failureCode: 'grant_revoked',
    connectionLost: true,
  });

  it('a failure of a lost connection stays current while the connection is broken', () => {
    const [view] = jobViewsOf([revoked], false, 'Europe/Berlin', NOW);
    expect(view).toMatchObject({ outcome: 'error', past: false, message: revoked.message });
  });

  it('once the connection works again it is history: neutral, with its time, without "Click Reconnect"', () => {
    const [view] = jobViewsOf([revoked], true, 'Europe/Berlin', NOW);
    expect(view.past).toBe(true);
    expect(view.lastRunAt).toBe(new Date(revoked.endedAt as number).toISOString());
    expect(view.message).not.toMatch(/Reconnect/);
  });

  it('any failure followed by a successful run is history; a failure that is the latest run is not', () => {
    const layout = run({ outcome: 'error', message: 'Move column X back.', failureCode: 'sheet_layout' });
    const views = jobViewsOf([run({ outcome: 'ok' }), layout], true, 'Europe/Berlin', NOW);
    expect(views.map((v) => v.past)).toEqual([false, true]);
    expect(jobViewsOf([layout, run({ outcome: 'ok' })], true, 'Europe/Berlin', NOW)[0]).toMatchObject({
      past: false,
      message: 'Move column X back.',
    });
  });

  it("a run paused for the hourly reserve is partial and says when it resumes, in the spreadsheet's time zone", () => {
    const paused = run({
      outcome: 'partial',
      pausedUntil: Date.parse('2026-11-21T13:05:00Z'),
      pauseFor: 'reserve',
      message: 'long log text',
    });
    const [view] = jobViewsOf([paused], true, 'Europe/Berlin', NOW);
    expect(view).toMatchObject({ outcome: 'partial', past: false });
    expect(view.message).toBe(
      'Paused to keep the hourly request allowance (fewer than 20 requests left); resumes after 14:05 (Europe/Berlin time).',
    );
  });
});

/** Spec 8.1: the limit a 429 names (X-RateLimit-Reason), or none; and the add-on's own hourly reserve. */
const CAUSE_WORDS: ReadonlyArray<[PauseCause, string]> = [
  ['reserve', 'Paused to keep the hourly request allowance (fewer than 20 requests left)'],
  ['burst', 'Paused: Merchant Analytics asked for fewer requests a minute'],
  ['client_global', 'Paused: Merchant Analytics is limiting this add-on across all stores for a moment'],
  ['concurrency', 'Paused: Merchant Analytics had too many requests in progress for this store'],
  ['hour', "Paused: this store's hourly request limit at Merchant Analytics is used up"],
  ['day', "Paused: this store's daily request limit at Merchant Analytics is used up"],
  ['unnamed', 'Paused: Merchant Analytics asked us to slow down'],
];

describe('Last sync names what paused a run, one cause each, and when it resumes', () => {
  it.each(CAUSE_WORDS)('paused for %s: its own words', (pauseFor, words) => {
    const paused = run({ outcome: 'partial', pausedUntil: Date.parse('2026-11-22T08:14:00Z'), pauseFor });
    const [view] = jobViewsOf([paused], true, 'Europe/Berlin', NOW);
    expect(view.message).toBe(`${words}; resumes after 09:14 on 2026-11-22 (Europe/Berlin time).`);
  });

  it('no two causes read alike, and only the reserve speaks of the hourly allowance', () => {
    const texts = CAUSE_WORDS.map(([pauseFor]) => {
      const paused = run({ outcome: 'partial', pausedUntil: NOW + 60_000, pauseFor });
      return jobViewsOf([paused], true, 'UTC', NOW)[0].message;
    });
    expect(new Set(texts).size).toBe(CAUSE_WORDS.length);
    expect(texts.filter((t) => /allowance/.test(String(t)))).toEqual([texts[0]]);
  });

  it('the recent runs read back the stored cause; a value no version names reads as unknown', () => {
    const props = new Map<string, string>();
    const state = new SyncStateStore({
      getProperties: () => Object.fromEntries(props),
      getProperty: (key) => props.get(key) ?? null,
      setProperty: (key, value) => void props.set(key, value),
    });
    const paused = { ...run({ outcome: 'partial', pausedUntil: NOW + 60_000 }), counts: undefined };
    state.save('lastRuns', [
      { ...paused, pauseFor: 'day' },
      { ...paused, pauseFor: 'weekly' as PauseCause },
    ]);
    const [day, unknown] = jobViewsOf(loggedRuns(state), true, 'UTC', NOW).map((v) => v.message);
    expect(day).toMatch(/^Paused: this store's daily request limit at Merchant Analytics is used up; /);
    expect(unknown).toMatch(/^Paused by a request limit of Merchant Analytics; /);
  });

  it('a run recorded without its cause (an older version) claims none', () => {
    const paused = run({ outcome: 'partial', pausedUntil: Date.parse('2026-11-21T13:05:00Z') });
    expect(jobViewsOf([paused], true, 'Europe/Berlin', NOW)[0].message).toBe(
      'Paused by a request limit of Merchant Analytics; resumes after 14:05 (Europe/Berlin time).',
    );
  });
});
