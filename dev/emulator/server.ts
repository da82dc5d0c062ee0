import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { ApiRouter } from './api/router.js';
import type { ControlActions } from './control/actions.js';
import { handleControl } from './control/routes.js';
import type { FaultInjector } from './faults.js';
import { BodyTooLarge, readBody, sendError } from './http.js';
import type { AuthServer } from './oauth/index.js';
import { endpointOf, type RequestStats } from './stats.js';
import { applyTokenFault } from './token-faults.js';
import { outlastClientKeepAlive } from '../shared/loopback-server.js';

export interface ServerParts {
  api: ApiRouter;
  auth: AuthServer;
  control: ControlActions;
  faults: FaultInjector;
  stats: RequestStats;
  baseUrl: () => string;
}

/** One node:http server for the API, the authorization server and the control API (same origin). */
export function createEmulatorServer(parts: ServerParts): Server {
  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', parts.baseUrl());
    res.on('finish', () => parts.stats.record(endpointOf(method, url.pathname), res.statusCode));
    let body: Buffer;
    try {
      body = await readBody(req);
    } catch (error) {
      if (error instanceof BodyTooLarge) return sendError(res, 413, 'invalid_parameter', error.message);
      throw error;
    }
    if (url.pathname.startsWith('/api/v1/')) return parts.api.handle(req, res, url);
    const tokenFault = applyTokenFault(parts.faults, url.pathname, res);
    if (tokenFault === 'answered') return;
    if (await parts.auth.handle(req, res, url, body, { truncateTokenAnswer: tokenFault === 'truncate' })) return;
    if (url.pathname.startsWith('/_emulator/')) return handleControl(parts.control, method, url, body, res);
    sendError(res, 404, 'not_found', `no route ${url.pathname}`);
  };
  return outlastClientKeepAlive(
    createServer((req, res) => {
      route(req, res).catch((error: unknown) => {
        process.stderr.write(`emulator: request failed: ${error instanceof Error ? error.message : String(error)}\n`);
        if (!res.headersSent) sendError(res, 500, 'internal_error', 'failure on the service side; retry with backoff');
        else res.destroy();
      });
    }),
  );
}
