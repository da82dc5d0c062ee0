import type { StoreView } from '../../contract/sidebar';
import type { SidebarMemory, SyncSession } from './ports';
import { documentProperties } from '../platform/properties';
import { clipText } from '../platform/property-size';

const STORE_KEY = 'MA_SIDEBAR_LAST_STORE';
const SESSION_KEY = 'MA_SIDEBAR_SYNC_SESSION';
const SESSION_TTL_SECONDS = 6 * 60 * 60;
const CHECK_KEY = 'MA_SIDEBAR_CONNECTION_CHECKED_AT';
/** Longer than the check interval: the time itself is compared, the expiry only tidies up. */
const CHECK_TTL_SECONDS = 10 * 60;

function parse<T>(text: string | null): T | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

/**
 * Document properties for the store (shown after the connection breaks); document cache for a
 * Sync now run and for the time of the last connection check (shared by every editor's sidebar).
 */
export function documentSidebarMemory(): SidebarMemory {
  const properties = documentProperties();
  const cache = CacheService.getDocumentCache() ?? CacheService.getUserCache();
  return {
    lastStore: () => parse<StoreView>(properties.getProperty(STORE_KEY)),
    rememberStore(store) {
      const text = store ? JSON.stringify(boundedStore(store)) : null;
      if (text === properties.getProperty(STORE_KEY)) return;
      if (text) properties.setProperty(STORE_KEY, text);
      else properties.deleteProperty(STORE_KEY);
    },
    syncSession: () => parse<SyncSession>(cache.get(SESSION_KEY)),
    setSyncSession(session) {
      if (session) cache.put(SESSION_KEY, JSON.stringify(session), SESSION_TTL_SECONDS);
      else cache.remove(SESSION_KEY);
    },
    // Also kept in the document properties (one write a minute while a sidebar is open): Google's cache
    // is best effort (reference/cache/cache), and a check time lost with it would make every poll check
    // the connection again (a request and several property calls each 4 s).
    lastConnectionCheck() {
      const raw = cache.get(CHECK_KEY) ?? properties.getProperty(CHECK_KEY);
      const at = raw === null ? NaN : Number(raw);
      return Number.isFinite(at) ? at : null;
    },
    noteConnectionCheck(at) {
      cache.put(CHECK_KEY, String(at), CHECK_TTL_SECONDS);
      properties.setProperty(CHECK_KEY, String(at));
    },
  };
}

/** Store names and domains come from the API: clipped, so the stored value stays far below 9 KB. */
function boundedStore(store: StoreView): StoreView {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(store)) out[key] = typeof value === 'string' ? clipText(value, 150) : value;
  return out as unknown as StoreView;
}
