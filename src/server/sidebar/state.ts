import type { ConnectionView, ScheduleView, SidebarState, StoreView } from '../../contract/sidebar';
import { isApiError } from '../api/errors';
import type { Account } from '../api/types';
import type { ConnectionStatusView, SidebarPorts } from './ports';
import { brokenReasonOf, connectionProblem, problemOf } from './problems';
import { windowOfferOf } from './window-offer';

/**
 * How often the sidebar asks the service itself whether the connection works, past the cached
 * account answer (kept up to its max-age, minutes): a revoke then shows within about a minute,
 * as the spec says the service applies it, without a request on every opening.
 */
export const CONNECTION_CHECK_INTERVAL_MS = 60_000;

export function storeViewOf(account: Account): StoreView {
  const store = account.store;
  return {
    id: store.id,
    name: store.name,
    domain: store.shop_domain,
    platform: store.platform,
    currency: store.currency,
    timezone: store.timezone,
  };
}

function connectionView(status: ConnectionStatusView, store: StoreView | null): ConnectionView {
  const view: ConnectionView = { state: status.state, store, problem: connectionProblem(status) };
  if (status.connectedBy !== undefined && status.state !== 'not_connected' && status.state !== 'not_configured') {
    view.connectedBy = status.connectedBy;
    // Absent when Google does not say who the user is (userinfo.email not granted).
    if (status.yours !== undefined) view.yours = status.yours;
  }
  return view;
}

/**
 * The stored connection status; an operator problem is fixed by the operator, not by the merchant,
 * so while it stands each sidebar opening asks the API once (refreshProactively) whether it was fixed.
 */
function recheckedStatus(ports: SidebarPorts): ConnectionStatusView {
  const status = ports.connection.status();
  if (status.state !== 'operator_problem') return status;
  try {
    ports.connection.refreshProactively();
  } catch {
    // The check could not run (busy lock, network): the recorded problem still stands.
    return status;
  }
  return ports.connection.status();
}

/** The account, from the service itself at most once a minute (and whenever a paused schedule waits on it). */
function readAccount(ports: SidebarPorts, now: number, mustConfirm: boolean): Account {
  const last = ports.memory.lastConnectionCheck();
  const fresh = mustConfirm || last === null || now - last >= CONNECTION_CHECK_INTERVAL_MS || now < last;
  if (!fresh) return ports.account.account({ fresh: false });
  try {
    return ports.account.account({ fresh: true });
  } finally {
    // Noted even when it failed: a refusal is recorded, and an outage is not asked again at once.
    ports.memory.noteConnectionCheck(now);
  }
}

/** A lost connection must not keep firing: its schedule is paused (remembered for the reconnect). */
function pausedIfBroken(
  ports: SidebarPorts,
  state: ConnectionStatusView['state'],
  schedule: ScheduleView,
): ScheduleView {
  const broken = state !== 'connected' && state !== 'not_connected' && state !== 'not_configured';
  return broken && schedule.mode !== 'off' ? ports.sync.pauseSchedule() : schedule;
}

/**
 * What the open sidebar polls every few seconds, so a scheduled run, a revoke or a lost
 * connection shows without Reload: the stored connection state and the newest run (document
 * properties only), plus, at most once a minute, the service's own word on the connection (the
 * same check getSidebarState makes). The sidebar reloads its state only when this changes.
 */
export function sidebarStamp(ports: SidebarPorts, now: number = Date.now()): string {
  let status = ports.connection.status();
  const last = ports.memory.lastConnectionCheck();
  if (status.state === 'connected' && (last === null || now - last >= CONNECTION_CHECK_INTERVAL_MS || now < last)) {
    try {
      readAccount(ports, now, true);
    } catch (error) {
      const reason = isApiError(error) ? brokenReasonOf(error) : null;
      if (reason) ports.connection.markBroken(reason);
    }
    status = ports.connection.status();
  }
  return `${status.state}|${ports.sync.latestRunStamp()}`;
}

