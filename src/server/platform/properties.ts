import { boundSpreadsheet, MissingContextError } from './context';
import { HeldWrites } from './held-writes';
import { ownerCopyOfDocumentState } from './owner-copy';
import { RecentReads } from './recent-reads';
import { forgetStampIfWatched, isStampKey } from './stamp-cache';

/**
 * The document's properties, obtained once per execution: every PropertiesService call is a
 * billed service call (apps-script-cost-model.md), and each execution starts with fresh module
 * state. Without a document (a scheduled run Google started without it) they cannot be read:
 * the run works on its owner's copy of the document state (the owner copy).
 */
let documentStore: GoogleAppsScript.Properties.Properties | null = null;
/** The run's state writes held between checkpoints, on whichever store documentProperties gave (HeldWrites). */
let heldWrites: HeldWrites | null = null;

export function documentProperties(): GoogleAppsScript.Properties.Properties {
  if (documentStore) return documentStore;
  if (readWhole) {
    const store = PropertiesService.getDocumentProperties();
    if (store) return (documentStore = wholeStateRead(store));
  }
  const real = realDocumentProperties();
  if (real) return (documentStore = real);
  const bound = boundSpreadsheet();
  if (bound) {
    heldWrites = new HeldWrites(ownerCopyOfDocumentState(bound));
    return (documentStore = heldWrites.properties());
  }
  throw new MissingContextError('the document properties', 'this execution has no document');
}

/**
 * A custom function reads the document's state whole, in one call, and nothing after: Sheets lets
 * it read properties, never write them, it runs 30 s at most, and it keys its answers by the
 * generation it read first. Reading the store tag, the generation, the connection and the token
 * one by one was a billed call each per cell: a 200-cell report, re-entered after every hourly sync
 * that changed data, spent more than half a consumer account's 50,000 daily Properties calls.
 */
let readWhole = false;

export function readDocumentStateWhole(): void {
  readWhole = true;
}

function wholeStateRead(store: Properties): Properties {
  let all: Record<string, string> | null = null;
  const read = (): Record<string, string> => (all ??= store.getProperties());
  const wrapped = {
    getProperty: (key: string) => (Object.prototype.hasOwnProperty.call(read(), key) ? read()[key] : null),
    getProperties: () => ({ ...read() }),
    getKeys: () => Object.keys(read()),
    setProperty: () => refuseWrite(),
    setProperties: () => refuseWrite(),
    deleteProperty: () => refuseWrite(),
    deleteAllProperties: () => refuseWrite(),
  };
  return wrapped as unknown as Properties;
}

function refuseWrite(): never {
  throw new Error('A formula reads the document state; it never writes it.');
}

/** From now on the run's state writes wait for the next checkpoint (a sync run, under the document lock). */
export function holdRunStateWrites(): void {
  documentProperties();
  if (heldWrites) heldWrites.hold();
}

/** Writes the run's held state now, in one call: before a Sheets write. */
export function checkpointRunState(): void {
  if (heldWrites) heldWrites.checkpoint();
}

/** The run's steps begin: what its start held waits for their first checkpoint (HeldWrites.beginSteps). */
export function beginRunSteps(): void {
  if (heldWrites) heldWrites.beginSteps();
}

/** `write`'s property writes wait for the run's next checkpoint, as its state does (HeldWrites.withRunState). */
export function writeWithRunState(write: () => void): void {
  if (heldWrites) heldWrites.withRunState(write);
  else write();
}

/** `write` stores a mark that is no position to resume from: held, not a checkpoint of its own (HeldWrites.noPosition). */
export function writeNoPosition(write: () => void): void {
  if (heldWrites) heldWrites.noPosition(write);
  else write();
}

/** At the end of a run step: the held state is written when it changes a setting the sidebar also writes. */
export function checkpointRunStep(): void {
  if (heldWrites) heldWrites.stepCheckpoint();
}

/** Rows were deferred to ride along with the next sheet write: the state written from now on waits for that write. */
export function fenceRunState(): void {
  if (heldWrites) heldWrites.fence();
}

/** The write carrying the deferred rows was sent: the state that waited for it is held as any other. */
export function liftRunStateFence(): void {
  if (heldWrites) heldWrites.liftFence();
}

/** The run dropped the Orders day sums to make room in a full document store (FullStoreCheckpoint). */
export function daySumsDroppedThisRun(): boolean {
  return heldWrites !== null && heldWrites.daySumsDropped();
}

