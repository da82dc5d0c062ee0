/**
 * Google refuses a property value over 9 KB. Every value the add-on stores that can hold text from
 * the API, from errors or from a growing list is filled here with worst-case text (characters
 * JSON escapes to six bytes, four-byte emoji, quotes) through the add-on's own code, and its
 * stored size is measured in UTF-8 bytes as Google measures it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROPERTY_VALUE_MAX_BYTES, PropertyTooLargeError, utf8Bytes } from '../../src/server/platform/property-size';
import { documentSidebarMemory } from '../../src/server/sidebar/memory';
import { SyncStateStore } from '../../src/server/state/sync-state';
import type { RunRecord } from '../../src/server/state/run-records';
import { boundedRuns } from '../../src/server/sync/sync-log';
import { claimSkipNote, recordScheduledRun, scheduledAllowance } from '../../src/server/sync/trigger-allowance';

/** Six bytes in JSON (\u0001), four-byte emoji, two-byte and three-byte characters, quotes. */
const WORST = '\u0001😀"é€\\';
const worstText = (chars: number): string => WORST.repeat(Math.ceil(chars / WORST.length)).slice(0, chars);

class MapProperties {
  readonly data = new Map<string, string>();
  getProperty(key: string): string | null {
    return this.data.get(key) ?? null;
  }
  getProperties(): Record<string, string> {
    return Object.fromEntries(this.data);
  }
  setProperty(key: string, value: string): this {
    // As Google: refused before anything is written.
    if (utf8Bytes(value) > PROPERTY_VALUE_MAX_BYTES) throw new Error('Exceeded maximum property size');
    this.data.set(key, value);
    return this;
  }
  deleteProperty(key: string): this {
    this.data.delete(key);
    return this;
  }
}

let documentStore: MapProperties;
let userStore: MapProperties;

beforeEach(() => {
  documentStore = new MapProperties();
  userStore = new MapProperties();
  const cache = { get: () => null, put: () => undefined, remove: () => undefined };
  Object.assign(globalThis, {
    PropertiesService: {
      getDocumentProperties: () => documentStore,
      getUserProperties: () => userStore,
      getScriptProperties: () => new MapProperties(),
    },
    CacheService: { getDocumentCache: () => cache, getUserCache: () => cache },
  });
});
afterEach(() => {
  // Suites share their worker's globals: leave none of the stand-ins behind.
  for (const name of ['PropertiesService', 'CacheService']) delete (globalThis as Record<string, unknown>)[name];
});

const largest = (store: MapProperties): number => Math.max(0, ...[...store.data.values()].map(utf8Bytes));

describe('nothing the add-on stores outgrows 9 KB per value', () => {
  it('the recent runs: 20 runs whose messages and jobs are 50,000 characters of worst-case text', () => {
    const runs: RunRecord[] = Array.from({ length: 40 }, (_, i) => ({
      job: worstText(50_000),
      startedAt: i,
      endedAt: i + 1,
      outcome: 'error',
      rows: 1,
      message: worstText(50_000),
      failureCode: 'internal',
    }));
    const state = new SyncStateStore(documentStore);
    state.save('lastRuns', boundedRuns(runs));
    const stored = documentStore.getProperty('ma.sync.lastRuns')!;
    expect(utf8Bytes(stored)).toBeLessThanOrEqual(PROPERTY_VALUE_MAX_BYTES);
    const kept = JSON.parse(stored) as RunRecord[];
    // The newest run is always kept, its message clipped where the sidebar shows it.
    expect(kept[0].startedAt).toBe(0);
    expect(kept[0].message.endsWith('…')).toBe(true);
    // Records saved by an older version, unclipped, are bounded when the list is saved again.
    state.save('lastRuns', boundedRuns([...kept, ...runs]));
    expect(largest(documentStore)).toBeLessThanOrEqual(PROPERTY_VALUE_MAX_BYTES);
  });

  it('any other sync state that would pass 9 KB is refused with a clear error before anything is written', () => {
    const state = new SyncStateStore(documentStore);
    state.update('orders', { watermark: '2024-05-01T00:00:00Z' });
    expect(() => state.update('orders', { createdAfter: worstText(9_000) })).toThrow(PropertyTooLargeError);
    expect(JSON.parse(documentStore.getProperty('ma.sync.orders')!)).toMatchObject({
      watermark: '2024-05-01T00:00:00Z',
      createdAfter: null,
    });
  });

  it('the store the sidebar remembers: every field 50,000 characters of worst-case text', () => {
    const huge = worstText(50_000);
    documentSidebarMemory().rememberStore({
      id: huge,
      name: huge,
      domain: huge,
      platform: huge,
      currency: huge,
      timezone: huge,
    });
    expect(documentStore.data.size).toBe(1);
    expect(largest(documentStore)).toBeLessThanOrEqual(PROPERTY_VALUE_MAX_BYTES);
  });

  it("the scheduled runs' share of trigger time: a day of runs every minute", () => {
    const start = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 1_440; i++) recordScheduledRun(start + i * 60_000, 59_999_999);
    expect(claimSkipNote(start + 1_440 * 60_000)).toBe(true);
    expect(largest(userStore)).toBeLessThanOrEqual(PROPERTY_VALUE_MAX_BYTES);
    expect(scheduledAllowance(start + 1_440 * 60_000).budgetMs).toBe(0);
  });
});
