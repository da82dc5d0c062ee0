/**
 * Reading the response envelope (spec 2.1) defensively: a body is trusted only once it parses as
 * JSON and has the envelope's shape. Anything else is a malformed answer, which is retried.
 */

export interface PageInfo {
  hasMore: boolean;
  nextCursor: string | null;
  limit: number;
}

export interface MetaInfo {
  historyAvailableFrom: string | null;
  truncated: boolean;
}

export type ParsedBody =
  | { kind: 'success'; data: unknown; page: PageInfo | null; pageInvalid: boolean; meta: MetaInfo | null }
  | { kind: 'error'; code: string | null; message: string | null }
  | { kind: 'unreadable'; reason: string };

export function parseBody(body: string): ParsedBody {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { kind: 'unreadable', reason: body.trim() === '' ? 'empty body' : 'not JSON' };
  }
  if (!isObject(json)) return { kind: 'unreadable', reason: 'not an envelope' };
  if (json.success === false || (json.success === undefined && json.error !== undefined)) return readError(json.error);
  if (json.success !== true || !('data' in json) || json.data === undefined)
    return { kind: 'unreadable', reason: 'envelope without success/data' };
  const page = readPage(json.page);
  return {
    kind: 'success',
    data: json.data,
    page,
    pageInvalid: json.page !== undefined && page === null,
    meta: readMeta(json.meta),
  };
}

function readError(error: unknown): ParsedBody {
  if (typeof error === 'string') return { kind: 'error', code: error, message: null };
  if (isObject(error)) {
    const code = typeof error.code === 'string' ? error.code : null;
    const message = typeof error.message === 'string' ? error.message : null;
    return { kind: 'error', code, message };
  }
  return { kind: 'error', code: null, message: null };
}

function readPage(page: unknown): PageInfo | null {
  if (!isObject(page) || typeof page.has_more !== 'boolean') return null;
  const cursor = page.next_cursor;
  if (cursor !== null && cursor !== undefined && typeof cursor !== 'string') return null;
  const nextCursor = typeof cursor === 'string' && cursor !== '' ? cursor : null;
  // A page that claims more but gives no cursor cannot be followed: treat as unreadable.
  if (page.has_more && nextCursor === null) return null;
  const limit = typeof page.limit === 'number' && Number.isFinite(page.limit) ? page.limit : 0;
  return { hasMore: page.has_more, nextCursor, limit };
}

function readMeta(meta: unknown): MetaInfo | null {
  if (!isObject(meta)) return null;
  const from = meta.history_available_from;
  return {
    historyAvailableFrom: typeof from === 'string' ? from : null,
    truncated: meta.truncated === true,
  };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short, single-line excerpt of a body for a technical message (HTML tags dropped). */
export function excerpt(body: string, max = 200): string {
  const text = body
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