/** Writes the run's held state and stops holding: before the run releases the document lock. */
export function releaseRunStateWrites(): void {
  if (heldWrites) heldWrites.release();
}

/**
 * The run-state keys (isRunStateKey) as stored now, from the run's whole read under its lock and its
 * own writes since (HeldWrites.asStoredNow); without held writes, the store is read.
 */
export function runStateAsStored(readUnderLock: Readonly<Record<string, string>>): Record<string, string> {
  return heldWrites ? heldWrites.asStoredNow(readUnderLock) : documentProperties().getProperties();
}

/** The real document properties, or null in an execution without a document. */
let realKnown = false;
let realStore: GoogleAppsScript.Properties.Properties | null = null;

export function realDocumentProperties(): GoogleAppsScript.Properties.Properties | null {
  if (!realKnown) {
    const store = PropertiesService.getDocumentProperties();
    if (store) {
      const drops = new OwedStampDrop();
      heldWrites = new HeldWrites(stampKeeping(store), stampKeeping(store, drops), () => drops.pay());
    }
    realStore = store && heldWrites ? heldWrites.properties() : null;
    realKnown = true;
  }
  return realStore;
}

type Properties = GoogleAppsScript.Properties.Properties;

/** The real document store's recent reads (RecentReads): one per execution, like the store. */
const recentReads = new RecentReads();

/**
 * Forgets every recent read: called when this execution takes a lock, so that what it reads under
 * the lock is read from the store (another execution may have written it before releasing the lock).
 */
export function forgetRecentReads(): void {
  recentReads.forget(null);
}

/**
 * Before `keys` are read one by one (recent-read keys, RecentReads): one whole read of the real
 * document store instead, unless each was read moments ago. One billed call, not one per key.
 */
export function readRecentTogether(keys: readonly string[]): void {
  const store = realDocumentProperties();
  if (store && !keys.every((key) => recentReads.isFresh(key))) store.getProperties();
}

/**
 * The sidebar's stamp drop a locked run's checkpoints owe, made once when the run releases its
 * state: a Cache.remove is 100 ms (apps-script-cost-model.md), and a first backfill's step
 * checkpoint and its release each dropped it, moments apart. A sidebar polling meanwhile keeps the
 * stamp it cached, at most STAMP_CACHE_SECONDS (stamp-cache.ts: a cached value may go sooner,
 * reference/cache/cache), so a long run's progress still shows within a minute; its end (the
 * release) shows at the next poll, as before. Writes outside checkpoints (the connection's keys)
 * drop it at once.
 */
class OwedStampDrop {
  private owed = false;

  written(keys: readonly string[] | null): void {
    if (keys === null || keys.some(isStampKey)) this.owed = true;
  }

  pay(): void {
    if (!this.owed) return;
    this.owed = false;
    forgetStampIfWatched(null);
  }
}

/**
 * The document store, dropping the sidebar's cached stamp when a write changes what it is made of
 * (the stamp cache; `owed`: dropped later, OwedStampDrop), and giving a key, or the whole store, read
 * moments ago again without a call (RecentReads).
 */
function stampKeeping(store: Properties, owed?: OwedStampDrop): Properties {
  const written = (values: Readonly<Record<string, string | null>> | null): void => {
    if (values === null) recentReads.forget(null);
    else recentReads.wrote(values);
    const keys = values === null ? null : Object.keys(values);
    if (owed) owed.written(keys);
    else forgetStampIfWatched(keys);
  };
  const wrapped = {
    getProperty: (key: string) =>
      recentReads.get(
        key,
        () => store.getProperty(key),
        () => store.getProperties(),
      ),
    getProperties: () => recentReads.getAll(() => store.getProperties()),
    getKeys: () => store.getKeys(),
    setProperty(key: string, value: string) {
      store.setProperty(key, value);
      written({ [key]: value });
      return wrapped;
    },
    setProperties(properties: Record<string, string>, deleteAllOthers?: boolean) {
      if (deleteAllOthers === undefined) store.setProperties(properties);
      else store.setProperties(properties, deleteAllOthers);
      written(deleteAllOthers === true ? null : properties);
      return wrapped;
    },
    deleteProperty(key: string) {
      store.deleteProperty(key);
      written({ [key]: null });
      return wrapped;
    },
    deleteAllProperties() {
      store.deleteAllProperties();
      written(null);
      return wrapped;
    },
  };
  return wrapped as unknown as Properties;
}
