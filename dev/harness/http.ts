import { request } from 'node:http';

/** One loopback HTTP exchange without following redirects. */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function httpExchange(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<HttpAnswer> {
  const target = new URL(url);
  if (target.hostname !== '127.0.0.1' && target.hostname !== 'localhost') {
    return Promise.reject(new Error(`the harness talks to loopback only, not ${target.hostname}`));
  }
  return new Promise((resolve, reject) => {
    const req = request(target, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** GET (no body) or POST (JSON body) to a control route; throws with the answer when it is not 2xx. */
export async function jsonCall(url: string, body?: unknown): Promise<unknown> {
  const answer = await httpExchange(
    url,
    body === undefined
      ? { method: 'GET', headers: { Accept: 'application/json' } }
      : { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) },
  );
  let parsed: unknown = null;
  try {
    parsed = answer.body === '' ? null : JSON.parse(answer.body);
  } catch {
    parsed = answer.body;
  }
  if (answer.status < 200 || answer.status >= 300) {
    throw new Error(`${body === undefined ? 'GET' : 'POST'} ${new URL(url).pathname} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
  }
  return parsed;
}
