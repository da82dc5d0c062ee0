import { request } from 'node:http';

/** A plain HTTP exchange without following redirects, for the dev tools' loopback servers. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface RawRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export function httpRequest(url: string | URL, options: RawRequestOptions = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    // A connection of its own for every exchange (agent: false, "Connection: close"): a kept-alive
    // socket that the loopback server closed while this process was busy for longer than the
    // server's keep-alive (comparing 100k rows with the truth) failed the next call with
    // read ECONNRESET.
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}
