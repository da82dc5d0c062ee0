/**
 * Keeps a feed's pages under the API's burst limit (spec 8.1: 60 requests a minute per store,
 * a sliding minute on the service) instead of running into it: a 429 costs a request of the
 * hourly allowance and, in a Sync now step, ends the step with a wait that nothing fills. Before
 * each page the feed asks how long until one more request fits: the time its writes took since
 * the last page already counts, and it waits only for what is left.
 *
 * A feed that stops before its end hands the minute's request instants to the next execution (the
 * next Sync now step) in a document property, which that execution finds in the state's one read
 * at its start (no read of its own). Requests of other executions (a formula cell, the sidebar)
 * are not known here: a 429 they cause is still met by the transport's Retry-After wait.
 */
const MINUTE_MS = 60_000;
/** Spec 8.1, burst. */
const REQUESTS_PER_MINUTE = 60;
export const API_MINUTE_KEY = 'ma.apiMinute';
/** Spec 8.1, hourly: RateLimit-Remaining counts down from it. */
const REQUESTS_PER_HOUR = 1_000;

export interface BurstPaceDeps {
  now(): number;
  /** Requests this execution's API client has sent so far (cache hits not counted). */
  sent(): number;
  /** What an earlier execution handed over (the property as read at the run's start), or undefined. */
  handedOver: string | undefined;
  /** Keeps the hand-over for the next execution. */
  keep(value: string): void;
  /** The last RateLimit-Remaining (spec 8.1, the hourly budget) an answer carried, null before any. */
  hourlyRemaining?(): number | null;
}

export class BurstPace {
  /** Instants of requests sent in the last minute, oldest first. */
  private times: number[] = [];
  private counted = 0;
  /** The feed stopped because the wait did not fit its budget. */
  stoppedFeed = false;
  /** Without a hand-over, the requests of other executions are still to be counted (at the first answer). */
  private othersCounted: boolean;

  constructor(private readonly deps: BurstPaceDeps) {
    this.times = readHandOver(deps.handedOver, deps.now());
    this.othersCounted = deps.handedOver !== undefined;
  }

  /** Milliseconds until `requests` more requests stay within the minute's limit (0: send now). */
  waitMs(requests = 1): number {
    const now = this.deps.now();
    this.noteSent(now);
    this.noteOthers(now);
    const times = this.recent(now);
    const over = times.length + requests - REQUESTS_PER_MINUTE;
    if (over <= 0) return 0;
    return Math.max(0, times[Math.min(over, times.length) - 1] + MINUTE_MS - now);
  }

  /** Keeps the minute's requests for the next execution (a feed that stopped before its end). */
  handOver(): void {
    const now = this.deps.now();
    this.noteSent(now);
    const times = this.recent(now);
    if (times.length > 0) this.deps.keep(JSON.stringify(times));
  }

  /**
   * Requests sent since the last look are taken as sent now: later than they were, so the minute
   * is freed later, never sooner.
   */
  private noteSent(now: number): void {
    const sent = this.deps.sent();
    for (; this.counted < sent; this.counted++) this.times.push(now);
  }

  /**
   * A document whose feed never handed a minute over (the first Sync now after connecting) does
   * not know the requests other executions sent just before it: the connect's, the sidebar's.
   * The hourly RateLimit-Remaining counts them: those of the hour that are not this run's are
   * taken as sent now, up to a minute's worth (the spec says nothing of when: the stricter
   * reading). Later runs find a hand-over and rely on it.
   */
  private noteOthers(now: number): void {
    if (this.othersCounted || !this.deps.hourlyRemaining) return;
    const remaining = this.deps.hourlyRemaining();
    if (remaining === null) return;
    this.othersCounted = true;
    const others = Math.min(REQUESTS_PER_MINUTE, REQUESTS_PER_HOUR - remaining - this.counted);
    for (let i = 0; i < others; i++) this.times.push(now);
  }

  private recent(now: number): number[] {
    let drop = 0;
    while (drop < this.times.length && this.times[drop] <= now - MINUTE_MS) drop++;
    if (drop > 0) this.times = this.times.slice(drop);
    return this.times;
  }
}

function readHandOver(text: string | undefined, now: number): number[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text ?? '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  // Only instants of the last minute, in order: an older hand-over, or anything else, is ignored.
  return parsed
    .filter((t): t is number => typeof t === 'number' && Number.isFinite(t) && t > now - MINUTE_MS && t <= now)
    .sort((a, b) => a - b);
}
