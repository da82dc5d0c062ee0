/**
 * Scheduled runs share Google's 90 minutes a day of trigger time with every other script of the user.
 * The add-on's share must still let a user with several scheduled spreadsheets sync each of them every
 * hour: three spreadsheets of 200 orders, a run of about 6 s each, 72 runs a day (an outside review
 * measured 5.5 s a run at 200 orders; a 5-minute share skipped about four hours of them a day).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordScheduledRun, scheduledAllowance } from '../../src/server/sync/trigger-allowance';

const HOUR_MS = 3_600_000;
const GOOGLE_DAILY_TRIGGER_MS = 90 * 60_000;

beforeEach(() => {
  const data = new Map<string, string>();
  const userStore = {
    getProperty: (key: string) => data.get(key) ?? null,
    setProperty(key: string, value: string) {
      data.set(key, value);
      return userStore;
    },
  };
  Object.assign(globalThis, { PropertiesService: { getUserProperties: () => userStore } });
});
afterEach(() => {
  delete (globalThis as Record<string, unknown>).PropertiesService;
});

describe("scheduled runs' share of Google's daily trigger time", () => {
  it('three spreadsheets syncing hourly for two days are never skipped, and the share stays well inside 90 minutes', () => {
    const start = Date.UTC(2026, 0, 1);
    const skipped: string[] = [];
    for (let hour = 0; hour < 48; hour++) {
      for (let sheet = 0; sheet < 3; sheet++) {
        const at = start + hour * HOUR_MS + sheet * 10_000;
        const { budgetMs } = scheduledAllowance(at);
        if (budgetMs === 0) skipped.push(`hour ${hour}, spreadsheet ${sheet + 1}`);
        else recordScheduledRun(at + 6_000, 6_000);
      }
    }
    expect(skipped).toEqual([]);
    const { usedMs, budgetMs } = scheduledAllowance(start + 48 * HOUR_MS);
    expect(usedMs + budgetMs).toBeLessThanOrEqual(GOOGLE_DAILY_TRIGGER_MS / 2);
  });

  it("reads the user's store of the execution it runs in, not one an earlier execution (or test file) opened", () => {
    const now = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 40; i++) recordScheduledRun(now - i * 60_000, 60_000);
    expect(scheduledAllowance(now).budgetMs).toBe(0);
    const fresh = new Map<string, string>();
    const otherUser = {
      getProperty: (key: string) => fresh.get(key) ?? null,
      setProperty: (key: string, value: string) => (fresh.set(key, value), otherUser),
    };
    Object.assign(globalThis, { PropertiesService: { getUserProperties: () => otherUser } });
    expect(scheduledAllowance(now).usedMs).toBe(0);
  });
});
