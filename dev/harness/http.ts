import { httpRequest, type RawRequestOptions, type RawResponse } from '../shared/http-exchange';

/** One loopback HTTP exchange without following redirects. */
export type HttpAnswer = RawResponse;

/** Refuses any host but loopback, so a test can never reach a real service. */
export function httpExchange(url: string, options: RawRequestOptions = {}): Promise<HttpAnswer> {
  const target = new URL(url);
  if (target.hostname !== '127.0.0.1' && target.hostname !== 'localhost') {
    return Promise.reject(new Error(`the harness talks to loopback only, not ${target.hostname}`));
  }
  return httpRequest(target, options);
}

/** GET (no body) or POST (JSON body) to a control route; throws with the answer when it is not 2xx. */
export async function jsonCall(url: string, body?: unknown): Promise<unknown> {
  const answer = await httpExchange(
    url,
    body === undefined
      ? { method: 'GET', headers: { Accept: 'application/json' } }
      : {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
          body: JSON.stringify(body),
        },
  );
  let parsed: unknown = null;
  try {
    parsed = answer.body === '' ? null : JSON.parse(answer.body);
  } catch {
    parsed = answer.body;
  }
  if (answer.status < 200 || answer.status >= 300) {
    throw new Error(
      `${body === undefined ? 'GET' : 'POST'} ${new URL(url).pathname} answered ${answer.status}: ${answer.body.slice(0, 300)}`,
    );
  }
  return parsed;
}
