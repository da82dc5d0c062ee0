/**
 * The server functions behind the sidebar (google.script.run) and the menu. Thin: the logic is in
 * the sidebar state and the sync session over the ports; this file binds the real modules.
 */
import { setColumnChoice } from '../sync/column-choice-setting';
import { currentSpreadsheet } from '../platform/context';
import type { ConnectStart, ScheduleView, SidebarState, SyncProgress } from '../../contract/sidebar';
import { measureSpreadsheetCells } from './cells-gauge';
import { menuSyncToast } from './menu-toasts';
import { adoptPendingConnection, storeTag } from '../auth';
import { formulasOwed, markFormulasOwed } from '../state/formulas-owed';
import { refreshFormulasAfterReconnect } from '../functions/refresh';
import { adoptNotedScheduledRun, adoptScheduledRunStateIfFree } from '../sync/owner-state';
import { recordEnvironment } from '../platform/environment';
import { cachedStamp } from '../platform/stamp-cache';
import { apiAccountPort, authConnectionPort } from './connection-port';
import { documentSidebarMemory } from './memory';
import type { SidebarPorts } from './ports';
import { parseOrdersWindowRequest } from './orders-window-request';
import { parseScheduleRequest } from './schedule-request';
import { CONNECTION_CHECK_INTERVAL_MS, sidebarStamp, sidebarState } from './state';
import { syncModulePort } from './sync-port';
import { clearCancel, ignoreEarlierCancel, requestCancel } from '../sync/cancel';
import { firstSyncSessionStep, runSyncSessionStep, startSyncSession } from './sync-session';
import { explainingDailyLimit } from '../platform/properties-quota';

/** Menu "Sync now" runs in one execution: stop well before Apps Script's 6 minutes. */
const MENU_SYNC_BUDGET_MS = 4.5 * 60 * 1000;

function ports(): SidebarPorts {
  return {
    connection: authConnectionPort(),
    account: apiAccountPort(),
    sync: syncModulePort(),
    sheets: { cells: measureSpreadsheetCells },
    memory: documentSidebarMemory(),
  };
}

/**
 * The sidebar polls this: it also adopts a connection the (documentless) callback handed off for
 * this spreadsheet (the handoff); a busy document leaves it for the next poll.
 */
export function getSidebarState(): SidebarState {
  return explainingDailyLimit(readSidebarState);
}

function readSidebarState(): SidebarState {
  const p = ports();
  if (adoptPendingConnection() === 'adopted') {
    p.sync.handOverSchedule();
    // A reconnect (the sheets hold a store's data, or formulas ran while disconnected): the
    // formulas' "not connected" answers go now. A first connect has none to mend.
    if (formulasOwed() || storeTag() !== null) refreshFormulasAfterReconnect();
  }
  adoptScheduledRunStateIfFree();
  recordEnvironment('sidebar');
  return sidebarState(p);
}

/**
 * From the document cache when it holds the stamp: the poll then reads no property (the stamp cache).
 * A documentless scheduled run is adopted first when it noted itself, its writes dropping the cached stamp.
 */
export function getSidebarStamp(): string {
  return explainingDailyLimit(readSidebarStamp);
}

function readSidebarStamp(): string {
  adoptNotedScheduledRun();
  const p = ports();
  return cachedStamp(
    () => sidebarStamp(p),
    () => {
      const last = p.memory.lastConnectionCheck();
      // No check yet (not connected): nothing is due, the record's own writes drop the stamp.
      return last === null
        ? CONNECTION_CHECK_INTERVAL_MS / 1000
        : (last + CONNECTION_CHECK_INTERVAL_MS - Date.now()) / 1000;
    },
  );
}

export function beginConnect(): ConnectStart {
  return { authorizationUrl: authConnectionPort().authorizationUrl() };
}

export function disconnectStore(): SidebarState {
  const p = ports();
  p.connection.disconnect();
  // Formulas that run from now on answer "not connected": the next good sync re-enters them.
  markFormulasOwed();
  // Syncing stops until a store is connected again; reconnecting the sheets' store resumes the schedule.
  p.sync.pauseSchedule();
  p.memory.rememberStore(null);
  p.memory.setSyncSession(null);
  return sidebarState(p);
}

export function startSync(): SyncProgress {
  // A Cancel of an earlier Sync now does not stop this one.
  return explainingDailyLimit(() => {
    clearCancel();
    return startSyncSession(ports());
  });
}

/** Sidebar → Cancel: the running step stops before its next page (requestCancel). */
export function cancelSync(): void {
  requestCancel();
}

/** `request.start`: Sync now's first step, which also starts the run (firstSyncSessionStep; startSync is then not called). */
export function runSyncStep(request?: unknown): SyncProgress {
  return explainingDailyLimit(() => {
    if (!isStartRequest(request)) return runSyncSessionStep(ports());
    // A Cancel of an earlier Sync now does not stop this one (judged under the run's lock).
    ignoreEarlierCancel();
    return firstSyncSessionStep(ports());
  });
}

function isStartRequest(request: unknown): boolean {
  return typeof request === 'object' && request !== null && (request as { start?: unknown }).start === true;
}

/** Sidebar → "Keep only orders placed since…": checks the request, sets the window, answers the new state. */
export function setOrdersWindow(request: unknown): SidebarState {
  const p = ports();
  p.sync.setOrdersWindow(parseOrdersWindowRequest(request).createdAfter);
  return sidebarState(p);
}

/** Sidebar → Columns: saves the choice (checked first); the next sync applies it. */
export function setColumns(request: unknown): SidebarState {
  setColumnChoice(request);
  return sidebarState(ports());
}

export function setSchedule(request: unknown): ScheduleView {
  const checked = parseScheduleRequest(request);
  return ports().sync.setSchedule(checked);
}

/** Menu → Sync now: one budgeted run, its outcome as a toast (menu runs have no sidebar to report to). */
export function syncFromMenu(): void {
  const p = ports();
  const spreadsheet = currentSpreadsheet("the menu's Sync now");
  const toast = menuSyncToast(firstSyncSessionStep(p, MENU_SYNC_BUDGET_MS));
  spreadsheet.toast(toast.message, toast.title, toast.seconds);
}
