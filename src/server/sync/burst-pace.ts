/**
 * Keeps a feed's pages under the API's burst limit (spec 8.1: 60 requests a minute per store,
 * a sliding minute on the service) instead of running into it: a 429 costs a request of the
 * hourly allowance and, in a Sync now step, ends the step with a wait that nothing fills. Before
 * each page the feed asks how long until one more request fits; it fills that time with the
 * writes it has queued, and waits only for what is left.
 *
 * The instants of the minute's requests are kept in the document cache when an execution ends
 * with a busy minute, so the next execution (the next Sync now step) starts where this one left.
 * Requests of other executions (a formula cell, the sidebar) are not known here: a 429 they cause
 * is still met by the transport's Retry-After wait.
 */
const MINUTE_MS = 60_000;
/** Spec 8.1, burst. */
const REQUESTS_PER_MINUTE = 60;
const CACHE_KEY = 'ma.apiMinute';
/** A minute holding fewer requests than this needs no hand-over: the next execution cannot fill it first. */
const HAND_OVER_FROM = REQUESTS_PER_MINUTE / 3;

export interface BurstPaceDeps {
  now(): number;
  /** Requests this execution's API client has sent so far (cache hits not counted). */
  sent(): number;
  cache: GoogleAppsScript.Cache.Cache | null;
}

export class BurstPace {
  /** Instants of requests sent in the last minute, oldest first. */
  private times: number[] = [];
  private counted = 0;
  /** The feed stopped because the wait did not fit its budget. */
  stoppedFeed = false;

  constructor(private readonly deps: BurstPaceDeps) {
    this.times = readHandOver(deps.cache, deps.now());
  }

  /** Milliseconds until one more request stays within the minute's limit (0: send now). */
  waitMs(): number {
    const now = this.deps.now();
    this.noteSent(now);
    const times = this.recent(now);
    if (times.length < REQUESTS_PER_MINUTE) return 0;
    return Math.max(0, times[times.length - REQUESTS_PER_MINUTE] + MINUTE_MS - now);
  }

  /** Keeps the minute for the next execution when it is busy enough to matter. */
  handOver(): void {
    const now = this.deps.now();
    this.noteSent(now);
    const times = this.recent(now);
    if (!this.deps.cache || times.length < HAND_OVER_FROM) return;
    const seconds = Math.max(1, Math.ceil((times[times.length - 1] + MINUTE_MS - now) / 1000));
    try {
      this.deps.cache.put(CACHE_KEY, JSON.stringify(times), seconds);
    } catch {
      // The cache is an optimisation: without it the next execution meets a 429 and waits it out.
    }
  }

  /**
   * Requests sent since the last look are taken as sent now: later than they were, so the minute
   * is freed later, never sooner.
   */
  private noteSent(now: number): void {
    const sent = this.deps.sent();
    for (; this.counted < sent; this.counted++) this.times.push(now);
  }

  private recent(now: number): number[] {
    let drop = 0;
    while (drop < this.times.length && this.times[drop] <= now - MINUTE_MS) drop++;
    if (drop > 0) this.times = this.times.slice(drop);
    return this.times;
  }
}

function readHandOver(cache: GoogleAppsScript.Cache.Cache | null, now: number): number[] {
  if (!cache) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(cache.get(CACHE_KEY) ?? '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  // Only instants of the last minute, in order: anything else in the cache is ignored.
  return parsed
    .filter((t): t is number => typeof t === 'number' && Number.isFinite(t) && t > now - MINUTE_MS && t <= now)
    .sort((a, b) => a - b);
}
