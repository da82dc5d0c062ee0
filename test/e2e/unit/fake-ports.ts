import type {
  CellsView,
  ClosedMonthLine,
  ColumnsView,
  FailureNoticeView,
  JobView,
  ScheduleView,
  StoreView,
} from '../../../src/contract/sidebar';
import type { CostGapsView } from '../../../src/contract/cost-gaps-text';
import type { SkippedView } from '../../../src/contract/skipped-text';
import type { TieoutView } from '../../../src/contract/tieout-text';
import type { Account } from '../../../src/server/api/types';
import type {
  CapacityFacts,
  ConnectionStatusView,
  SidebarPorts,
  SyncSession,
  SyncStepReport,
} from '../../../src/server/sidebar/ports';
import type { BrokenReason } from '../../../src/server/sidebar/problems';

/** Fake ports recording what the sidebar logic asked of auth, api and sync. */
export interface FakeWorld {
  status: ConnectionStatusView;
  account: () => Account;
  steps: Array<() => SyncStepReport>;
  marked: BrokenReason[];
  refreshes: number;
  store: StoreView | null;
  session: SyncSession | null;
  jobs: JobView[];
  schedule: ScheduleView;
  /** A schedule paused by a lost connection (resumed by resumeSchedule for `pausedFor`'s store). */
  paused: ScheduleView | null;
  pausedFor: string | null;
  /** Account reads: true = asked the service itself, false = the cached answer was allowed. */
  reads: boolean[];
  checkedAt: number | null;
  /** Changed by a test when a run ends elsewhere (latestRunStamp). */
  runStamp: string;
  /** The `connected` argument of each jobs() call. */
  jobsAsked: boolean[];
  capacity: CapacityFacts;
  cells: CellsView;
  /** Windows the sidebar asked the sync module to set. */
  windows: Array<string | null>;
  /** Times this user took over the connection (handOverSchedule). */
  handOvers: number;
  /** What the sync state holds for the sidebar's finance, checks and columns cards. */
  closedMonths: ClosedMonthLine[];
  costGaps: CostGapsView | null;
  failureNotices: FailureNoticeView;
  columns: ColumnsView;
  tieout: TieoutView | null;
  skipped: SkippedView | null;
  ports: SidebarPorts;
}

export const account: Account = {
  store: {
    id: 'st_1',
    name: 'Acme <b>Goods</b>',
    platform: 'shopify',
    shop_domain: 'acme.myshopify.com',
    currency: 'USD',
    timezone: 'America/New_York',
  },
  plan: 'starter',
  connection: { client_id: 'c', scopes: ['store:read'] },
  data_availability: {
    history_days: 90,
    available_from: '2026-08-23',
    last_sync_at: '2026-11-21T16:00:00Z',
    stale: false,
  },
  rate_limits: {
    burst_per_minute: 60,
    hourly: 1000,
    daily: 10000,
    concurrent_requests: 2,
    client_global_per_minute: 200,
  },
};

const brokenMessages: Record<BrokenReason, string> = {
  revoked: 'turned off in Merchant Analytics',
  store_changed: 'now reads another store',
  invalid_claims: 'not tied to a store',
  missing_scope: 'approve all of them',
  lapsed: 'lapsed',
};

export function fakeWorld(): FakeWorld {
  const world: FakeWorld = {
    status: { state: 'connected', message: 'Connected.', action: null },
    account: () => account,
    steps: [],
    marked: [],
    refreshes: 0,
    store: null,
    session: null,
    jobs: [
      {
        job: 'orders',
        label: 'Orders',
        lastRunAt: null,
        outcome: null,
        rows: 0,
        counts: null,
        message: null,
        past: false,
      },
    ],
    schedule: { mode: 'hourly', hour: null, timeZone: 'Europe/Berlin', note: null },
    paused: null,
    pausedFor: null,
    reads: [],
    checkedAt: null,
    jobsAsked: [],
    runStamp: '',
    capacity: { ordersWindow: null, stopped: false, estimate: null, today: '2026-11-21' },
    cells: { used: 100, limit: 10_000_000, percent: 0, warn: false, ordersWindow: null, offer: null },
    windows: [],
    handOvers: 0,
    closedMonths: [],
    costGaps: null,
    failureNotices: { on: false, email: null },
    columns: { tables: [], fit: null, filling: null },
    tieout: null,
    skipped: null,
    ports: undefined as unknown as SidebarPorts,
  };
  world.ports = {
    connection: {
      status: () => world.status,
      authorizationUrl: () => 'http://127.0.0.1:1/authorize?state=x',
      disconnect: () => {
        world.status = { state: 'not_connected', message: 'Not connected.', action: 'connect' };
      },
      markBroken: (reason) => {
        world.marked.push(reason);
        world.status = { state: reason, message: brokenMessages[reason], action: 'reconnect' };
      },
      refreshProactively: () => {
        world.refreshes++;
      },
    },
    account: {
      account: ({ fresh }) => {
        world.reads.push(fresh);
        return world.account();
      },
    },
    sync: {
      runStep: () => {
        const next = world.steps.shift();
        if (!next) throw new Error('test ran more steps than it scripted');
        return next();
      },
      latestRunStamp: () => world.runStamp,
      jobs: (connected) => {
        world.jobsAsked.push(connected);
        return world.jobs;
      },
      schedule: () => world.schedule,
      setSchedule: (request) => {
        const hour = request.mode === 'daily' ? request.hour : null;
        world.schedule = { mode: request.mode, hour, timeZone: 'Europe/Berlin', note: null };
        return world.schedule;
      },
      resumeSchedule: (storeId) => {
        if (!world.paused || world.pausedFor !== storeId) return null;
        world.schedule = { ...world.paused, note: { kind: 'resumed', message: 'Automatic sync resumed.' } };
        world.paused = null;
        return world.schedule;
      },
      pauseSchedule: () => {
        if (world.schedule.mode !== 'off') world.paused = world.schedule;
        world.schedule = {
          mode: 'off',
          hour: null,
          timeZone: 'Europe/Berlin',
          note: { kind: 'paused', message: 'Automatic sync is off until you reconnect.' },
        };
        return world.schedule;
      },
      handOverSchedule: () => {
        world.handOvers++;
      },
      capacity: () => world.capacity,
      closedMonths: () => world.closedMonths,
      costGaps: () => world.costGaps,
      failureNotices: () => world.failureNotices,
      columns: () => world.columns,
      tieout: () => world.tieout,
      skipped: () => world.skipped,
      storeFull: () => null,
      setOrdersWindow: (createdAfter) => {
        world.windows.push(createdAfter);
        world.capacity = { ...world.capacity, ordersWindow: createdAfter, stopped: false, estimate: null };
      },
    },
    sheets: { cells: () => world.cells },
    memory: {
      lastStore: () => world.store,
      rememberStore: (store) => {
        world.store = store;
      },
      syncSession: () => world.session,
      setSyncSession: (session) => {
        world.session = session;
      },
      lastConnectionCheck: () => world.checkedAt,
      noteConnectionCheck: (at) => {
        world.checkedAt = at;
      },
    },
  };
  return world;
}
