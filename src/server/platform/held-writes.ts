/**
 * The run's state writes, held between checkpoints. A sync run holding the document lock writes its
 * state (checkpoints, day sums, the Sync log's row and records) part by part, each part a billed
 * property write (70 ms, apps-script-cost-model.md: "write checkpoints once per page, not per row").
 * While held, those writes wait in memory and go together as one setProperties at the next
 * checkpoint: a feed's watermark written (CHECKPOINT_KEYS), before every Sheets write request (so
 * whatever the run wrote before a sheet write is stored before it, as when each part was written at
 * once), at the end of a run step that changed a part the sidebar also writes, and before the lock
 * is released. An execution killed between checkpoints loses only writes that came after
 * the last sheet write, as it could before: one setProperties stores all its keys or none.
 *
 * Only the run's own state is held: keys another execution writes while the run holds the lock
 * (cancel, schedule, busy notes) and the connection's keys are written at once.
 *
 * Rows a job leaves to ride along with the run's next sheet write (deferred rows) raise a fence:
 * state written after it covers those rows, so it waits for them. A checkpoint stores only what
 * was held before the fence; once the write that carries the rows is sent, the fence is lifted and
 * what waited is held as any other write. An execution ended before that write loses the rows and
 * the state that covers them together (the next run fetches them again); so does a run whose
 * carrying write never happens (the fence is still up at release).
 */
import { FullStoreCheckpoint, isDaySumsKey } from './full-store-checkpoint';

type Properties = GoogleAppsScript.Properties.Properties;

const HELD_PREFIXES = [
  'ma.sync.',
  'ma.orderSums',
  'ma.costGapDays',
  'ma.formulasOwed',
  'ma.formulaGeneration',
  'ma.reconcile.seen',
];
const NEVER_HELD_PREFIXES = ['ma.sync.schedule', 'ma.sync.cancelAt', 'ma.sync.busy.'];

/**
 * Parts of the run's state the sidebar also writes, without the lock (the orders window, the
 * column choice): held no longer than a run step, so a setting changed meanwhile is overwritten no
 * more often than when each part was written at once (a step writes them at its end anyway).
 */
export const SETTING_KEYS: ReadonlySet<string> = new Set([
  'ma.sync.orders',
  'ma.sync.daily',
  'ma.sync.capacity',
  'ma.sync.columns',
]);

/**
 * A feed's checkpoint: where the next execution resumes reading (the orders, products and
 * reconciliation watermarks). Writing one stores it, and everything held with it, at once: a pass
 * keeps its progress page by page, whether or not its pages write a sheet.
 */
const CHECKPOINT_KEYS: ReadonlySet<string> = new Set(['ma.sync.orders', 'ma.sync.products', 'ma.sync.reconcile']);

/**
 * Writes held at most before they are stored anyway: a pass that writes no sheet for many pages
 * (a reconciliation that finds nothing gone) keeps its progress every few pages, so an execution
 * killed part way never loses more than those (counted, not timed: the same run writes the same).
 */
export const MAX_HELD_WRITES = 20;

export const isRunStateKey = (key: string): boolean =>
  HELD_PREFIXES.some((p) => key.indexOf(p) === 0) && !NEVER_HELD_PREFIXES.some((p) => key.indexOf(p) === 0);

/** `store` with the run's state writes held while holding (hold, checkpoint, release). */
export class HeldWrites {
  /** A key's held value; null: held deleted. */
  private readonly values = new Map<string, string | null>();
  /** Every run-state key written while holding, as last written (null: deleted), stored yet or not. */
  private readonly written = new Map<string, string | null>();
  private holding = false;
  /** Writes made since the fence went up (deferred rows not yet sent), in order; null: no fence. */
  private fenced: Map<string, string | null> | null = null;
  /** Write calls held since the last checkpoint (a key written twice counts twice). */
  private writes = 0;
  /** A setting part (SETTING_KEYS) was written since the run's steps began or the last step ended. */
  private settingWritten = false;
  /** Writes of a feed's key that mark no position (noPosition): held as any other part. */
  private positionless = false;
  /** Writes of any key are held (withRunState). */
  private any = false;
  private readonly full = new FullStoreCheckpoint();

  /**
   * `checkpoints`: where checkpoints store the held state (by default `store`); `released`: called
   * once the release has stored it (the stamp drop the checkpoints owe, properties.ts).
   */
  constructor(
    private readonly store: Properties,
    private readonly checkpoints: Properties = store,
    private readonly released: () => void = () => {},
  ) {}

  hold(): void {
    this.holding = true;
  }

  /** Writes what is held, then stops holding. State behind a fence still up covers rows never sent: dropped. */
  release(): void {
    this.checkpoint();
    this.fenced = null;
    this.holding = false;
    this.released();
  }

  /** From now on, the run's state writes wait for the write that carries the deferred rows (liftFence). */
  fence(): void {
    if (this.holding && this.fenced === null) this.fenced = new Map();
  }

  /** The deferred rows were sent: what waited behind the fence is held from now on, as any write. */
  liftFence(): void {
    const waited = this.fenced;
    this.fenced = null;
    if (waited === null || waited.size === 0) return;
    // Held, not stored at once: the next checkpoint (a sheet write, the step's end, the release) stores it.
    for (const [key, value] of waited) {
      this.values.delete(key);
      this.values.set(key, value);
    }
    this.writes += 1;
  }

  /**
   * The run's steps begin: the setting parts the run's start wrote (the column layouts for new
   * sheets) wait for the first checkpoint of the steps, at the latest the Sheets write of the first
   * page moments later, instead of a write of their own at the end of the first step (70 ms,
   * apps-script-cost-model.md). The start read them under the lock a moment before.
   */
  beginSteps(): void {
    this.settingWritten = false;
  }

