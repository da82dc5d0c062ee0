import type { IncomingMessage, ServerResponse } from 'node:http';

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...NO_STORE,
    ...headers,
  });
  res.end(text);
}

/** A 200 whose JSON body lost its second half on the way (an injected fault). */
export function sendTruncatedJson(res: ServerResponse, body: unknown): void {
  const text = JSON.stringify(body);
  const cut = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
  res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(cut),
    ...NO_STORE,
  });
  res.end(cut);
}

/** Auth-server pages: never cached, never framed, no scripts. */
export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    ...NO_STORE,
  });
  res.end(html);
}

export function sendRedirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { Location: location, ...NO_STORE, 'Referrer-Policy': 'no-referrer' });
  res.end();
}

/** The control API's JSON error shape, the same as the API's. */
export function sendApiError(res: ServerResponse, status: number, code: string, message: string): void {
  sendJson(res, status, { success: false, error: { code, message } });
}

export type FormParse = { ok: true; fields: Map<string, string[]> } | { ok: false; message: string };

/** Parses an application/x-www-form-urlencoded body, keeping repeated names so callers can refuse them. */
export function parseForm(req: IncomingMessage, body: Buffer): FormParse {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    return { ok: false, message: 'the body must be application/x-www-form-urlencoded' };
  }
  const fields = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(body.toString('utf8'))) {
    const values = fields.get(name);
    if (values) values.push(value);
    else fields.set(name, [value]);
  }
  return { ok: true, fields };
}

export type JsonParse = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

/** Control-API bodies: empty means {}; anything but a JSON object is refused. */
export function parseJsonObject(body: Buffer): JsonParse {
  const text = body.toString('utf8').trim();
  if (text === '') return { ok: true, value: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return { ok: false, message: 'the body must be a JSON object' };
    }
    return { ok: true, value: value as Record<string, unknown> };
  } catch {
    return { ok: false, message: 'the body is not valid JSON' };
  }
}

/** Parameters that appear more than once: RFC 6749 3.1/3.2 forbids repeating them. */
export function repeatedNames(params: Iterable<[string, string]>): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const [name] of params) {
    if (seen.has(name)) repeated.add(name);
    seen.add(name);
  }
  return [...repeated];
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
