import { ACCOUNT_PATH } from './constants';
import type { StoreRef } from './types';

export type AccountProbe = { ok: true; store: StoreRef } | { ok: false; status: number; code: string };

/**
 * GET /api/v1/account with the given access token (spec 4.2: "to confirm which store a stored
 * token belongs to"). Never throws for HTTP failures; the token goes only into the header.
 */
export function probeAccount(apiBaseUrl: string, accessToken: string): AccountProbe {
  let response: GoogleAppsScript.URL_Fetch.HTTPResponse;
  try {
    response = UrlFetchApp.fetch(apiBaseUrl + ACCOUNT_PATH, {
      method: 'get',
      muteHttpExceptions: true,
      // A redirect would carry the bearer token to wherever it points.
      followRedirects: false,
      headers: { Authorization: 'Bearer ' + accessToken, Accept: 'application/json' },
    });
  } catch {
    return { ok: false, status: 0, code: 'network' };
  }
  const status = response.getResponseCode();
  // The configured address is not the API's own (see ApiRedirectedError): a set-up problem.
  if (status >= 300 && status < 400) return { ok: false, status, code: 'api_redirected' };
  let body: unknown = null;
  try {
    body = JSON.parse(response.getContentText());
  } catch {
    body = null;
  }
  if (status >= 200 && status < 300) {
    const store = readStore(body);
    return store ? { ok: true, store } : { ok: false, status, code: 'malformed_response' };
  }
  return { ok: false, status, code: readErrorCode(body) ?? (status >= 500 ? 'internal_error' : 'unknown') };
}

function readStore(body: unknown): StoreRef | null {
  const data = field(body, 'data');
  const store = field(data, 'store');
  const id = field(store, 'id');
  const name = field(store, 'name');
  if (typeof id !== 'string' || id === '') return null;
  return { id, name: typeof name === 'string' && name !== '' ? name : id };
}

function readErrorCode(body: unknown): string | null {
  const code = field(field(body, 'error'), 'code');
  return typeof code === 'string' ? code : null;
}

function field(value: unknown, name: string): unknown {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;
}
