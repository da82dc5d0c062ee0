/** connect-flow.ts: a Connect's mark is taken once, lives as long as the state token, and a user keeps at most 10 open. */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openConnectFlow, takeConnectFlow } from '../../src/server/auth/connect-flow';

class FakeProperties {
  readonly values = new Map<string, string>();
  getProperty(k: string) {
    return this.values.get(k) ?? null;
  }
  setProperty(k: string, v: string) {
    this.values.set(k, v);
    return this;
  }
  deleteProperty(k: string) {
    this.values.delete(k);
    return this;
  }
  getProperties() {
    return Object.fromEntries(this.values);
  }
}

const g = globalThis as unknown as Record<string, unknown>;
let user: FakeProperties;
let lockEvents: string[];

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-03-01T12:00:00Z'));
  user = new FakeProperties();
  lockEvents = [];
  g['PropertiesService'] = { getUserProperties: () => user };
  g['LockService'] = {
    getUserLock: () => ({ waitLock: () => lockEvents.push('wait'), releaseLock: () => lockEvents.push('release') }),
  };
  g['Utilities'] = { getUuid: () => randomUUID() };
});
afterEach(() => {
  vi.useRealTimers();
  for (const name of ['PropertiesService', 'LockService', 'Utilities']) delete g[name];
});

const marks = (): string[] => [...user.values.keys()].filter((k) => k.startsWith('ma.connectFlow.'));

describe('a Connect flow mark', () => {
  it('is taken once, under the user lock, and names the spreadsheet it was opened for', () => {
    const id = openConnectFlow('sheet-A');
    expect(marks()).toEqual([`ma.connectFlow.${id}`]);
    expect(takeConnectFlow(id)).toMatchObject({ spreadsheetId: 'sheet-A' });
    expect(lockEvents).toEqual(['wait', 'release']);
    expect(takeConnectFlow(id)).toBeNull();
    expect(marks()).toEqual([]);
  });

  it("lives as long as the library's state token (3600 s), no longer", () => {
    const kept = openConnectFlow('sheet-A');
    const lapsed = openConnectFlow('sheet-A');
    vi.advanceTimersByTime(3_599_000);
    expect(takeConnectFlow(kept)).not.toBeNull();
    vi.advanceTimersByTime(1_000);
    expect(takeConnectFlow(lapsed)).toBeNull();
    expect(marks()).toEqual([]);
  });

  it('unknown or malformed ids are refused without touching the store', () => {
    openConnectFlow('sheet-A');
    expect(takeConnectFlow(undefined)).toBeNull();
    expect(takeConnectFlow('../../etc')).toBeNull();
    expect(takeConnectFlow(randomUUID())).toBeNull();
    expect(marks()).toHaveLength(1);
  });

  it('a user keeps at most 10 open flows (the newest); lapsed ones go at the next Connect', () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      ids.push(openConnectFlow('sheet-A'));
      vi.advanceTimersByTime(1_000);
    }
    expect(marks().sort()).toEqual(
      ids
        .slice(2)
        .map((id) => `ma.connectFlow.${id}`)
        .sort(),
    );
    vi.advanceTimersByTime(3_600_000);
    const last = openConnectFlow('sheet-B');
    expect(marks()).toEqual([`ma.connectFlow.${last}`]);
  });
});
