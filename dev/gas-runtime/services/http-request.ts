import http from 'node:http';
import https from 'node:https';

/** One real HTTP exchange made by the host for UrlFetchApp. */

export interface OutgoingRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: Buffer | null;
  validateCertificates: boolean;
}

export interface IncomingResponse {
  status: number;
  /** Header names with their case as sent by the server, in order. */
  rawHeaders: string[];
  body: Buffer;
}

const TIMEOUT_MS = 60_000; // UrlFetch's (unconfigurable) timeout is about 60 s
const MAX_RESPONSE_BYTES = 50 * 1024 * 1024;

export function sendRequest(request: OutgoingRequest): Promise<IncomingResponse> {
  const transport = request.url.protocol === 'https:' ? https : http;
  const headers: Record<string, string> = { ...request.headers };
  if (request.body) headers['Content-Length'] = String(request.body.length);
  return new Promise((resolve, reject) => {
    const req = transport.request(
      request.url,
      { method: request.method, headers, timeout: TIMEOUT_MS, rejectUnauthorized: request.validateCertificates },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) {
            req.destroy(new Error('Exceeded maximum response size: 50MB'));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('Timeout: the server did not answer in time')));
    req.on('error', (error: NodeJS.ErrnoException) => {
      // Google's message names the address, never the query string (it may carry secrets).
      const address = `${request.url.protocol}//${request.url.host}${request.url.pathname}`;
      reject(
        new Error(
          error.message.startsWith('Timeout') || error.message.startsWith('Exceeded')
            ? error.message
            : `Address unavailable: ${address}`,
        ),
      );
    });
    if (request.body) req.write(request.body);
    req.end();
  });
}
