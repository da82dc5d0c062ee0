import { checkPropertySize } from '../platform/property-size';
import type { ColumnsState } from './columns-state';
import type { BasisState, ClosedMonthRecord, CostGapsState, TieoutState } from './finance-state';
import type { RunRecord, SkippedState } from './run-records';
import type { SheetsBasis } from './sheets-basis';

/**
 * Sync state in document properties (one JSON value per job), read once per execution and
 * written once per page — always AFTER the data it covers is in the sheet.
 */

export interface OrdersState {
  /** Max updated_at written (RFC 3339); null before the first page. */
  watermark: string | null;
  /** Optional created_after window (YYYY-MM-DD) chosen when the full history would not fit. */
  createdAfter: string | null;
  /** True once a run has paged to the end of the feed. */
  caughtUp: boolean;
  /** Keyed rows of Orders and Line items after the last page written: fewer at the next run means the user deleted rows. */
  rowCounts: { orders: number; lineItems: number } | null;
  /**
   * The oldest updated_at of the first page a first sync read (the watermark was empty): where the
   * feed's time runs from, so the progress of a first full sync is known from its first page.
   * Absent in state saved by older versions.
   */
  feedFrom?: string | null;
}

export interface ProductsState {
  watermark: string | null;
  caughtUp: boolean;
}

export interface DailyState {
  /** True once the full history within the plan window has been fetched. */
  historyDone: boolean;
  /** During the first backfill: the next start_date to fetch. */
  resumeFrom: string | null;
  trailingDays: number;
  /** Earliest placement date of an order written since the last daily run (its day changed). */
  dirtyFrom: string | null;
  /** During the first backfill: the day it began from (for progress across executions). */
  backfillFrom: string | null;
  /**
   * The latest change marker (RFC 3339) read among orders placed before the orders window
   * (the days before the window). Absent in state saved by older versions.
   */
  beforeWindowWatermark?: string | null;
}

export interface ReconcileState {
  /** Epoch ms when the pass in progress started (rows not written since then are gone). */
  passStartedAt: number | null;
  /**
   * How far the pass in progress has read, oldest change first. A cursor is valid for one
   * pagination run only (spec 4.4 rule 3), so a pass that spans executions resumes from here.
   */
  watermark: string | null;
  /**
   * The plan window the pass's pages were read under (meta.history_available_from; null =
   * unlimited), or absent before its first page. Only orders inside it can be judged gone.
   */
  passWindow?: { from: string | null } | null;
  lastCompletedAt: number | null;
  intervalDays: number;
}

export interface MetaState {
  historyAvailableFrom: string | null;
  truncated: boolean;
  storeTimeZone: string | null;
  storeCurrency: string | null;
  /** The name of the store these sheets hold, as the service gave it at the last run (absent in older state). */
  storeName?: string | null;
}

/** What the orders backfill was estimated to need before it started (the backfill estimate). */
export interface BackfillEstimate {
  /** The created_after window the estimate was made for (null = the whole plan window). */
  createdAfter: string | null;
  /** First day of the order rate the estimate assumes (YYYY-MM-DD, store time zone). */
  rateFrom: string;
  today: string;
  orders: number;
  cellsPerOrder: number;
  neededCells: number;
  freeCells: number;
  fits: boolean;
  /** A created_after that would fit at the same order rate, or null when everything fits. */
  suggestedFrom: string | null;
}

export interface CapacityState {
  /** When a sync last stopped because the next page would not fit (epoch ms), else null. */
  stoppedAt: number | null;
  estimate: BackfillEstimate | null;
}

export interface SyncState {
  orders: OrdersState;
  products: ProductsState;
  daily: DailyState;
  reconcile: ReconcileState;
  meta: MetaState;
  capacity: CapacityState;
  /** The Sync log row of the run in progress (so a run ended by the time limit is marked next time). */
  openLogRow: number | null;
  lastRuns: RunRecord[];
  /** Closed months and what moved in them, as of the last sync that checked (newest month first). */
  closedMonths: ClosedMonthRecord[];
  basis: BasisState;
  sheetsBasis: SheetsBasis;
  tieout: TieoutState;
  costGaps: CostGapsState;
  columns: ColumnsState;
  skipped: SkippedState;
}

export type SyncStateKey = keyof SyncState;

const PREFIX = 'ma.sync.';
const DEFAULTS: SyncState = {
  orders: { watermark: null, createdAfter: null, caughtUp: false, rowCounts: null },
  products: { watermark: null, caughtUp: false },
  daily: { historyDone: false, resumeFrom: null, trailingDays: 60, dirtyFrom: null, backfillFrom: null },
  reconcile: { passStartedAt: null, watermark: null, passWindow: null, lastCompletedAt: null, intervalDays: 7 },
  meta: { historyAvailableFrom: null, truncated: false, storeTimeZone: null, storeCurrency: null },
  capacity: { stoppedAt: null, estimate: null },
  openLogRow: null,
  lastRuns: [],
  closedMonths: [],
  basis: { text: null, checkedAt: null },
  sheetsBasis: { basis: null, previous: null, refreshingSince: null },
  tieout: { checkedAt: null, days: 0, failedDays: [], failedCount: 0, rows: 0, cutFrom: null },
  costGaps: { orders: 0, netRevenue: 0, ordersCounted: 0, otherCurrencies: [], checkedAt: null },
  columns: { choice: {}, layouts: {}, fill: null },
  skipped: { orders: [], products: [], days: [] },
};

