/**
 * Attack support: a loopback "hostile server" in front of the emulator. Every request is passed
 * through; `rewrite` may replace the answer's body (text) for chosen requests, as a compromised or
 * broken API / token endpoint would. Use its url as MA_API_BASE_URL (script property).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startReliabilityStack, type ReliabilityStack } from './reliability-stack';

export interface FrontRequest {
  method: string;
  path: string;
  body: string;
}

export interface HostileFront {
  url: string;
  upstream: string;
  /** Return a new body text to replace the upstream answer, or null to pass it through. */
  rewrite: (req: FrontRequest, status: number, body: string) => string | null;
  seen: FrontRequest[];
  close(): Promise<void>;
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startHostileFront(): Promise<HostileFront> {
  const front: HostileFront = { url: '', upstream: '', rewrite: () => null, seen: [], close: async () => undefined };
  const server = http.createServer(async (req, res) => {
    const body = await readBody(req);
    const info: FrontRequest = { method: req.method ?? '', path: req.url ?? '', body: body.toString('utf8') };
    front.seen.push(info);
    const target = new URL(front.upstream);
    const headers = { ...req.headers, host: target.host };
    delete headers['accept-encoding'];
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let replaced: string | null = null;
          try {
            replaced = front.rewrite(info, answer.statusCode ?? 502, text);
          } catch {
            replaced = null;
          }
          const out = Buffer.from(replaced ?? text, 'utf8');
          const h = { ...answer.headers };
          delete h['content-length'];
          delete h['transfer-encoding'];
          delete h['content-encoding'];
          res.writeHead(answer.statusCode ?? 502, { ...h, 'content-length': String(out.length) });
          res.end(out);
        });
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    upstream.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  front.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  front.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return front;
}

/** JSON text of an array nested `depth` deep (JSON.stringify cannot build it: it recurses). */
export function deepArrayText(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

/** A connected stack whose MA_API_BASE_URL points at a hostile front (which passes everything through until told otherwise). */
export interface FrontedStack {
  s: ReliabilityStack;
  f: HostileFront;
  /** The stack first, then the front. */
  close(): Promise<void>;
}

export async function stackBehindHostileFront(): Promise<FrontedStack> {
  const f = await startHostileFront();
  const s = await startReliabilityStack({ orders: 20, seed: 7, urlFetchAllow: [`${f.url}/`] });
  f.upstream = s.apiUrl;
  s.runtime.properties.script.set('MA_API_BASE_URL', f.url);
  return {
    s,
    f,
    close: async () => {
      await s.close();
      await f.close();
    },
  };
}
