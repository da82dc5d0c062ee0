/**
 * Loopback servers for the token endpoint's redirect check: a front that passes every request through to the emulator
 * except POST {front}/api/auth/oauth2/token, which it answers with a redirect to a recorder; the
 * recorder keeps everything it receives (and answers like a token endpoint would, so a client
 * that follows the redirect gets tokens the emulator never issued).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const TOKEN_PATH = '/api/auth/oauth2/token';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface TokenEndpointFront {
  /** Use as MA_API_BASE_URL. */
  url: string;
  recorderUrl: string;
  /** Every request the redirect target received. */
  received: ReceivedRequest[];
  /** How many token requests the front answered with a redirect. */
  redirected: number;
  /** Where everything else goes: the emulator's address (set once the stack has started). */
  upstream: string;
  close(): Promise<void>;
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startTokenEndpointFront(redirectStatus: 302 | 307): Promise<TokenEndpointFront> {
  const received: ReceivedRequest[] = [];
  const recorder = http.createServer(async (req, res) => {
    const body = await readBody(req);
    received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: body.toString('utf8') });
    const tokens = JSON.stringify({
      access_token: 'recorder-access-token-0000',
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: 'recorder-refresh-token-0000',
      scope: 'store:read orders:read products:read profitability:read offline_access',
    });
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(tokens);
  });
  const recorderUrl = await listen(recorder);
  const front: TokenEndpointFront = {
    url: '',
    recorderUrl,
    received,
    redirected: 0,
    upstream: '',
    close: async () => undefined,
  };
  const server = http.createServer(async (req, res) => {
    const body = await readBody(req);
    if (req.method === 'POST' && (req.url ?? '').split('?')[0] === TOKEN_PATH) {
      front.redirected += 1;
      res.writeHead(redirectStatus, { Location: `${recorderUrl}${TOKEN_PATH}` }).end();
      return;
    }
    const target = new URL(front.upstream);
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    upstream.end(body);
  });
  front.url = await listen(server);
  front.close = async () => {
    for (const s of [server, recorder]) {
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
  };
  return front;
}
