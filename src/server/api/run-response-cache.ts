import { LOW_BUDGET_KEY, type CacheLike } from './response-cache';

/**
 * The response cache of one sync run: answers are kept for the rest of the execution (as long as
 * their Cache-Control allows) and put in the document cache only when the run ends with more to do
 * (share), for the execution that continues it. A put is the dearest storage call (CacheService put
 * ~100 ms, apps-script-cost-model.md, more than a request's ~60 ms), and a run that caught up is read
 * after by nothing within the answers' max-age but the next run, an hour later. Answers the previous
 * step shared are still read from the document cache; the hourly budget's low reading is shared at
 * once (later executions must see it).
 */
export interface RunResponseCache extends CacheLike {
  /** Puts the answers kept and still fresh in the document cache, for their remaining max-age. */
  share(): void;
}

/**
 * `lookInShared` false: no answer of this run can be in the document cache (its keys carry the
 * connection and no scope: only a run that ended with more to do shares them), so only the hourly
 * budget's reading is looked up there; the run still shares its answers if it ends with more to do.
 */
export function runResponseCache(
  shared: CacheLike | null,
  now: () => number = () => Date.now(),
  lookInShared = true,
): RunResponseCache {
  const kept = new Map<string, { value: string; until: number }>();
  return {
    get(key) {
      const hit = kept.get(key);
      if (hit && hit.until > now()) return hit.value;
      return shared && (lookInShared || key.indexOf(LOW_BUDGET_KEY) === 0) ? shared.get(key) : null;
    },
    put(key, value, seconds) {
      if (key.indexOf(LOW_BUDGET_KEY) === 0) shared?.put(key, value, seconds);
      else kept.set(key, { value, until: now() + seconds * 1000 });
    },
    share() {
      if (!shared) return;
      for (const [key, { value, until }] of kept) {
        const seconds = Math.floor((until - now()) / 1000);
        if (seconds > 0) shared.put(key, value, seconds);
      }
      kept.clear();
    },
  };
}
