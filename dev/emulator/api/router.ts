import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthServer } from '../oauth/index.js';
import { rateLimitedHeaders, type RateLimiter } from '../ratelimit.js';
import { isCursorFault, sendHtmlErrorPage, type FaultInjector } from '../faults.js';
import { sendError, sendJson } from '../http.js';
import { bodyText } from '../data/raw-fields.js';
import type { EmulatorState } from '../state.js';
import { account, stores } from './account.js';
import type { ApiContext, ApiResult } from './context.js';
import type { CursorCodec } from './cursor.js';
import { ApiError } from './errors.js';
import { getOrder, listOrders } from './orders.js';
import { getProduct, listProducts } from './products.js';
import { daily, summary } from './profitability.js';

interface Route {
  scope: string;
  handler: (ctx: ApiContext) => ApiResult;
}

const ROUTES: Record<string, Route> = {
  '/api/v1/account': { scope: 'store:read', handler: account },
  '/api/v1/stores': { scope: 'store:read', handler: stores },
  '/api/v1/orders': { scope: 'orders:read', handler: listOrders },
  '/api/v1/orders/{id}': { scope: 'orders:read', handler: getOrder },
  '/api/v1/products': { scope: 'products:read', handler: listProducts },
  '/api/v1/products/{id}': { scope: 'products:read', handler: getProduct },
  '/api/v1/profitability/summary': { scope: 'profitability:read', handler: summary },
  '/api/v1/profitability/daily': { scope: 'profitability:read', handler: daily },
};

export const OPENAPI_PATH = '/api/v1/openapi.json';

export interface ApiDeps {
  state: EmulatorState;
  auth: AuthServer;
  limiter: RateLimiter;
  faults: FaultInjector;
  cursors: CursorCodec;
  openapiText: () => string;
}

function match(path: string): { route: Route; recordId: string | null } | null {
  const exact = ROUTES[path];
  if (exact) return { route: exact, recordId: null };
  const m = /^\/api\/v1\/(orders|products)\/([^/]+)$/.exec(path);
  if (!m) return null;
  let recordId: string;
  try {
    recordId = decodeURIComponent(m[2]!);
  } catch {
    recordId = m[2]!;
  }
  return { route: ROUTES[`/api/v1/${m[1]}/{id}`]!, recordId };
}

/**
 * Serves /api/v1/*. Order of checks: route (404) → method (405) → Bearer with the endpoint's
 * scope (401/403) → injected faults → rate limiter (429) → handler.
 */
export class ApiRouter {
  constructor(private readonly deps: ApiDeps) {}

  handle(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const method = req.method ?? 'GET';
    if (url.pathname === OPENAPI_PATH) {
      if (method !== 'GET')
        return sendError(res, 405, 'method_not_allowed', 'the API is read-only: use GET', { Allow: 'GET' });
      const text = this.deps.openapiText();
      res.writeHead(200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(text),
        'Cache-Control': 'public, max-age=3600',
      });
      res.end(text);
      return;
    }
    const found = match(url.pathname);
    if (!found) return sendError(res, 404, 'not_found', `no endpoint ${url.pathname}`);
    if (method !== 'GET')
      return sendError(res, 405, 'method_not_allowed', 'the API is read-only: use GET', { Allow: 'GET' });

    const { auth, limiter, faults, state } = this.deps;
    const bearer = auth.authenticate(req, url, found.route.scope);
    if (!bearer.ok) {
      const headers: Record<string, string> =
        bearer.status === 401 ? { 'WWW-Authenticate': auth.wwwAuthenticate(bearer) } : {};
      return sendError(res, bearer.status, bearer.code, bearer.message, headers);
    }
    const data = state.store(bearer.storeId);
    if (!data)
      return sendError(res, 401, 'invalid_token', 'the token is bound to a store that no longer exists', {
        'WWW-Authenticate': auth.wwwAuthenticate({ code: 'invalid_token' }),
      });

    const fault = faults.take(url.pathname, url.searchParams.has('cursor'));
    if (fault && isCursorFault(fault)) {
      return fault.body === 'invalid_cursor'
        ? sendError(res, 400, 'INVALID_CURSOR', 'the cursor is malformed or has been tampered with')
        : sendError(
            res,
            400,
            'CURSOR_FILTER_MISMATCH',
            'the cursor was created with a different filter set; restart pagination',
          );
    }
    if (fault && fault.body !== 'truncated') {
      const headers: Record<string, string> =
        fault.status === 429 ? rateLimitedHeaders({ reason: fault.reason, retryAfterSeconds: fault.retryAfter }) : {};
      if (fault.body === 'html') return sendHtmlErrorPage(res, fault.status, headers);
      const code = fault.status === 429 ? 'rate_limited' : 'internal_error';
      return sendError(
        res,
        fault.status,
        code,
        fault.status === 429
          ? `rate limit exceeded (${fault.reason})`
          : 'temporary failure on the service side; retry with backoff',
        headers,
      );
    }

    const admission = limiter.admit(bearer.clientId, bearer.storeId);
    if (!admission.ok) {
      return sendError(
        res,
        429,
        'rate_limited',
        `rate limit exceeded (${admission.reason}); retry after ${admission.retryAfterSeconds} s`,
        rateLimitedHeaders(admission),
      );
    }
    res.on('close', admission.release);

    let result: ApiResult;
    try {
      result = found.route.handler({
        state,
        data,
        cursors: this.deps.cursors,
        clientId: bearer.clientId,
        scopes: bearer.scopes,
        rateLimits: limiter.limits,
        params: url.searchParams,
        recordId: found.recordId,
      });
    } catch (error) {
      if (error instanceof ApiError)
        return sendError(res, error.status, error.code, error.message, { ...admission.headers, ...error.headers });
      process.stderr.write(
        `emulator: ${url.pathname} failed: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      return sendError(res, 500, 'internal_error', 'failure on the service side; retry with backoff');
    }
    const headers = { 'Cache-Control': 'no-store', ...admission.headers, ...result.headers };
    if (fault?.body === 'truncated') {
      const text = bodyText(result.body);
      const cut = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
      res.writeHead(200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(cut),
        ...headers,
      });
      res.end(cut);
      return;
    }
    sendJson(res, 200, result.body, headers);
  }
}
