/**
 * The user's small records (schedule triggers, their open failures, removed schedules) kept as one
 * JSON property each: a damaged entry reads as absent, the bounded map keeps the newest, and a
 * Properties failure reaches the caller instead of reading as "nothing recorded".
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordOpenFailure } from '../../src/server/sync/open-failures';
import { recordScheduleRemoval, scheduleRemovalOf } from '../../src/server/sync/schedule-removals';
import { registerScheduleTrigger, scheduleTriggers } from '../../src/server/sync/schedule-registry';

const data = new Map<string, string>();
let failing = false;
const userProperties = {
  getProperty(key: string): string | null {
    if (failing) throw new Error('Service invoked too many times for one day: properties.');
    return data.get(key) ?? null;
  },
  setProperty(key: string, value: string) {
    data.set(key, value);
    return userProperties;
  },
  deleteProperty(key: string) {
    data.delete(key);
    return userProperties;
  },
};

beforeEach(() => {
  data.clear();
  failing = false;
  Object.assign(globalThis, { PropertiesService: { getUserProperties: () => userProperties } });
});
afterEach(() => {
  delete (globalThis as Record<string, unknown>).PropertiesService;
});

describe('user record maps', () => {
  it('read a damaged entry as absent and keep the well-formed ones', () => {
    data.set(
      'ma.scheduleRemovals',
      JSON.stringify({ good: { at: 3, since: 1, runs: 3 }, bad: { at: '3', since: 1, runs: 3 }, gone: null }),
    );
    expect(scheduleRemovalOf('good')).toEqual({ at: 3, since: 1, runs: 3 });
    expect(scheduleRemovalOf('bad')).toBeNull();
    data.set('ma.scheduleTriggers', '{not json');
    expect(scheduleTriggers()).toEqual({});
  });

  it('keep the 20 newest removals', () => {
    for (let i = 0; i < 25; i++) recordScheduleRemoval(`sheet${i}`, { at: 1000 + i, since: i, runs: 3 });
    const kept = Object.keys(JSON.parse(data.get('ma.scheduleRemovals')!) as object);
    expect(kept).toHaveLength(20);
    expect(kept).not.toContain('sheet4');
    expect(kept).toContain('sheet24');
  });

  it('let a Properties failure reach the caller rather than read it as nothing recorded', () => {
    registerScheduleTrigger('uid1', 'sheetA');
    failing = true;
    expect(() => scheduleTriggers()).toThrow(/too many times/);
    expect(() => scheduleRemovalOf('sheetA')).toThrow(/too many times/);
    expect(() => recordOpenFailure('uid1', 0)).toThrow(/too many times/);
  });
});
