import type { EmulatorClock } from './clock.js';
import { generateMerchant, type GeneratedStore } from './data/generate.js';
import type { StoreRecord } from './data/model.js';
import type { StoreData } from './data/store-data.js';
import type { EmulatorOptions } from './options.js';
import { SeededRandom } from './random.js';
import { addDays, localDate, startOfLocalDay } from './timezone.js';

const HOUR_MS = 3_600_000;
const HISTORY_DAYS = { starter: 90, pro: 365, plus: null } as const;

/** The emulator's whole data state: the merchant's stores and the change-marker policy. */
export class EmulatorState {
  private stores: GeneratedStore[] = [];
  private lateWriterMaxMs = 0;
  private lateWriterRandom = new SeededRandom(0);
  private resets = 0;
  options: EmulatorOptions;

  constructor(
    readonly clock: EmulatorClock,
    options: EmulatorOptions,
  ) {
    this.options = options;
    this.reset(options);
  }

  /** Regenerates everything from the options (a given `now` also pins the clock there). */
  reset(options: EmulatorOptions): void {
    this.options = options;
    this.resets += 1;
    if (options.now !== null) this.clock.setNow(options.now);
    const anchor = options.now ?? Math.floor(this.clock.now() / HOUR_MS) * HOUR_MS;
    this.stores = generateMerchant(options, anchor);
    this.lateWriterMaxMs = 0;
    this.lateWriterRandom = new SeededRandom(options.seed ^ 0x1a7e);
  }

  /** Counts data generations: cursors issued before a reset are refused after it. */
  get generation(): number {
    return this.resets;
  }

  get defaultStoreId(): string {
    return this.stores[0]!.data.store.id;
  }

  storeRecords(): StoreRecord[] {
    return this.stores.map((s) => s.data.store);
  }

  store(storeId: string): StoreData | undefined {
    return this.stores.find((s) => s.data.store.id === storeId)?.data;
  }

  generated(storeId: string): GeneratedStore | undefined {
    return this.stores.find((s) => s.data.store.id === storeId);
  }

  /** The store holding an order or product id, for control routes that address records directly. */
  storeHolding(ref: { order?: string; product?: string }): StoreData | undefined {
    for (const s of this.stores) {
      if (ref.order !== undefined && s.data.findOrder(ref.order)) return s.data;
      if (ref.product !== undefined && s.data.findProduct(ref.product)) return s.data;
    }
    return undefined;
  }

  setLateWriters(maxBackdateSeconds: number): void {
    this.lateWriterMaxMs = Math.round(maxBackdateSeconds * 1000);
  }

  get lateWriterMaxSeconds(): number {
    return this.lateWriterMaxMs / 1000;
  }

  /**
   * The change marker for a change made now: the clock's now, or with late writers a pseudo-random
   * instant up to the configured backdate before it; never before the record's previous marker.
   */
  nextMarker(previousMs: number): number {
    const backdate =
      this.lateWriterMaxMs > 0 ? Math.floor(this.lateWriterRandom.float() * (this.lateWriterMaxMs + 1)) : 0;
    return Math.max(this.clock.now() - backdate, previousMs + 1);
  }

  /** Plan history window of a store: the earliest included local date, or null when unlimited. */
  historyWindow(store: StoreRecord): { days: number | null; from: string | null; fromMs: number } {
    const days = HISTORY_DAYS[store.plan];
    if (days === null) return { days, from: null, fromMs: -Infinity };
    const from = addDays(localDate(this.clock.now(), store.timezone), -days);
    return { days, from, fromMs: startOfLocalDay(from, store.timezone) };
  }
}
