/**
 * Properties and Cache calls are billed flat only as far as they were measured (Poehnelt 2024, "Storage
 * Wars": Properties flat to 16 KB, Cache to 100 KB); a bulk call that moves more is billed, as the
 * stricter reading, as one call for each further span of that size.
 */
import { describe, expect, it } from 'vitest';
import { costOf } from '../../dev/gas-runtime/cost-model';

const store = (keys: number, bytes: number): Record<string, string> =>
  Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, 'x'.repeat(bytes)]));

describe('bulk storage calls are billed by what they move', () => {
  it('a whole read of the properties: one read to 16 KB, one more for each further 16 KB', () => {
    const read = (all: Record<string, string>): number =>
      costOf('PropertiesService', 'Properties.getProperties', [], all).ms;
    expect(read({})).toBe(40);
    expect(read(store(2, 8000))).toBe(40);
    expect(read(store(7, 8500))).toBe(160); // 59,521 bytes: four spans, as four reads
  });

  it('a bulk write is billed by its argument, a single key flat', () => {
    expect(costOf('PropertiesService', 'Properties.setProperties', [store(6, 8500)], undefined).ms).toBe(280);
    expect(costOf('PropertiesService', 'Properties.setProperty', ['k', 'x'.repeat(9000)], undefined).ms).toBe(70);
    expect(costOf('PropertiesService', 'Properties.getProperty', ['k'], 'x'.repeat(9000)).ms).toBe(40);
  });

  it('the cache: flat to 100 KB a bulk call', () => {
    expect(costOf('CacheService', 'Cache.getAll', [['a']], store(1, 90_000)).ms).toBe(25);
    expect(costOf('CacheService', 'Cache.putAll', [store(3, 90_000)], undefined).ms).toBe(300);
  });
});
