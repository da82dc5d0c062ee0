import type { ServerResponse } from 'node:http';
import type { RateLimitReason } from './ratelimit.js';

/** Failures injected through POST /_emulator/faults: the next `count` API requests under a path prefix fail this way. */
export interface Fault {
  status: 500 | 502 | 429 | 200;
  remaining: number;
  pathPrefix: string;
  reason: RateLimitReason;
  retryAfter: number;
  body: 'json' | 'html' | 'truncated';
}

export class FaultInjector {
  private faults: Fault[] = [];

  add(fault: Fault): void {
    this.faults.push(fault);
  }

  /** Takes one use of the first fault matching the path, if any. */
  take(path: string): Fault | null {
    const fault = this.faults.find((f) => f.remaining > 0 && path.startsWith(f.pathPrefix));
    if (!fault) return null;
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
  const known = ['status', 'count', 'path_prefix', 'reason', 'retry_after', 'body'];
  for (const key of Object.keys(json)) if (!known.includes(key)) throw new Error(`unknown field ${key}; allowed: ${known.join(', ')}`);
  const body = json.body ?? 'json';
  if (body !== 'json' && body !== 'html' && body !== 'truncated') throw new Error('body must be "html", "truncated" or omitted');
  const status = json.status ?? (body === 'truncated' ? 200 : undefined);
  if (status !== 500 && status !== 502 && status !== 429 && status !== 200) throw new Error('status must be 500, 502 or 429 (or 200 with body "truncated")');
  if (status === 200 && body !== 'truncated') throw new Error('status 200 is only for body "truncated"');
  const count = json.count ?? 1;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 100000) throw new Error('count must be an integer from 1 to 100000');
  const pathPrefix = json.path_prefix ?? '/api/v1';
  if (typeof pathPrefix !== 'string' || !pathPrefix.startsWith('/')) throw new Error('path_prefix must be a path starting with /');
  const reason = json.reason ?? 'burst';
  if (typeof reason !== 'string' || !(FAULT_REASONS as readonly string[]).includes(reason)) {
    throw new Error(`reason must be one of ${FAULT_REASONS.join(', ')}`);
  }
  const retryAfter = json.retry_after ?? 1;
  if (typeof retryAfter !== 'number' || !Number.isInteger(retryAfter) || retryAfter < 0) throw new Error('retry_after must be a non-negative integer');
  return { status, remaining: count, pathPrefix, reason: reason as RateLimitReason, retryAfter, body };
}

/** A gateway's HTML error page instead of the JSON error body (body "html"), as a proxy in front of the service answers. */
export function sendHtmlErrorPage(res: ServerResponse, status: number, headers: Record<string, string>): void {
  const html = `<!DOCTYPE html><html><head><title>${status} Error</title></head><body><h1>${status}</h1><p>The server encountered a temporary error and could not complete your request.</p></body></html>`;
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(html), ...headers });
  res.end(html);
}
