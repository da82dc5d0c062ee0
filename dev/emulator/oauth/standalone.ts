import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EmulatorClock } from '../clock';
import { RateLimiter, rateLimitedHeaders, type RateLimits } from '../ratelimit';
import { parseJsonObject, sendApiError, sendJson } from './http-io';
import { AuthServer } from './index';
import { outlastClientKeepAlive } from '../../shared/loopback-server';
import type { StoreSummary, TokenLifetimes } from './types';

/**
 * A minimal host for AuthServer + RateLimiter without the data set: the auth routes, the clock
 * control route and two tiny API endpoints. For testing dev/emulator/oauth in isolation; the full
 * emulator wires the same modules into the real API.
 */
export interface AuthOnlyServer {
  url: string;
  clientId: string;
  clientSecret: string;
  stores: StoreSummary[];
  auth: AuthServer;
  limiter: RateLimiter;
  clock: EmulatorClock;
  close(): Promise<void>;
}

export const STANDALONE_STORES: StoreSummary[] = [
  { id: 'sto_demo_main', name: 'Demo Outdoor Co.', domain: 'demo-outdoor.myshopify.com' },
  { id: 'sto_demo_second', name: 'Demo Kitchen Supply', domain: 'demo-kitchen.myshopify.com' },
];

const API_SCOPES: Record<string, string> = { '/api/v1/account': 'store:read', '/api/v1/orders': 'orders:read' };

export async function startAuthOnlyServer(
  options: {
    redirectUris?: string[];
    limits?: Partial<RateLimits>;
    lifetimes?: Partial<TokenLifetimes>;
    appName?: string;
  } = {},
): Promise<AuthOnlyServer> {
  const clock = new EmulatorClock();
  let baseUrl = '';
  const clientId = 'demo-client';
  const clientSecret = 'demo-secret-not-for-production';
  const auth = new AuthServer({
    clock,
    baseUrl: () => baseUrl,
    stores: () => STANDALONE_STORES,
    defaultStoreId: () => STANDALONE_STORES[0]!.id,
    redirectUris: options.redirectUris ?? ['https://script.google.com/macros/d/SCRIPT_ID/usercallback'],
    clientId,
    clientSecret,
    appName: options.appName ?? 'Merchant Analytics for Google Sheets',
    ...(options.lifetimes ? { lifetimes: options.lifetimes } : {}),
  });
  const limiter = new RateLimiter(clock, options.limits);

  const serveApi = (req: IncomingMessage, res: ServerResponse, url: URL): void => {
    const scope = API_SCOPES[url.pathname];
    if (scope === undefined) return sendApiError(res, 404, 'not_found', 'no such endpoint');
    if (req.method !== 'GET') return sendApiError(res, 405, 'method_not_allowed', 'the API is read-only');
    const bearer = auth.authenticate(req, url, scope);
    if (!bearer.ok) {
      const headers: Record<string, string> =
        bearer.status === 401 ? { 'WWW-Authenticate': auth.wwwAuthenticate(bearer) } : {};
      return sendJson(
        res,
        bearer.status,
        { success: false, error: { code: bearer.code, message: bearer.message } },
        headers,
      );
    }
    const admission = limiter.admit(bearer.clientId, bearer.storeId);
    if (!admission.ok) {
      return sendJson(
        res,
        429,
        { success: false, error: { code: 'rate_limited', message: `rate limit: ${admission.reason}` } },
        rateLimitedHeaders(admission),
      );
    }
    res.on('close', admission.release);
    const data =
      url.pathname === '/api/v1/account'
        ? { store: { id: bearer.storeId }, connection: { client_id: bearer.clientId, scopes: bearer.scopes } }
        : [];
    sendJson(res, 200, { success: true, data }, admission.headers);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', baseUrl);
      const body = Buffer.concat(chunks);
      void auth.handle(req, res, url, body).then((handled) => {
        if (handled) return;
        if (url.pathname === '/_emulator/clock') {
          const parsed = parseJsonObject(body);
          const advance = parsed.ok ? parsed.value['advance_seconds'] : undefined;
          if (req.method === 'POST' && typeof advance === 'number' && advance >= 0) clock.advance(advance);
          else if (req.method === 'POST')
            return sendApiError(res, 400, 'invalid_parameter', 'advance_seconds must be a non-negative number');
          return sendJson(res, 200, { now: clock.nowDate().toISOString() });
        }
        serveApi(req, res, url);
      });
    });
  });
  outlastClientKeepAlive(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: baseUrl,
    clientId,
    clientSecret,
    stores: STANDALONE_STORES,
    auth,
    limiter,
    clock,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
