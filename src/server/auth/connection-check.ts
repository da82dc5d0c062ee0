/**
 * "Test connection": one account read with the connection's own token source (which may refresh
 * once on invalid_token), reporting the store, the hourly budget left and what the client did.
 * JSON-safe, so the sidebar can show it as is.
 */
import { recordAuthFailure } from './lifecycle';
import { customFunctionTokenSource, triggerTokenSource } from './token-sources';
import { getDeploymentConfig } from '../platform/config';
import { ExecutionBudget } from '../platform/budget';
import { createApiClient } from '../api/client';
import type { TransportStats } from '../api/transport-contract';
import { isApiError } from '../api/errors';

export type ConnectionCheck =
  | { ok: true; storeId: string; storeName: string; rateLimitRemaining: number | null; stats: TransportStats }
  | { ok: false; code: string; userMessage: string; action: string; retryAt: string | null; stats: TransportStats };

/** `tokenMode: 'custom_function'` uses the never-refreshing token source, as formulas do. */
export function checkConnection(tokenMode: 'trigger' | 'custom_function' = 'trigger'): ConnectionCheck {
  const client = createApiClient({
    baseUrl: getDeploymentConfig().apiBaseUrl,
    tokens: tokenMode === 'trigger' ? triggerTokenSource() : customFunctionTokenSource(),
    budget: new ExecutionBudget(),
    // A check must reach the service: a cached account would prove nothing.
    cache: null,
  });
  try {
    const account = client.account();
    const store = account.store;
    return {
      ok: true,
      storeId: String(store?.id ?? ''),
      storeName: String(store?.name ?? ''),
      rateLimitRemaining: client.rateLimitRemaining(),
      stats: { ...client.stats },
    };
  } catch (e) {
    if (!isApiError(e)) throw e;
    recordAuthFailure(e.code);
    return {
      ok: false,
      code: e.code,
      userMessage: e.userMessage,
      action: e.action,
      retryAt: e.retryAt === null ? null : new Date(e.retryAt).toISOString(),
      stats: { ...client.stats },
    };
  }
}
