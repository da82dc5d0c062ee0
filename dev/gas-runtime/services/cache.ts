import type { RuntimeClock } from '../clock.js';
import { hasDocument, type ExecutionServiceContext } from '../types.js';

/** Apps Script's CacheService limits (reference/cache/cache). */
export const MAX_CACHE_KEY_CHARS = 250;
export const MAX_CACHE_VALUE_BYTES = 100 * 1024;
export const MAX_CACHE_TTL_SECONDS = 21_600;
export const DEFAULT_CACHE_TTL_SECONDS = 600;
export const MAX_CACHE_ITEMS = 1000;

interface CacheEntry {
  value: string;
  expiresAt: number;
}

/**
 * Google's CacheService is best effort: an entry may be gone before it expires (reference/cache/cache,
 * "a cached value may be removed before the expiration time"). The runtime evicts deterministically:
 * each read of a live entry evicts it with probability `rate`, drawn from a seeded sequence
 * (mulberry32), so the same run repeats exactly. Off until `runtime.evictCaches(rate, seed)`.
 */
export class CacheEviction {
  private state: number;

  constructor(
    readonly rate: number,
    seed: number,
  ) {
    if (!(rate >= 0 && rate <= 1)) throw new Error('eviction rate must be between 0 and 1');
    this.state = seed >>> 0;
  }

  evicts(): boolean {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 < this.rate;
  }
}

/** One shared cache (script, document or user scope); expiry on the runtime clock. */
export class CacheStore {
  private readonly entries = new Map<string, CacheEntry>();
  eviction: CacheEviction | null = null;

  constructor(private readonly clock: RuntimeClock) {}

  get(key: string): string | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= this.clock.now() || this.eviction?.evicts()) {
      this.entries.delete(key);
      return null;
    }
    return entry.value;
  }

  put(key: string, value: string, ttlSeconds: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.clock.now() + ttlSeconds * 1000 });
    // "~1,000 items": the oldest entries vanish first, as Google's may vanish early.
    while (this.entries.size > MAX_CACHE_ITEMS) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  remove(key: string): void {
    this.entries.delete(key);
  }

  toJSON(): Record<string, CacheEntry> {
    const now = this.clock.now();
    return Object.fromEntries([...this.entries].filter(([, e]) => e.expiresAt > now));
  }

  static fromJSON(json: unknown, clock: RuntimeClock): CacheStore {
    const store = new CacheStore(clock);
    if (json && typeof json === 'object') {
      for (const [k, e] of Object.entries(json as Record<string, Partial<CacheEntry>>)) {
        if (typeof e.value === 'string' && typeof e.expiresAt === 'number')
          store.entries.set(k, { value: e.value, expiresAt: e.expiresAt });
      }
    }
    return store;
  }
}

function checkKey(key: unknown): string {
  if (key === null || key === undefined) throw new Error('Invalid argument: key');
  const text = String(key);
  if (text.length > MAX_CACHE_KEY_CHARS) throw new Error('Argument too large: key');
  return text;
}

function checkValue(value: unknown): string {
  if (value === null || value === undefined) throw new Error('Invalid argument: value');
  const text = String(value);
  if (Buffer.byteLength(text, 'utf8') > MAX_CACHE_VALUE_BYTES) throw new Error('Argument too large: value');
  return text;
}

/** Google documents 21,600 s as the longest an entry stays: longer requests are kept 6 h. */
function checkTtl(ttl: unknown): number {
  if (ttl === undefined || ttl === null) return DEFAULT_CACHE_TTL_SECONDS;
  const seconds = Number(ttl);
  if (!Number.isFinite(seconds) || seconds < 1) throw new Error('Invalid argument: expirationInSeconds');
  return Math.min(seconds, MAX_CACHE_TTL_SECONDS);
}

/** Google's `Cache` class. */
export class Cache {
  constructor(private readonly store: CacheStore) {}

  get(key: unknown): string | null {
    return this.store.get(checkKey(key));
  }

  getAll(keys: unknown): Record<string, string> {
    if (!Array.isArray(keys)) throw new Error('Invalid argument: keys');
    const found: Record<string, string> = {};
    for (const key of keys.map(checkKey)) {
      const value = this.store.get(key);
      if (value !== null) found[key] = value;
    }
    return found;
  }

  put(key: unknown, value: unknown, expirationInSeconds?: unknown): void {
    this.store.put(checkKey(key), checkValue(value), checkTtl(expirationInSeconds));
  }

  putAll(values: unknown, expirationInSeconds?: unknown): void {
    if (values === null || typeof values !== 'object') throw new Error('Invalid argument: values');
    const entries = Object.entries(values).map(([k, v]) => [checkKey(k), checkValue(v)] as const);
    const ttl = checkTtl(expirationInSeconds);
    for (const [k, v] of entries) this.store.put(k, v, ttl);
  }

  remove(key: unknown): void {
    this.store.remove(checkKey(key));
  }

  removeAll(keys: unknown): void {
    if (!Array.isArray(keys)) throw new Error('Invalid argument: keys');
    for (const key of keys.map(checkKey)) this.store.remove(key);
  }
}

export interface CacheStores {
  script: CacheStore;
  document: CacheStore;
  /** The runtime's default user's cache. */
  user: CacheStore;
  /** Every other user's cache, by e-mail (created on first use). */
  users: Record<string, CacheStore>;
}

export function userCacheStore(
  stores: CacheStores,
  email: string,
  defaultEmail: string,
  clock: RuntimeClock,
): CacheStore {
  if (email === defaultEmail) return stores.user;
  let store = stores.users[email];
  if (!store) {
    store = stores.users[email] = new CacheStore(clock);
    store.eviction = stores.user.eviction;
  }
  return store;
}

export class CacheService {
  constructor(
    private readonly stores: CacheStores,
    private readonly ctx: ExecutionServiceContext,
    private readonly userStore: CacheStore,
  ) {}

  getScriptCache(): Cache {
    return new Cache(this.stores.script);
  }

  /** "Returns null if called outside the context of a containing document" (callback, documentless trigger). */
  getDocumentCache(): Cache | null {
    if (!hasDocument(this.ctx)) return null;
    return new Cache(this.stores.document);
  }

  getUserCache(): Cache {
    return new Cache(this.userStore);
  }
}
