/**
 * Formula answers shared by every cell of the document: Sheets recalculates custom-function cells
 * as concurrent executions, and 200 cells over 12 date ranges must cost 12 requests, not 200.
 *
 * - Kept in the document cache per argument set (endpoint + resolved query), under the formula
 *   generation (bumped after a sync that changed data and by "Refresh formulas"), so an answer
 *   cached before a sync is never read after it.
 * - One caller fetches while the others wait for its answer: a miss takes the user lock
 *   (LockService is available to custom functions; the document lock is not used because a sync
 *   holds it for minutes), looks again, and only then fetches, holding the lock, so formulas have
 *   one request in flight at a time (the API allows two: the other stays free for a running sync).
 *   Waiters queue on the lock and find the answer when they get it.
 * - Answers over CacheService's 100 KB per value are stored in parts read back with one getAll.
 */
import { FormulaError } from './args';

export interface AnswerStore {
  get(key: string): string | null;
  getAll(keys: string[]): Record<string, string>;
  putAll(values: Record<string, string>, expirationInSeconds: number): void;
}

export interface AnswerLock {
  tryLock(timeoutInMillis: number): boolean;
  releaseLock(): void;
}

export interface AnswerCacheOptions {
  store: AnswerStore;
  lock: () => AnswerLock;
  /** Separates connections and generations; never a token. */
  scope: string;
  /** How long this execution may still wait for another's answer. */
  waitBudgetMs: () => number;
  digest: (text: string) => string;
}

/** CacheService's per-value limit is 100 KB; parts stay below it with room for multi-byte text. */
const PART_CHARS = 90_000;
const MAX_PARTS = 20;
const PARTS_PREFIX = '\u0001parts:';
const MAX_KEY = 250;

export interface Fetched<T> {
  value: T;
  /** Seconds it may be kept; null: not at all (e.g. Cache-Control: no-store). */
  keepSeconds: number | null;
}

export class AnswerCache {
  constructor(private readonly options: AnswerCacheOptions) {}

  /** The cached answer for `argumentsKey`, or the one this caller (or the caller it waited for) fetched. */
  answer<T>(fn: string, argumentsKey: string, fetch: () => Fetched<T>): T {
    const key = this.key(argumentsKey);
    const hit = this.read<T>(key);
    if (hit !== null) return hit.value;
    const waitMs = Math.max(0, this.options.waitBudgetMs());
    const lock = this.options.lock();
    if (!lock.tryLock(waitMs))
      throw new FormulaError(
        fn,
        'other formulas of this spreadsheet kept Merchant Analytics busy for 30 seconds; it recalculates on its own, or use "Refresh formulas" in the add-on menu',
      );
    try {
      const fetchedMeanwhile = this.read<T>(key);
      if (fetchedMeanwhile !== null) return fetchedMeanwhile.value;
      const fetched = fetch();
      if (fetched.keepSeconds !== null && fetched.keepSeconds > 0) this.write(key, fetched.value, fetched.keepSeconds);
      return fetched.value;
    } finally {
      lock.releaseLock();
    }
  }

  private key(argumentsKey: string): string {
    const key = `mf:${this.options.scope}:${argumentsKey}`;
    // Room for the part suffix.
    return key.length <= MAX_KEY - 4 ? key : `mf:${this.options.scope}:#${this.options.digest(key)}`;
  }

  private read<T>(key: string): { value: T } | null {
    const head = this.options.store.get(key);
    if (head === null) return null;
    let text = head;
    if (head.startsWith(PARTS_PREFIX)) {
      const count = Number(head.slice(PARTS_PREFIX.length));
      if (!Number.isInteger(count) || count < 1 || count > MAX_PARTS) return null;
      const keys = Array.from({ length: count }, (_, i) => `${key}#${i}`);
      const parts = this.options.store.getAll(keys);
      // A part evicted on its own makes the whole answer a miss.
      if (keys.some((k) => typeof parts[k] !== 'string')) return null;
      text = keys.map((k) => parts[k]).join('');
    }
    try {
      return { value: JSON.parse(text) as T };
    } catch {
      return null;
    }
  }

  private write(key: string, value: unknown, seconds: number): void {
    const text = JSON.stringify(value);
    const values: Record<string, string> = {};
    if (text.length <= PART_CHARS) {
      values[key] = text;
    } else {
      const count = Math.ceil(text.length / PART_CHARS);
      if (count > MAX_PARTS) return;
      for (let i = 0; i < count; i++) values[`${key}#${i}`] = text.slice(i * PART_CHARS, (i + 1) * PART_CHARS);
      // The head goes in the same putAll: a reader sees all parts or a miss.
      values[key] = `${PARTS_PREFIX}${count}`;
    }
    try {
      this.options.store.putAll(values, Math.min(Math.ceil(seconds), 21_600));
    } catch {
      // A full or failing cache never fails the formula it serves.
    }
  }
}
