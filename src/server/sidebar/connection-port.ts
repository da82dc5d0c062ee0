import { createApiClient } from '../api';
import {
  authorizationUrl,
  connectionStatus,
  currentUserEmail,
  disconnect,
  holdsConnection,
  markConnectionBroken,
  nameUnnamedConnection,
  refreshProactively,
  storeTag,
  triggerTokenSource,
} from '../auth';
import { getDeploymentConfig } from '../platform/config';
import { ExecutionBudget } from '../platform/budget';
import type { CacheLike } from '../api';
import type { AccountPort, ConnectionPort } from './ports';
import { documentCacheOrNull } from '../platform/context';

/** Short: the sidebar waits for this call; a slow service should show a problem, not a frozen panel. */
const ACCOUNT_BUDGET_MS = 60_000;

export function authConnectionPort(): ConnectionPort {
  return {
    status: () => {
      nameUnnamedConnection();
      const status = connectionStatus();
      const me = currentUserEmail();
      // Without userinfo.email Google gives no e-mail: whose connection it is cannot be told (left unsaid).
      // One made that way names nobody: it is the user's whose properties hold its token.
      const yours =
        status.connectedBy === null
          ? status.state !== 'not_connected' && holdsConnection()
          : me === ''
            ? undefined
            : status.connectedBy === me;
      return {
        state: status.state,
        message: status.message,
        action: status.action,
        connectedBy: status.connectedBy,
        yours,
        detail: status.detail,
      };
    },
    authorizationUrl,
    disconnect,
    markBroken: (reason) =>
      markConnectionBroken(reason, reason === 'store_changed' ? 'moved_to_other_store' : undefined),
    refreshProactively: () => {
      refreshProactively();
    },
  };
}

export function apiAccountPort(): AccountPort {
  return {
    account: ({ fresh }) => {
      const config = getDeploymentConfig();
      const cache = documentCacheOrNull();
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
