import type { ApiContext, ApiResult } from './context.js';
import { QueryReader } from './query.js';
import { storeJson } from './serialize.js';

export const ACCOUNT_CACHE_CONTROL = 'private, max-age=300';

/** GET /api/v1/account (spec 4.2). */
export function account(ctx: ApiContext): ApiResult {
  new QueryReader(ctx.params, []);
  const store = ctx.data.store;
  const window = ctx.state.historyWindow(store);
  // The emulator's data is always current: the last sync is the last five-minute tick.
  const lastSync = Math.floor(ctx.state.clock.now() / 300_000) * 300_000;
  return {
    body: {
      success: true,
      data: {
        store: storeJson(store),
        plan: store.plan,
        connection: { client_id: ctx.clientId, scopes: ctx.scopes },
        data_availability: {
          history_days: window.days,
          available_from: window.from,
          last_sync_at: new Date(lastSync).toISOString(),
          stale: false,
        },
        rate_limits: {
          burst_per_minute: ctx.rateLimits.burstPerMinute,
          hourly: ctx.rateLimits.hourly,
          daily: ctx.rateLimits.daily,
          concurrent_requests: ctx.rateLimits.concurrent,
          client_global_per_minute: ctx.rateLimits.clientGlobalPerMinute,
        },
      },
    },
    headers: { 'Cache-Control': ACCOUNT_CACHE_CONTROL },
  };
}

/** GET /api/v1/stores (spec 4.3): always exactly the token's store. */
export function stores(ctx: ApiContext): ApiResult {
  new QueryReader(ctx.params, []);
  return {
    body: { success: true, data: [storeJson(ctx.data.store)] },
    headers: { 'Cache-Control': ACCOUNT_CACHE_CONTROL },
  };
}
