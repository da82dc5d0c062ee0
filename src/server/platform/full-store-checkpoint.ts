/**
 * The run's writes into a document store Google refuses as full (500 KB a store). The Orders day
 * sums are a saving, not a record (a tie-out without them reads the Orders sheet whole): they are
 * dropped to make room, and the write is made again. When that is not enough, the run ends in the
 * add-on's words (DocumentStoreFullError); the closing checkpoints that meet the full store after
 * it keep their writes held, so a later one that finds room stores them all together.
 */
import { DocumentStoreFullError } from './document-store-full';
import { isPropertyStoreFull } from './owner-copy-full';

type Properties = GoogleAppsScript.Properties.Properties;

const DAY_SUMS_KEY = 'ma.orderSums';
export const isDaySumsKey = (key: string): boolean => key === DAY_SUMS_KEY || key.indexOf(`${DAY_SUMS_KEY}.`) === 0;

export class FullStoreCheckpoint {
  /** The day sums were dropped in this run: the run writes them no more. */
  dropped = false;
  private reported = false;

  /**
   * A checkpoint's one setProperties (without the day sums once dropped); false when the store
   * stays full after the run said so (the caller holds the writes again).
   */
  checkpoint(store: Properties, set: Record<string, string>): boolean {
    return this.withRoom(store, true, () => {
      const values: Record<string, string> = {};
      for (const key of Object.keys(set)) if (!(this.dropped && isDaySumsKey(key))) values[key] = set[key]!;
      if (Object.keys(values).length > 0) store.setProperties(values);
    });
  }

  /** A write made at once (not held): refused even without the day sums, it ends the run in the add-on's words. */
  direct(store: Properties, write: () => void): void {
    this.withRoom(store, false, write);
  }

  private withRoom(store: Properties, quietOnceSaid: boolean, write: () => void): boolean {
    try {
      write();
      return true;
    } catch (e) {
      if (!isPropertyStoreFull(e)) throw e;
    }
    // Dropped from the store, and from this write when it carries them (sums rebuilt by this run).
    if (!this.dropped) {
      this.dropDaySums(store);
      try {
        write();
        return true;
      } catch (e) {
        if (!isPropertyStoreFull(e)) throw e;
      }
    }
    if (!this.reported || !quietOnceSaid) {
      this.reported = true;
      throw new DocumentStoreFullError();
    }
    console.warn(`[properties] ${new DocumentStoreFullError().userMessage}`);
    return false;
  }

  /** Deletes every day sums key stored: without its stamp, the next tie-out reads Orders whole. */
  private dropDaySums(store: Properties): void {
    this.dropped = true;
    const keys = store.getKeys().filter(isDaySumsKey);
    // The stamp first: a run killed part way leaves values no stamp names, which nothing reads.
    keys.sort((a, b) => (a === DAY_SUMS_KEY ? -1 : b === DAY_SUMS_KEY ? 1 : 0));
    for (const key of keys) store.deleteProperty(key);
  }
}
