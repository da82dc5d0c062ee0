import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GasRuntime } from '../../dev/gas-runtime/index.js';
import { basicRuntime } from './fixture-runtime.js';

let runtime: GasRuntime;

beforeAll(async () => {
  // Expiry is judged on the runtime clock, moved only by the tests: with real time in it, a loaded
  // machine took more than the 1 s left before the entry's expiry just to start the next execution.
  runtime = await basicRuntime({ costModel: false, modelledTimeOnly: true });
});
afterAll(async () => {
  await runtime.close();
});

describe('PropertiesService: 9 KB per value', () => {
  it('accepts a value of exactly 9 KB', async () => {
    const result = await runtime.run('setProperty', ['script', 'nine', 'x'.repeat(9 * 1024)]);
    expect(result.value).toBe(9 * 1024);
  });

  it('refuses one byte more, counting UTF-8 bytes, and keeps the old value', async () => {
    const over = await runtime.run('setProperty', ['script', 'nine', 'y'.repeat(9 * 1024 + 1)]);
    expect(over.ok).toBe(false);
    expect(over.error?.message).toBe('Exceeded maximum property size');
    const multiByte = await runtime.run('setProperty', ['script', 'nine', 'é'.repeat(4609)]);
    expect(multiByte.error?.message).toBe('Exceeded maximum property size');
    expect(runtime.properties.script.get('nine')).toBe('x'.repeat(9 * 1024));
  });
});

describe('PropertiesService: 500 KB per store', () => {
  it('refuses the write that would pass 500 KB and loses nothing', async () => {
    const chunk = 'v'.repeat(9_000);
    const fill: Record<string, string> = {};
    for (let i = 0; i < 56; i++) fill[`k${String(i).padStart(2, '0')}`] = chunk; // 56 × ~9 KB ≈ 504 KB < 512,000 bytes
    const filled = await runtime.run('setProperties', [fill, true]);
    expect(filled.ok).toBe(true);
    expect(filled.value).toHaveLength(56);
    const over = await runtime.run('setProperty', ['script', 'one-more', chunk]);
    expect(over.ok).toBe(false);
    expect(over.error?.message).toMatch(/^You have exceeded the property storage quota/);
    expect(runtime.properties.script.get('one-more')).toBeNull();
    expect(Object.keys(runtime.properties.script.all())).toHaveLength(56);
    // Each store has its own quota.
    expect((await runtime.run('setProperty', ['document', 'one-more', chunk])).ok).toBe(true);
  });

  it('setProperties(..., true) replaces the whole store', async () => {
    const result = await runtime.run('setProperties', [{ only: '1' }, true]);
    expect(result.value).toEqual(['only']);
  });
});

describe('PropertiesService is read-only in custom functions', () => {
  it('reads but does not write', async () => {
    runtime.properties.script.set('shared', 'token-free value');
    expect((await runtime.run('getProperty', ['shared'], { authMode: 'CUSTOM_FUNCTION' })).value).toBe(
      'token-free value',
    );
    const write = await runtime.run('setProperty', ['script', 'shared', 'changed'], { authMode: 'CUSTOM_FUNCTION' });
    expect(write.error?.message).toBe('You do not have permission to call Properties.setProperty');
    expect(runtime.properties.script.get('shared')).toBe('token-free value');
  });
});

describe('CacheService: 100 KB values, 250-character keys', () => {
  it('accepts 100 KB and refuses more', async () => {
    expect((await runtime.run('cachePut', ['big', 'c'.repeat(100 * 1024), 60])).ok).toBe(true);
    const over = await runtime.run('cachePut', ['big', 'c'.repeat(100 * 1024 + 1), 60]);
    expect(over.error?.message).toMatch(/^Argument too large/);
    expect((await runtime.run('cacheGet', ['big'])).value).toHaveLength(100 * 1024);
  });

  it('refuses a key longer than 250 characters', async () => {
    expect((await runtime.run('cachePut', ['k'.repeat(250), 'v', 60])).ok).toBe(true);
    expect((await runtime.run('cachePut', ['k'.repeat(251), 'v', 60])).error?.message).toMatch(/^Argument too large/);
  });
});

describe('CacheService: expiry on the runtime clock', () => {
  it('keeps an entry for its TTL and drops it after', async () => {
    await runtime.run('cachePut', ['short', 'value', 10]);
    runtime.clock.advance(9_000);
    expect((await runtime.run('cacheGet', ['short'])).value).toBe('value');
    runtime.clock.advance(1_500);
    expect((await runtime.run('cacheGet', ['short'])).value).toBeNull();
  });

  it('defaults to 600 s and keeps nothing beyond 21,600 s', async () => {
    await runtime.run('cachePut', ['default', 'value']);
    await runtime.run('cachePut', ['long', 'value', 50_000]);
    runtime.clock.advance(590_000);
    expect((await runtime.run('cacheGet', ['default'])).value).toBe('value');
    runtime.clock.advance(20_000);
    expect((await runtime.run('cacheGet', ['default'])).value).toBeNull();
    runtime.clock.advance(21_600_000 - 610_000 - 10_000);
    expect((await runtime.run('cacheGet', ['long'])).value).toBe('value');
    runtime.clock.advance(20_000);
    expect((await runtime.run('cacheGet', ['long'])).value).toBeNull();
  });

  it('putAll/getAll on the document cache', async () => {
    const result = await runtime.run('cachePutAll', [{ a: '1', b: '2' }, 60]);
    expect(result.value).toEqual({ a: '1', b: '2' });
  });
});
