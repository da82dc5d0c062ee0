import type { ServerResponse } from 'node:http';
import { sendHtmlErrorPage, type Fault, type FaultInjector } from './faults.js';
import { TOKEN_PATH } from './oauth/types.js';

/** What an injected fault does to one token request. */
export type TokenFaultOutcome =
  /** No fault: the authorization server answers as usual. */
  | 'none'
  /** The fault was answered here; the request never reached the authorization server (nothing spent). */
  | 'answered'
  /** The authorization server runs the exchange, then its success answer is cut in half. */
  | 'truncate';

/**
 * POST /_emulator/faults reaches the token endpoint too (path_prefix "/api/auth/oauth2/token"):
 * a 500/502/429 is answered in front of the authorization server, as a failing gateway would,
 * so the code or refresh token sent is not spent; "truncated" lets the exchange happen and loses
 * half of the answer, as a connection cut after the server acted does.
 */
export function applyTokenFault(faults: FaultInjector, path: string, res: ServerResponse): TokenFaultOutcome {
  if (path !== TOKEN_PATH) return 'none';
  const fault = faults.take(path);
  if (!fault) return 'none';
  if (fault.body === 'truncated') return 'truncate';
  answerTokenFault(res, fault);
  return 'answered';
}

function answerTokenFault(res: ServerResponse, fault: Fault): void {
  const headers: Record<string, string> = {
    'Cache-Control': 'no-store',
    ...(fault.status === 429 ? { 'Retry-After': String(fault.retryAfter) } : {}),
  };
  if (fault.body === 'html') return sendHtmlErrorPage(res, fault.status, headers);
  // RFC 6749's error shape, as the token endpoint's own errors.
  const body = JSON.stringify(
    fault.status === 429
      ? {
          error: 'temporarily_unavailable',
          error_description: `too many token requests (${fault.reason}); retry after ${fault.retryAfter} s`,
        }
      : { error: 'server_error', error_description: 'temporary failure on the service side; retry with backoff' },
  );
  res.writeHead(fault.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
}