/**
 * The whole sidebar, with the stamp it answers to: the sidebar compares later stamps with this one,
 * so a run that ends or a connection that breaks after this read is never taken as already shown.
 * The runs part is taken before the runs are read (a run ending meanwhile shows as a change), the
 * connection part after the connection was checked (what this state shows).
 */
export function sidebarState(ports: SidebarPorts, now: number = Date.now()): SidebarState {
  const runs = ports.sync.latestRunStamp();
  const state = stateOf(ports, now);
  return { ...state, stamp: `${ports.connection.status().state}|${runs}` };
}

/** The connection checked against the API when connected, plus sync, schedule and size. */
function stateOf(ports: SidebarPorts, now: number): SidebarState {
  const base: SidebarState = {
    connection: { state: 'not_configured', store: null, problem: null },
    plan: null,
    freshness: null,
    jobs: [],
    schedule: { mode: 'off', hour: null, timeZone: null, note: null },
    cells: ports.sheets.cells(),
    problem: null,
    closedMonths: [],
  };
  const status = recheckedStatus(ports);
  if (status.state === 'not_configured') return { ...base, connection: connectionView(status, null) };
  const facts = ports.sync.capacity();
  const cells = { ...base.cells, ordersWindow: facts.ordersWindow, offer: windowOfferOf(base.cells, facts) };
  const closedMonths = ports.sync.closedMonths();
  const costGaps = ports.sync.costGaps();
  const failureNotices = ports.sync.failureNotices();
  const tieout = ports.sync.tieout();
  const skipped = ports.sync.skipped();
  const columns = ports.sync.columns();
  const storeFull = ports.sync.storeFull();
  const withSync = (connected: boolean, schedule: ScheduleView): SidebarState => ({
    ...base,
    problem: storeFull,
    cells,
    jobs: ports.sync.jobs(connected),
    schedule,
    closedMonths,
    costGaps,
    failureNotices,
    tieout,
    skipped,
    columns,
  });
  const schedule = pausedIfBroken(ports, status.state, ports.sync.schedule());
  const lastStore = ports.memory.lastStore();
  // A broken connection names the store it read; "not connected" names none.
  if (status.state === 'not_connected')
    return { ...withSync(false, schedule), connection: connectionView(status, null) };
  if (status.state !== 'connected')
    return { ...withSync(false, schedule), connection: connectionView(status, lastStore) };
  try {
    ports.connection.refreshProactively();
    const account = readAccount(ports, now, schedule.note !== null && schedule.note.kind === 'paused');
    const store = storeViewOf(account);
    ports.memory.rememberStore(store);
    const availability = account.data_availability;
    return {
      ...withSync(true, ports.sync.resumeSchedule(store.id) ?? schedule),
      connection: connectionView(status, store),
      plan: {
        name: account.plan ?? null,
        historyAvailableFrom: availability.available_from ?? null,
        historyDays: availability.history_days ?? null,
      },
      freshness: { lastSyncAt: availability.last_sync_at ?? null, stale: availability.stale === true },
    };
  } catch (error) {
    const reason = isApiError(error) ? brokenReasonOf(error) : null;
    if (reason) ports.connection.markBroken(reason);
    // Auth may have recorded the failure itself (e.g. a refresh that was refused).
    const after = ports.connection.status();
    if (after.state !== 'connected')
      return {
        ...withSync(false, pausedIfBroken(ports, after.state, schedule)),
        connection: connectionView(after, lastStore),
      };
    if (isApiError(error) && error.code === 'client_not_authorized') {
      return {
        ...withSync(false, pausedIfBroken(ports, 'operator_problem', schedule)),
        connection: { state: 'operator_problem', store: lastStore, problem: problemOf(error) },
      };
    }
    // The connection stands; the account could not be read right now (rate limit, outage).
    return { ...withSync(true, schedule), connection: connectionView(status, lastStore), problem: problemOf(error) };
  }
}
