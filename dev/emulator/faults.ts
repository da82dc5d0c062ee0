import type { ServerResponse } from 'node:http';
import type { RateLimitReason } from './ratelimit.js';

/** Failures injected through POST /_emulator/faults: the next `count` API requests under a path prefix fail this way. */
export interface Fault {
  status: 500 | 502 | 429 | 200 | 400;
  remaining: number;
  /** Matching requests still let through before the fault starts (a fault "on a later page"). */
  after: number;
  pathPrefix: string;
  reason: RateLimitReason;
  retryAfter: number;
  body: 'json' | 'html' | 'truncated' | CursorFaultBody;
}

/** Spec 4.4 rule 3's two refusals of a cursor; such a fault matches only requests that send one. */
export type CursorFaultBody = 'invalid_cursor' | 'cursor_filter_mismatch';
const CURSOR_BODIES: readonly string[] = ['invalid_cursor', 'cursor_filter_mismatch'];

export function isCursorFault(fault: Fault): fault is Fault & { body: CursorFaultBody } {
  return CURSOR_BODIES.includes(fault.body);
}

export class FaultInjector {
  private faults: Fault[] = [];

  add(fault: Fault): void {
    this.faults.push(fault);
  }

  /** Takes one use of the first fault matching the request, if any; a fault still counting down its `after` lets the request through. */
  take(path: string, sendsCursor = false): Fault | null {
    const fault = this.faults.find(
      (f) => f.remaining > 0 && path.startsWith(f.pathPrefix) && (sendsCursor || !isCursorFault(f)),
    );
    if (!fault) return null;
    if (fault.after > 0) {
      fault.after -= 1;
      return null;
    }
    fault.remaining -= 1;
    this.faults = this.faults.filter((f) => f.remaining > 0);
    return fault;
  }

  pending(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  clear(): void {
    this.faults = [];
  }
}

const FAULT_REASONS: readonly RateLimitReason[] = ['burst', 'hour', 'day', 'concurrency', 'client_global'];

/** Parses a fault request body; throws a message naming the bad field. */
export function parseFault(json: Record<string, unknown>): Fault {
  const known = ['status', 'count', 'path_prefix', 'reason', 'retry_after', 'body', 'after'];
  for (const key of Object.keys(json))
    if (!known.includes(key)) throw new Error(`unknown field ${key}; allowed: ${known.join(', ')}`);
  const body = json.body ?? 'json';
  const cursorFault = typeof body === 'string' && CURSOR_BODIES.includes(body);
  if (body !== 'json' && body !== 'html' && body !== 'truncated' && !cursorFault) {
    throw new Error('body must be "html", "truncated", "invalid_cursor", "cursor_filter_mismatch" or omitted');
  }
  const status = json.status ?? (body === 'truncated' ? 200 : cursorFault ? 400 : undefined);
  if (status !== 500 && status !== 502 && status !== 429 && status !== 200 && status !== 400) {
    throw new Error('status must be 500, 502 or 429 (or 200 with body "truncated", 400 with a cursor body)');
  }
  if (status === 200 && body !== 'truncated') throw new Error('status 200 is only for body "truncated"');
  if ((status === 400) !== cursorFault)
    throw new Error('status 400 goes with body "invalid_cursor" or "cursor_filter_mismatch", and only with those');
  const after = json.after ?? 0;
  if (typeof after !== 'number' || !Number.isInteger(after) || after < 0)
    throw new Error('after must be a non-negative integer');
  const count = json.count ?? 1;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 100000)
    throw new Error('count must be an integer from 1 to 100000');
  const pathPrefix = json.path_prefix ?? '/api/v1';
  if (typeof pathPrefix !== 'string' || !pathPrefix.startsWith('/'))
    throw new Error('path_prefix must be a path starting with /');
  const reason = json.reason ?? 'burst';
  if (typeof reason !== 'string' || !(FAULT_REASONS as readonly string[]).includes(reason)) {
    throw new Error(`reason must be one of ${FAULT_REASONS.join(', ')}`);
  }
  const retryAfter = json.retry_after ?? 1;
  if (typeof retryAfter !== 'number' || !Number.isInteger(retryAfter) || retryAfter < 0)
    throw new Error('retry_after must be a non-negative integer');
  return {
    status,
    remaining: count,
    after,
    pathPrefix,
    reason: reason as RateLimitReason,
    retryAfter,
    body: body as Fault['body'],
  };
}

/** A gateway's HTML error page instead of the JSON error body (body "html"), as a proxy in front of the service answers. */
export function sendHtmlErrorPage(res: ServerResponse, status: number, headers: Record<string, string>): void {
  const html = `<!DOCTYPE html><html><head><title>${status} Error</title></head><body><h1>${status}</h1><p>The server encountered a temporary error and could not complete your request.</p></body></html>`;
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    ...headers,
  });
  res.end(html);
}
