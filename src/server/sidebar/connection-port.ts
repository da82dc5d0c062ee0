import { createApiClient } from '../api';
import {
  authorizationUrl,
  connectionStatus,
  disconnect,
  markConnectionBroken,
  refreshProactively,
  storeTag,
  triggerTokenSource,
} from '../auth';
import { getDeploymentConfig } from '../config';
import { ExecutionBudget } from '../platform/budget';
import type { CacheLike } from '../api';
import type { AccountPort, ConnectionPort } from './ports';

/** Short: the sidebar waits for this call; a slow service should show a problem, not a frozen panel. */
const ACCOUNT_BUDGET_MS = 60_000;

export function authConnectionPort(): ConnectionPort {
  return {
    status: () => {
      const status = connectionStatus();
      return { state: status.state, message: status.message, action: status.action };
    },
    authorizationUrl,
    disconnect,
    markBroken: (reason) => markConnectionBroken(reason, reason === 'store_changed' ? 'moved_to_other_store' : undefined),
    refreshProactively: () => {
      refreshProactively();
    },
  };
}

export function apiAccountPort(): AccountPort {
  return {
    account: ({ fresh }) => {
      const config = getDeploymentConfig();
      const cache = CacheService.getDocumentCache();
      const client = createApiClient({
        baseUrl: config.apiBaseUrl,
        tokens: triggerTokenSource(),
        budget: new ExecutionBudget(ACCOUNT_BUDGET_MS, 5_000),
        cache: fresh && cache ? writeOnly(cache) : cache,
        transport: { cacheScope: storeTag() ?? 'sidebar' },
      });
      return client.account();
    },
  };
}

/** A cache that is never read but still filled: the answer comes from the service and renews the cached copy. */
function writeOnly(cache: CacheLike): CacheLike {
  return { get: () => null, put: (key, value, seconds) => cache.put(key, value, seconds) };
}
