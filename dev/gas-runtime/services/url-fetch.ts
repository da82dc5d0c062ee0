import { allowedBy } from '../allowlist.js';
import type { ExecutionServiceContext } from '../types.js';
import { Blob, encodingOf, signedBytes } from './blob.js';
import { sendRequest, type IncomingResponse, type OutgoingRequest } from './http-request.js';

export const MAX_URL_LENGTH = 2048;
const MAX_REDIRECTS = 10;
const TRUNCATED_BODY_CHARS = 200;

export interface FetchPolicy {
  /** The manifest's urlFetchWhitelist (its API base put locally: allowlist.ts); undefined = none (everything allowed). */
  whitelist: string[] | undefined;
  /** Extra prefixes the runtime allows (a test's own servers), matched by the same rule. */
  allow: string[];
}

interface FetchParams {
  url?: unknown;
  method?: unknown;
  headers?: unknown;
  payload?: unknown;
  contentType?: unknown;
  muteHttpExceptions?: unknown;
  followRedirects?: unknown;
  validateHttpsCertificates?: unknown;
  escaping?: unknown;
}

/** Google's `HTTPResponse`. */
export class HTTPResponse {
  constructor(private readonly response: IncomingResponse) {}

  getResponseCode(): number {
    return this.response.status;
  }

  getContentText(charset?: unknown): string {
    return this.response.body.toString(encodingOf(charset));
  }

  getContent(): number[] {
    return signedBytes(this.response.body);
  }

  getHeaders(): Record<string, string | string[]> {
    const all = this.getAllHeaders();
    const single: Record<string, string | string[]> = {};
    for (const [name, values] of Object.entries(all)) single[name] = values.length === 1 ? values[0] : values;
    return single;
  }

  getAllHeaders(): Record<string, string[]> {
    const headers: Record<string, string[]> = {};
    const raw = this.response.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const existing = Object.keys(headers).find((k) => k.toLowerCase() === raw[i].toLowerCase());
      (headers[existing ?? raw[i]] ??= []).push(raw[i + 1]);
    }
    return headers;
  }

  getBlob(): Blob {
    return new Blob(Buffer.from(this.response.body), this.header('content-type'));
  }

  getAs(contentType: unknown): Blob {
    return this.getBlob().setContentType(contentType);
  }

  private header(name: string): string | null {
    const raw = this.response.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i].toLowerCase() === name) return raw[i + 1];
    return null;
  }
}

function formEncode(payload: Record<string, unknown>): string {
  return Object.entries(payload)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
}

function addressOf(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

export class UrlFetchApp {
  constructor(
    private readonly ctx: ExecutionServiceContext,
    private readonly policy: FetchPolicy,
  ) {}

  fetch(url: unknown, params?: unknown): Promise<HTTPResponse> {
    return this.perform(String(url), (params ?? {}) as FetchParams);
  }

  async fetchAll(requests: unknown): Promise<HTTPResponse[]> {
    if (!Array.isArray(requests)) throw new Error('Invalid argument: requests');
    const prepared = requests.map((r) =>
      typeof r === 'string'
        ? { url: r, params: {} }
        : { url: String((r as FetchParams).url), params: r as FetchParams },
    );
    return Promise.all(prepared.map((r) => this.perform(r.url, r.params)));
  }

  getRequest(url: unknown, params?: unknown): Record<string, unknown> {
    const p = (params ?? {}) as FetchParams;
    const request = this.prepare(String(url), p);
    return {
      url: request.url.toString(),
      method: request.method.toLowerCase(),
      headers: request.headers,
      payload: request.body?.toString('utf8') ?? '',
      contentType: request.headers['Content-Type'] ?? null,
      followRedirects: p.followRedirects !== false,
      validateHttpsCertificates: p.validateHttpsCertificates !== false,
      useIntranet: false,
      muteHttpExceptions: p.muteHttpExceptions === true,
    };
  }

  private checkAllowed(url: URL, text: string): void {
    const { whitelist, allow } = this.policy;
    if (whitelist === undefined) return;
    if ([...whitelist, ...allow].some((prefix) => allowedBy(prefix, text))) return;
    throw new Error(`UrlFetch calls to ${addressOf(url)} are not permitted by the script's urlFetchWhitelist.`);
  }

  private prepare(urlText: string, params: FetchParams): OutgoingRequest {
    if (urlText.length > MAX_URL_LENGTH) throw new Error('Limit Exceeded: URLFetch URL Length.');
    let url: URL;
    try {
      url = new URL(urlText);
    } catch {
      throw new Error('Invalid argument: url');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('Invalid argument: url');
    this.checkAllowed(url, urlText);
    const headers: Record<string, string> = {};
    if (params.headers && typeof params.headers === 'object') {
      for (const [k, v] of Object.entries(params.headers)) headers[k] = String(v);
    }
    let body: Buffer | null = null;
    let contentType = params.contentType === undefined ? undefined : String(params.contentType);
    const payload = params.payload;
    if (typeof payload === 'string') body = Buffer.from(payload, 'utf8');
    else if (Array.isArray(payload)) body = Buffer.from(payload.map((b) => Number(b) & 0xff));
    else if (payload instanceof Blob) {
      body = payload._buffer();
      contentType ??= payload.getContentType() ?? undefined;
    } else if (payload !== null && typeof payload === 'object')
      body = Buffer.from(formEncode(payload as Record<string, unknown>), 'utf8');
    if (body) headers['Content-Type'] = contentType ?? 'application/x-www-form-urlencoded';
    const method = params.method === undefined ? 'GET' : String(params.method).toUpperCase();
    return { method, url, headers, body, validateCertificates: params.validateHttpsCertificates !== false };
  }

  private async perform(urlText: string, params: FetchParams): Promise<HTTPResponse> {
    let request = this.prepare(urlText, params);
    this.ctx.counts.urlFetches += 1;
    for (let hop = 0; ; hop++) {
      const response = await sendRequest(request);
      this.ctx.counts.requests.push({
        method: request.method,
        url: request.url.toString(),
        status: response.status,
        bytes: response.body.length,
      });
      const location = new HTTPResponse(response).getAllHeaders();
      const target = Object.entries(location).find(([k]) => k.toLowerCase() === 'location')?.[1][0];
      const redirect = response.status >= 300 && response.status < 400 && target !== undefined;
      if (redirect && params.followRedirects !== false && hop < MAX_REDIRECTS) {
        const next = new URL(target, request.url).toString();
        const keepsMethod = response.status === 307 || response.status === 308;
        request = this.prepare(next, keepsMethod ? params : { ...params, method: 'GET', payload: undefined });
        continue;
      }
      if (response.status >= 400 && params.muteHttpExceptions !== true) {
        const text = response.body.toString('utf8');
        const truncated = text.length > TRUNCATED_BODY_CHARS ? `${text.slice(0, TRUNCATED_BODY_CHARS)}...` : text;
        throw new Error(
          `Request failed for ${request.url.protocol}//${request.url.host} returned code ${response.status}. ` +
            `Truncated server response: ${truncated} (use muteHttpExceptions option to examine full response)`,
        );
      }
      return new HTTPResponse(response);
    }
  }
}
