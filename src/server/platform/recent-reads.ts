import { SETTING_KEYS } from './held-writes';

/**
 * Document properties an execution reads several times within moments (the connection record from
 * the auth service, the sidebar's session and the run's start; the shared access token; the store
 * tag; the schedule), each read a billed Properties call (40 ms, apps-script-cost-model.md). A read
 * within RECENT_READ_MS of the previous read of the same key in this execution gives that value
 * again; any write through this execution's store forgets it at once, and so does taking a lock
 * (forgetRecentReads). Another execution's write is seen by the first read
 * after that window: reads that close together race such a write anyway (Google orders nothing
 * between two executions' property calls), so nothing today's code could rely on is lost.
 */
export const RECENT_READ_MS = 1_000;

/** The keys read this way; every other key is read from the store each time. */
const RECENT_READ_KEYS: ReadonlySet<string> = new Set([
  'ma.connection',
  'ma.connectionCopied',
  'ma.accessToken',
  'ma.storeTag',
  'ma.storeTagName',
  'ma.sync.schedule',
  'ma.sync.schedule.suspended',
  // The token an older version kept in the document: read once per execution before any token use.
  'oauth2.merchant-analytics',
  // The state parts the sidebar also writes, read again before a run merges into them (SyncStateStore.update):
  // within a second of the run's whole read under its lock, that read is as fresh. What the run merges is
  // held until its next checkpoint anyway, so a setting written meanwhile was never safer than this.
  'ma.sync.orders',
  'ma.sync.daily',
  'ma.sync.capacity',
  'ma.sync.columns',
]);

export class RecentReads {
  private readonly reads = new Map<string, { at: number; value: string | null }>();
  /**
   * The last whole read (getProperties) and this execution's writes since: a whole read again within
   * RECENT_READ_MS gives it (a run's close takes the busy notes, then its owner's copy is taken from
   * the same moment's store, moments apart under the lock).
   */
  private whole: { at: number; values: Record<string, string> } | null = null;

  constructor(private readonly now: () => number = () => Date.now()) {}

  /**
   * `readAll`: a setting part the run merges into (SyncStateStore.update; SETTING_KEYS), each read
   * again at its own moment of the run (the orders checkpoint, the daily job), is read with the whole
   * store, so those within the next second (and the close's busy notes and owner copy) need none.
   * Past 16 KB a whole read is billed per span (apps-script-cost-model.md), yet the parts read alone
   * cost more: on the 1k bench store (two spans) the hourly run's whole read also serves its owner
   * copy, 1.16 s of Properties calls against 1.24 s; at 10k (three spans) 1.62 s against 1.58 s.
   */
  get(key: string, read: () => string | null, readAll?: () => Record<string, string>): string | null {
    if (!RECENT_READ_KEYS.has(key)) return read();
    const recent = this.reads.get(key);
    const at = this.now();
    if (recent && at - recent.at < RECENT_READ_MS) return recent.value;
    if (readAll && SETTING_KEYS.has(key)) return this.getAll(readAll)[key] ?? null;
    const value = read();
    this.reads.set(key, { at, value });
    return value;
  }

  /** True when `key` was read within RECENT_READ_MS (the next read of it makes no call). */
  isFresh(key: string): boolean {
    const recent = this.reads.get(key);
    return recent !== undefined && this.now() - recent.at < RECENT_READ_MS;
  }

  /** Every property, from `read` or from a whole read within RECENT_READ_MS (with this execution's writes since). */
  getAll(read: () => Record<string, string>): Record<string, string> {
    if (this.whole && this.now() - this.whole.at < RECENT_READ_MS) return { ...this.whole.values };
    const all = read();
    this.seed(all);
    return all;
  }

  /** A whole read of the store (getProperties) is a read of each of these keys at that moment. */
  seed(all: Readonly<Record<string, string>>): void {
    const at = this.now();
    for (const key of RECENT_READ_KEYS) this.reads.set(key, { at, value: all[key] ?? null });
    this.whole = { at, values: { ...all } };
  }

  /** This execution wrote `keys` (null: every key, or none known: forget everything). */
  forget(keys: readonly string[] | null): void {
    if (keys === null) {
      this.reads.clear();
      this.whole = null;
    } else for (const key of keys) this.reads.delete(key);
  }

  /** This execution stored `values` (null: deleted) through the store: the whole read follows them. */
  wrote(values: Readonly<Record<string, string | null>>): void {
    this.forget(Object.keys(values));
    if (!this.whole) return;
    for (const [key, value] of Object.entries(values))
      if (value === null) delete this.whole.values[key];
      else this.whole.values[key] = value;
  }
}
