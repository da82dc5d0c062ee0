import type { ConnectionView, SidebarState, StoreView } from '../../contract/sidebar';
import { isApiError } from '../api/errors';
import type { Account } from '../api/types';
import type { ConnectionStatusView, SidebarPorts } from './ports';
import { brokenReasonOf, connectionProblem, problemOf } from './problems';
import { windowOfferOf } from './window-offer';

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
  return { state: status.state, store, problem: connectionProblem(status) };
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

/** The whole sidebar: the connection checked against the API when connected, plus sync, schedule and size. */
export function sidebarState(ports: SidebarPorts): SidebarState {
  const base: SidebarState = {
    connection: { state: 'not_configured', store: null, problem: null },
    plan: null,
    freshness: null,
    jobs: [],
    schedule: { mode: 'off', hour: null },
    cells: ports.sheets.cells(),
    problem: null,
  };
  const status = recheckedStatus(ports);
  if (status.state === 'not_configured') return { ...base, connection: connectionView(status, null) };
  const facts = ports.sync.capacity();
  const cells = { ...base.cells, ordersWindow: facts.ordersWindow, offer: windowOfferOf(base.cells, facts) };
  const withSync: SidebarState = { ...base, cells, jobs: ports.sync.jobs(), schedule: ports.sync.schedule() };
  const lastStore = ports.memory.lastStore();
  // A broken connection names the store it read; "not connected" names none.
  if (status.state === 'not_connected') return { ...withSync, connection: connectionView(status, null) };
  if (status.state !== 'connected') return { ...withSync, connection: connectionView(status, lastStore) };
  try {
    ports.connection.refreshProactively();
    const account = ports.account.account();
    const store = storeViewOf(account);
    ports.memory.rememberStore(store);
    const availability = account.data_availability;
    return {
      ...withSync,
      connection: connectionView(status, store),
      plan: { name: account.plan ?? null, historyAvailableFrom: availability.available_from ?? null, historyDays: availability.history_days ?? null },
      freshness: { lastSyncAt: availability.last_sync_at ?? null, stale: availability.stale === true },
    };
  } catch (error) {
    const reason = isApiError(error) ? brokenReasonOf(error) : null;
    if (reason) ports.connection.markBroken(reason);
    // Auth may have recorded the failure itself (e.g. a refresh that was refused).
    const after = ports.connection.status();
    if (after.state !== 'connected') return { ...withSync, connection: connectionView(after, lastStore) };
    if (isApiError(error) && error.code === 'client_not_authorized') {
      return { ...withSync, connection: { state: 'operator_problem', store: lastStore, problem: problemOf(error) } };
    }
    // The connection stands; the account could not be read right now (rate limit, outage).
    return { ...withSync, connection: connectionView(status, lastStore), problem: problemOf(error) };
  }
}