  /** At the end of a run step that wrote a setting part (SETTING_KEYS): writes what is held when one is among it. */
  stepCheckpoint(): void {
    const wrote = this.settingWritten;
    this.settingWritten = false;
    if (!wrote) return;
    for (const key of this.values.keys()) {
      if (!SETTING_KEYS.has(key)) continue;
      this.checkpoint();
      return;
    }
  }

  /**
   * Runs `write` with its writes held as the run's state, whatever their keys: for a key other
   * executions read that may wait for the run's next checkpoint (before its first sheet write).
   */
  withRunState(write: () => void): void {
    this.any = this.holding;
    try {
      write();
    } finally {
      this.any = false;
    }
  }

  /**
   * Runs `write` with the writes of a feed's key held as any other part: for a mark that is no
   * position to resume from (the first backfill noted as a full pass), which a run ended before the
   * next checkpoint makes again. It goes with that checkpoint, not in a write of its own.
   */
  noPosition(write: () => void): void {
    this.positionless = true;
    try {
      write();
    } finally {
      this.positionless = false;
    }
  }

  /** Writes every held key: one setProperties for the values, one delete per deleted key. */
  checkpoint(): void {
    if (this.values.size === 0) return;
    const set: Record<string, string> = {};
    const deleted: string[] = [];
    for (const [key, value] of this.values) {
      if (value === null) deleted.push(key);
      else set[key] = value;
    }
    const held = [...this.values];
    this.values.clear();
    this.writes = 0;
    let stored = false;
    try {
      stored = this.full.checkpoint(this.checkpoints, set);
    } finally {
      // Refused: held again (under what was written since), for a later checkpoint to store together.
      if (!stored) for (const [key, value] of held) if (!this.values.has(key)) this.values.set(key, value);
    }
    if (!stored) return;
    for (const key of deleted) if (!(this.full.dropped && isDaySumsKey(key))) this.checkpoints.deleteProperty(key);
  }

  /** The Orders day sums were dropped to make room in a full store (FullStoreCheckpoint). */
  daySumsDropped(): boolean {
    return this.full.dropped;
  }

  /** Holds one call's writes (together: a setProperties stays one write); past MAX_HELD_WRITES, everything held is stored. */
  private keep(all: ReadonlyArray<[string, string | null]>): void {
    const values = this.full.dropped ? all.filter(([key]) => !isDaySumsKey(key)) : all;
    if (values.some(([key]) => SETTING_KEYS.has(key))) this.settingWritten = true;
    if (this.fenced !== null) {
      for (const [key, value] of values) {
        this.fenced.delete(key);
        this.fenced.set(key, value);
        this.written.set(key, value);
      }
      return;
    }
    for (const [key, value] of values) {
      this.values.set(key, value);
      this.written.set(key, value);
    }
    this.writes += 1;
    if (this.writes >= MAX_HELD_WRITES || (!this.positionless && values.some(([key]) => CHECKPOINT_KEYS.has(key))))
      this.checkpoint();
  }

  /**
   * The run-state keys as stored (or held) now, from a whole read made under the run's lock: only a
   * locked run writes them, so that read and the run's own writes since are the truth (no read again).
   */
  asStoredNow(read: Readonly<Record<string, string>>): Record<string, string> {
    const out = { ...read };
    for (const [key, value] of this.written) {
      if (value === null) delete out[key];
      else out[key] = value;
    }
    return out;
  }

  properties(): Properties {
    const held = (key: string): boolean => this.holding && (this.any || isRunStateKey(key));
    const heldNow = (): Array<Map<string, string | null>> => (this.fenced ? [this.values, this.fenced] : [this.values]);
    const overlay = (all: Record<string, string>): Record<string, string> => {
      if (this.values.size === 0 && !this.fenced?.size) return all;
      const out = { ...all };
      for (const map of heldNow())
        for (const [key, value] of map) {
          if (value === null) delete out[key];
          else out[key] = value;
        }
      return out;
    };
    const heldValue = (key: string): string | null | undefined =>
      this.fenced?.has(key) ? this.fenced.get(key) : this.values.has(key) ? this.values.get(key) : undefined;
    const store = this.store;
    const wrapped = {
      getProperty: (key: string) => {
        const value = heldValue(key);
        return value !== undefined ? value : store.getProperty(key);
      },
      getProperties: () => overlay(store.getProperties()),
      getKeys: () =>
        this.values.size === 0 && !this.fenced?.size ? store.getKeys() : Object.keys(overlay(store.getProperties())),
      setProperty: (key: string, value: string) => {
        if (held(key)) this.keep([[key, String(value)]]);
        else this.full.direct(this.checkpoints, () => store.setProperty(key, value));
        return wrapped;
      },
      setProperties: (properties: Record<string, string>, deleteAllOthers?: boolean) => {
        if (deleteAllOthers !== undefined) {
          this.checkpoint();
          this.full.direct(this.checkpoints, () => store.setProperties(properties, deleteAllOthers));
          return wrapped;
        }
        const now: Record<string, string> = {};
        const later: Array<[string, string]> = [];
        for (const key of Object.keys(properties)) {
          if (held(key)) later.push([key, String(properties[key])]);
          else now[key] = properties[key]!;
        }
        if (Object.keys(now).length > 0) this.full.direct(this.checkpoints, () => store.setProperties(now));
        if (later.length > 0) this.keep(later);
        return wrapped;
      },
      deleteProperty: (key: string) => {
        if (held(key)) this.keep([[key, null]]);
        else store.deleteProperty(key);
        return wrapped;
      },
      deleteAllProperties: () => {
        this.values.clear();
        this.fenced = null;
        this.writes = 0;
        store.deleteAllProperties();
        return wrapped;
      },
    };
    return wrapped as unknown as Properties;
  }
}