/** Where state lives: document properties in Apps Script, a map in unit tests. */
export interface PropertyStoreLike {
  getProperties(): Record<string, string>;
  getProperty(key: string): string | null;
  setProperty(key: string, value: string): unknown;
  /** One write for several keys (Apps Script's Properties has it; a unit test's map may not). */
  setProperties?(properties: Record<string, string>): unknown;
}

/**
 * Parts only a sync run writes, under the document lock (the runner reads the state under it; the
 * sidebar never writes them): an update merges into this execution's copy without a read. The
 * sheets' basis, the skipped records and the reconciliation pass are written by the run's jobs
 * only (nothing outside a run sets the reconciliation's interval: it keeps its default).
 */
const RUN_ONLY: ReadonlySet<SyncStateKey> = new Set<SyncStateKey>([
  'meta',
  'products',
  'sheetsBasis',
  'skipped',
  'reconcile',
]);

export class SyncStateStore {
  private readonly state: SyncState;
  /** Every document property as this store's one whole read found them (other readers of the same moment use it: no second read). */
  readonly readAtStart: Readonly<Record<string, string>>;

  /** `wholeRead`: the store's whole read this execution made a moment ago, under the same lock (no second read). */
  constructor(
    private readonly store: PropertyStoreLike,
    wholeRead?: Readonly<Record<string, string>>,
  ) {
    const all = wholeRead ?? store.getProperties();
    this.readAtStart = all;
    const read = <K extends SyncStateKey>(key: K): SyncState[K] => parseState(key, all[PREFIX + key]);
    this.state = {
      orders: read('orders'),
      products: read('products'),
      daily: read('daily'),
      reconcile: read('reconcile'),
      meta: read('meta'),
      capacity: read('capacity'),
      openLogRow: read('openLogRow'),
      lastRuns: read('lastRuns'),
      closedMonths: read('closedMonths'),
      basis: read('basis'),
      sheetsBasis: read('sheetsBasis'),
      tieout: read('tieout'),
      costGaps: read('costGaps'),
      columns: read('columns'),
      skipped: read('skipped'),
    };
  }

  get<K extends SyncStateKey>(key: K): SyncState[K] {
    return this.state[key];
  }

  /** One part as this store's whole read found it, before anything this execution wrote. */
  atStart<K extends SyncStateKey>(key: K): SyncState[K] {
    return parseState(key, this.readAtStart[PREFIX + key]);
  }

  /**
   * Saves one part of the state (one property write); none when the part already holds exactly
   * that (as read, reloaded or last saved: a run that found nothing new rewrites no checkpoint).
   */
  save<K extends SyncStateKey>(key: K, value: SyncState[K]): void {
    const text = checkPropertySize(PREFIX + key, JSON.stringify(value));
    if (JSON.stringify(this.state[key]) === text) return;
    this.state[key] = value;
    this.store.setProperty(PREFIX + key, text);
  }

  /**
   * Saves several parts together: one property write (one billed call) where `save` per part
   * would make one each, for parts a run changes at the same moment.
   */
  saveAll(parts: Partial<SyncState>): void {
    const texts: Record<string, string> = {};
    for (const key of Object.keys(parts) as SyncStateKey[])
      texts[PREFIX + key] = checkPropertySize(PREFIX + key, JSON.stringify(parts[key]));
    Object.assign(this.state, parts);
    if (this.store.setProperties) this.store.setProperties(texts);
    else for (const [key, text] of Object.entries(texts)) this.store.setProperty(key, text);
  }

  /**
   * Merges `patch` into what is stored NOW, not into this execution's copy: a setting the sidebar
   * changed while a sync runs (orders window, reconciliation interval) is never overwritten by the
   * run's next checkpoint. One property read per update, the price of not losing a setting (none
   * for the parts only a locked sync run writes).
   */
  update<K extends SyncStateKey>(key: K, patch: Partial<SyncState[K]>): void {
    const stored = RUN_ONLY.has(key) ? this.state[key] : this.reload(key);
    this.save(key, { ...(stored as object), ...(patch as object) } as SyncState[K]);
  }

  /** Reads one part of the state again (another execution may have written it since). */
  reload<K extends SyncStateKey>(key: K): SyncState[K] {
    const fresh = parseState(key, this.store.getProperty(PREFIX + key) ?? undefined);
    this.state[key] = fresh;
    return fresh;
  }
}

/** One part of the state with one property read (a formula cell reads only what it needs, not every key). */
export function readStateValue<K extends SyncStateKey>(
  store: Pick<PropertyStoreLike, 'getProperty'>,
  key: K,
): SyncState[K] {
  return parseState(key, store.getProperty(PREFIX + key) ?? undefined);
}

function parseState<K extends SyncStateKey>(key: K, raw: string | undefined): SyncState[K] {
  if (raw === undefined) return clone(DEFAULTS[key]);
  try {
    const parsed = JSON.parse(raw) as SyncState[K];
    const fallback = DEFAULTS[key];
    return isPlainObject(fallback) && isPlainObject(parsed)
      ? (Object.assign({}, fallback, parsed) as SyncState[K])
      : parsed;
  } catch {
    // A damaged value restarts that job from scratch: upserts make that safe, never lossy.
    return clone(DEFAULTS[key]);
  }
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
