import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { outlastClientKeepAlive } from '../shared/loopback-server.js';
import { escapeHtml } from './services/html-service.js';
import type { StateTokenCodec } from './services/state-token.js';

/** What Apps Script passes a /usercallback function: `parameter` and the multi-valued `parameters`. */
export interface CallbackRequest {
  parameter: Record<string, string>;
  parameters: Record<string, string[]>;
}

export interface CallbackOutcome {
  status: number;
  html: string;
}

/** `user`: who made the state token (the browser's signed-in user), undefined for the runtime's default. */
export type CallbackRunner = (
  method: string,
  request: CallbackRequest,
  user: string | undefined,
) => Promise<CallbackOutcome>;

export interface CallbackServer {
  url: string;
  close(): Promise<void>;
}

const REFUSED_PAGE = (why: string): string =>
  `<!doctype html><title>Error</title><p>This app couldn't verify the request: ${escapeHtml(why)} Please close this window and try again from the add-on.</p>`;

/**
 * Builds the event object: query parameters plus the token's arguments. The token's arguments win
 * on a clash, so a crafted query string cannot replace what the script sealed into the state.
 */
export function callbackRequest(query: URLSearchParams, stateArgs: Record<string, string>): CallbackRequest {
  const parameters: Record<string, string[]> = {};
  for (const [k, v] of query) (parameters[k] ??= []).push(v);
  for (const [k, v] of Object.entries(stateArgs)) parameters[k] = [v];
  const parameter: Record<string, string> = {};
  for (const [k, values] of Object.entries(parameters)) parameter[k] = values[0];
  return { parameter, parameters };
}

/** Grants a user scopes they had not (the consent screen behind AuthorizationInfo.getAuthorizationUrl). */
export type ConsentGranter = (user: string | undefined, scopes: string[]) => void;

const GRANTED_PAGE =
  '<!doctype html><title>Access granted</title><p>The add-on has the permissions it asked for. Close this window and go back to the spreadsheet.</p>';

/**
 * Apps Script's /usercallback endpoint on loopback: decode the state token, run its function. Also
 * /authorize?consent=…, the page an authorization URL opens: it grants the sealed scopes to the
 * sealed user (Google shows its consent screen there; locally the user says yes).
 */
export async function startCallbackServer(
  codec: StateTokenCodec,
  run: CallbackRunner,
  grant?: ConsentGranter,
): Promise<CallbackServer> {
  const server = http.createServer((req, res) => {
    const send = (status: number, html: string): void => {
      res.writeHead(status, {
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
      });
      res.end(html);
    };
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (grant && url.pathname === '/authorize' && req.method === 'GET') {
      const check = codec.open(url.searchParams.get('consent') ?? '');
      if (!check.ok) {
        send(400, REFUSED_PAGE(`the authorization link is ${check.reason}.`));
        return;
      }
      grant(check.payload.user, (check.payload.args.scopes ?? '').split(' ').filter(Boolean));
      send(200, GRANTED_PAGE);
      return;
    }
    if (url.pathname !== '/usercallback' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      send(404, '<!doctype html><title>Not found</title><p>Not found</p>');
      return;
    }
    const state = url.searchParams.get('state');
    if (!state) {
      send(400, REFUSED_PAGE('the state token is missing.'));
      return;
    }
    const check = codec.open(state);
    if (!check.ok) {
      send(
        400,
        REFUSED_PAGE(check.reason === 'expired' ? 'the state token has expired.' : 'the state token is invalid.'),
      );
      return;
    }
    run(check.payload.method, callbackRequest(url.searchParams, check.payload.args), check.payload.user).then(
      (outcome) => send(outcome.status, outcome.html),
      (error: unknown) =>
        send(
          500,
          `<!doctype html><title>Error</title><p>${escapeHtml(error instanceof Error ? error.message : String(error))}</p>`,
        ),
    );
  });
  outlastClientKeepAlive(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/usercallback`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
